import { revertReasonOf } from './erc20-abi.js';
import { UpstreamError } from './errors.js';

/** How an EVM node's failures read: a reverted call, a proof outside the node's window. */

/**
 * A call or gas estimate the EVM reverted: the revert data is the answer's substance, not a
 * failure.
 */
export class EvmRevertError extends UpstreamError {
  readonly reason = 'EXECUTION_REVERTED';
  readonly gqlCode = 'BAD_USER_INPUT';
  constructor(
    readonly revertData: string,
    cause: UpstreamError,
  ) {
    super('node', 'rpc', {
      rpcCode: cause.rpcCode,
      request: cause.request,
      upstreamMessage: cause.upstreamMessage,
      rpcData: revertData,
      cause,
    });
  }
  get extensions(): Record<string, unknown> {
    return { revertData: this.revertData, revertReason: revertReasonOf(this.revertData) ?? null };
  }
}

/**
 * `eth_getProof` outside the node's proof window (the seed: an archival node answers proofs for
 * `historical-proof-query-window` blocks before the last accepted one, 24 h of blocks by default, 0
 * for any; a pruning node only for the 32 blocks of its tip buffer). coreth's text names the window
 * size.
 */
export class ProofWindowError extends UpstreamError {
  readonly gqlCode = 'BAD_USER_INPUT';
  readonly reason: 'PROOF_WINDOW_ARCHIVAL' | 'PROOF_WINDOW_PRUNING';
  constructor(
    readonly window: { blocks: number; earliestBlock: string; requestedBlock: string },
    cause: UpstreamError,
  ) {
    super('node', 'rpc', {
      rpcCode: cause.rpcCode,
      request: cause.request,
      upstreamMessage: cause.upstreamMessage,
      cause,
    });
    this.reason =
      window.blocks === PRUNING_TIP_BUFFER ? 'PROOF_WINDOW_PRUNING' : 'PROOF_WINDOW_ARCHIVAL';
  }
  get extensions(): Record<string, unknown> {
    return {
      windowBlocks: this.window.blocks,
      earliestBlock: this.window.earliestBlock,
      requestedBlock: this.window.requestedBlock,
    };
  }
}

/** coreth's tip buffer: a pruning node keeps the state of the last 32 accepted blocks. */
export const PRUNING_TIP_BUFFER = 32;
const PROOF_WINDOW = new RegExp(
  'block number (\\d+) is before the (?:earliest|oldest) allowed block number' +
    '(?: for queries)? (\\d+) \\(window of (\\d+) blocks\\)',
  'i',
);
const REVERTED = /execution reverted|reverted/i;

/** Revert data as geth (`data: "0x…"`, code 3) and Hardhat (`data: { data: "0x…" }`) carry it. */
function revertDataOf(e: UpstreamError): string | undefined {
  const d = e.rpcData;
  const hex =
    typeof d === 'string'
      ? d
      : typeof d === 'object' && d !== null
        ? (d as { data?: unknown }).data
        : undefined;
  if (typeof hex === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(hex)) return hex.toLowerCase();
  if (e.rpcCode === 3) return '0x';
  return undefined;
}

export function classifyEvmError(e: unknown, method: string): unknown {
  if (!(e instanceof UpstreamError) || e.kind !== 'rpc') return e;
  if (
    (method === 'eth_call' || method === 'eth_estimateGas') &&
    (e.rpcCode === 3 || REVERTED.test(e.upstreamMessage ?? ''))
  ) {
    const data = revertDataOf(e);
    if (data !== undefined) return new EvmRevertError(data, e);
  }
  const w = method === 'eth_getProof' ? PROOF_WINDOW.exec(e.upstreamMessage ?? '') : null;
  if (w)
    return new ProofWindowError(
      { requestedBlock: w[1]!, earliestBlock: w[2]!, blocks: Number(w[3]) },
      e,
    );
  return e;
}
