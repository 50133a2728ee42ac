import { formatAddress, parseServiceAddress } from './addresses.js';
import { encodeBytes } from './codec.js';
import { cb58Decode, EMPTY_ID, type Encoding } from './go-args.js';
import { NodeRpcError } from './gorilla.js';
import { type LedgerUtxo, paginateUtxos } from './ledger.js';
import type { NodeState } from './node-state.js';

/** The `getUTXOs` method shared by `avm.getUTXOs` and `avax.getUTXOs` (api.GetUTXOsArgs / Reply). */

const MAX_ADDRESSES = 1024;
const MAX_PAGE = 1024;

export const GET_UTXOS_ARGS = {
  addresses: 'string[]',
  sourceChain: 'string',
  limit: 'uint32',
  startIndex: { object: { address: 'string', utxo: 'string' } },
  encoding: 'encoding',
} as const;

export interface GetUtxosArgs {
  addresses: string[];
  sourceChain: string;
  limit: bigint;
  startIndex: { address: string; utxo: string };
  encoding: Encoding;
}

export function getUtxos(
  state: NodeState,
  chain: { id: string; alias: 'X' | 'C' },
  args: GetUtxosArgs,
  indexFor: (sourceChainId: string) => Map<string, LedgerUtxo[]>,
  sourceRequired: boolean,
) {
  if (args.addresses.length === 0) throw new NodeRpcError('no addresses provided');
  if (args.addresses.length > MAX_ADDRESSES) {
    throw new NodeRpcError(
      `number of addresses given, ${args.addresses.length}, exceeds maximum, ${MAX_ADDRESSES}`,
    );
  }
  let sourceChain = chain.id;
  if (args.sourceChain === '') {
    if (sourceRequired) throw new NodeRpcError('no source chain provided');
  } else {
    const found = state.chainOf(args.sourceChain);
    if (!found)
      throw new NodeRpcError(
        `problem parsing source chainID ${JSON.stringify(args.sourceChain)}: there is no ID with alias: ${args.sourceChain}`,
      );
    sourceChain = found.id;
  }
  const addrs = args.addresses.map((a) => parseServiceAddress(state, chain.id, a));
  let startAddr = '00'.repeat(20);
  let startUtxo = EMPTY_ID;
  if (args.startIndex.address !== '' || args.startIndex.utxo !== '') {
    try {
      startAddr = parseServiceAddress(state, chain.id, args.startIndex.address);
    } catch (e) {
      throw new NodeRpcError(
        `couldn't parse start index address ${JSON.stringify(args.startIndex.address)}: ${(e as Error).message}`,
      );
    }
    const bytes = cb58Decode(args.startIndex.utxo);
    if (!bytes)
      throw new NodeRpcError(
        `couldn't parse start index utxo: ${args.startIndex.utxo.length < 5 ? 'input string is smaller than the checksum size' : 'invalid input checksum'}`,
      );
    if (bytes.length !== 32)
      throw new NodeRpcError(
        `couldn't parse start index utxo: expected 32 bytes but got ${bytes.length}`,
      );
    startUtxo = args.startIndex.utxo;
  }
  const limit = args.limit <= 0n || args.limit > BigInt(MAX_PAGE) ? MAX_PAGE : Number(args.limit);
  const page = paginateUtxos(indexFor(sourceChain), addrs, startAddr, startUtxo, limit);
  const utxos = page.utxos.map((u) => {
    try {
      if (args.encoding === 'hex' || args.encoding === 'hexc') {
        u.hex ??= encodeBytes('hex', u.bytesHex);
        return u.hex;
      }
      return encodeBytes(args.encoding, u.bytesHex);
    } catch (e) {
      const prefix =
        chain.alias === 'X' ? `couldn't encode UTXO ${u.id} as string` : 'problem encoding utxo';
      throw new NodeRpcError(`${prefix}: ${(e as Error).message}`);
    }
  });
  return {
    numFetched: String(utxos.length),
    utxos,
    endIndex: {
      address: formatAddress(chain.alias, state.net.info.hrp, page.endAddrHex),
      utxo: page.endUtxoId,
    },
    encoding: args.encoding,
  };
}
