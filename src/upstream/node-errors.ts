/**
 * What a node's error means, decided in one table. AvalancheGo's gorilla endpoints answer -32000 for every
 * application error (unknown ids, bad arguments, state conflicts alike) and the geth endpoint uses it for
 * most failures: only the message tells them apart. Each row is one message as avalanchego (or coreth,
 * gorilla/rpc) words it; test/unit/node-errors.test.ts feeds every row its real text.
 * The schema maps the reason to a client-visible code without reading the message.
 */
export type NodeErrorReason =
  /** The thing asked for does not exist (tx, asset, block, alias, logger). */
  | 'not_found'
  /** The node rejected the arguments. */
  | 'bad_input'
  /** The node does not serve this method (public API nodes, admin API not enabled). */
  | 'refused';

export interface NodeErrorRow {
  match: RegExp;
  reason: NodeErrorReason;
  /** The row applies only under this JSON-RPC code (absent: any code). */
  rpcCode?: number;
}

const APP = -32000;

export const NODE_ERRORS: readonly NodeErrorRow[] = [
  // not found
  { match: /\bnot found\b/i, reason: 'not_found', rpcCode: APP },
  { match: /could(?:n't| not) find/i, reason: 'not_found', rpcCode: APP },
  { match: /there is no (?:chain|ID) with alias/i, reason: 'not_found', rpcCode: APP },
  // bad input
  { match: /couldn't unmarshal an argument/i, reason: 'bad_input', rpcCode: APP },
  { match: /couldn't parse/i, reason: 'bad_input', rpcCode: APP },
  { match: /problem (?:parsing|decoding)/i, reason: 'bad_input', rpcCode: APP },
  { match: /invalid input checksum/i, reason: 'bad_input', rpcCode: APP },
  { match: /smaller than the checksum size/i, reason: 'bad_input', rpcCode: APP },
  { match: /expected \d+ bytes/i, reason: 'bad_input', rpcCode: APP },
  { match: /no (?:addresses|source chain) provided/i, reason: 'bad_input', rpcCode: APP },
  { match: /exceeds maximum/i, reason: 'bad_input', rpcCode: APP },
  { match: /too long/i, reason: 'bad_input', rpcCode: APP },
  { match: /need to specify/i, reason: 'bad_input', rpcCode: APP },
  { match: /failed to parse log level/i, reason: 'bad_input', rpcCode: APP },
  { match: /unsupported encoding/i, reason: 'bad_input', rpcCode: APP },
  { match: /nil transaction ID/i, reason: 'bad_input', rpcCode: APP },
  { match: /missing 0x prefix/i, reason: 'bad_input', rpcCode: APP },
  { match: /mismatched chainIDs/i, reason: 'bad_input', rpcCode: APP },
  // refused: the method is not served here (a disabled admin API has no route: HTTP 404, see node-rpc.ts)
  { match: /can't find (?:method|service)/i, reason: 'refused' },
  { match: /does not exist\/is not available/i, reason: 'refused' },
];

/** The first row matching the node's error, by code then message; undefined when nothing is known. */
export function interpretNodeError(
  rpcCode: number | undefined,
  message: string | undefined,
): NodeErrorReason | undefined {
  if (rpcCode === -32601) return 'refused';
  if (rpcCode === -32602) return 'bad_input';
  const text = message ?? '';
  for (const row of NODE_ERRORS) {
    if (row.rpcCode !== undefined && row.rpcCode !== rpcCode) continue;
    if (row.match.test(text)) return row.reason;
  }
  return undefined;
}
