import type { z } from 'zod';
import { UpstreamError } from './errors.js';
import type { BlockPin } from './evm-state.js';
import type { UpstreamRequest as Req } from './request.js';
import type { ResourceKind } from './resources.js';
import * as s from './schemas/evm-state.js';
import { hexQuantity } from './schemas/node-common.js';

/** A fee history, with the head the node had when it answered (absent when read at the head). */
export type FeeHistoryRead = s.EvmFeeHistory & { headAtRead?: string };

/** One `feeHistory` read: the window's length and its reward percentiles. */
export interface FeeWindow {
  blockCount: number;
  percentiles: number[];
}

export interface HeadFees {
  /** The head, decimal: the newest block of every history. */
  number: string;
  /** One history per window, in the windows' order. */
  histories: s.EvmFeeHistory[];
}

/** Decimal number of the newest block a fee history covers. */
export const newestOf = (f: s.EvmFeeHistory): string =>
  String(BigInt(f.oldestBlock) + BigInt(Math.max(f.gasUsedRatio.length - 1, 0)));

/** How an EVM endpoint describes one JSON-RPC read (its client's `req`). */
type Describe = <S extends z.ZodType>(
  resource: ResourceKind,
  method: string,
  params: unknown[],
  schema: S,
) => Req<z.output<S>>;

const toHex = (decimal: string) => `0x${BigInt(decimal).toString(16)}`;

/** An EVM endpoint's fee-history reads (`EvmStateClient.feeHistory` and `headFees`). */
export function feeReads(req: Describe, path: string) {
  const fees = (n: number, block: string, pct: number[]): Req<s.EvmFeeHistory> =>
    complete(
      req(
        'node.evm.headState',
        'eth_feeHistory',
        [toHex(String(n)), block, pct],
        s.feeHistoryResult,
      ),
      (f) =>
        pct.length === 0 ||
        (f.reward?.length === f.gasUsedRatio.length &&
          f.reward.every((r) => r.length === pct.length))
          ? undefined
          : `no reward at each of the ${pct.length} percentiles asked for`,
    );
  return {
    feeHistory: (n: number, pin: BlockPin, pct: number[]): Req<FeeHistoryRead> => {
      const history = fees(n, toHex(pin.number), pct);
      if (pin.head) return history;
      const head = req('node.evm.eth_blockNumber', 'eth_blockNumber', [], hexQuantity);
      return {
        ...history,
        variant: 'with-head',
        async run(c) {
          const [value, number] = await Promise.all([history.run(c), head.run(c)]);
          return { ...value, headAtRead: number };
        },
        resourceOf: (v) =>
          BigInt((v as FeeHistoryRead).headAtRead ?? pin.number) > BigInt(pin.number)
            ? 'node.evm.state'
            : 'node.evm.headState',
      };
    },
    headFees: (windows: readonly FeeWindow[]): Req<HeadFees> => {
      const parts = windows.map((w) => fees(w.blockCount, 'latest', w.percentiles));
      return {
        ...parts[0]!,
        resource: 'node.evm.headState',
        query: { ...parts[0]!.query, rpc: `eth_feeHistory×${windows.length}` },
        body: windows.map((w) => [w.blockCount, w.percentiles]),
        variant: 'head-fees',
        async run(c) {
          const histories = await Promise.all(parts.map((p) => p.run(c)));
          const number = newestOf(histories[0]!);
          // A real node may take a new head between two calls of a batch: no answer mixes two heads.
          if (histories.some((f) => newestOf(f) !== number))
            throw new UpstreamError('node', 'payload', {
              request: `POST ${path} eth_feeHistory`,
              upstreamMessage: 'the fee histories of one batch end at different heads',
            });
          return { number, histories };
        },
      };
    },
  };
}

/**
 * An answer that leaves out part of what was asked (a proof per key, a reward per percentile) is a
 * payload error, never a shorter list served as if complete.
 */
export function complete<T>(r: Req<T>, missing: (value: T) => string | undefined): Req<T> {
  return {
    ...r,
    run: async (call) => {
      const value = await r.run(call);
      const what = missing(value);
      if (what === undefined) return value;
      throw new UpstreamError('node', 'payload', {
        request: `POST ${r.path} ${String(r.query.rpc)}`,
        upstreamMessage: `${String(r.query.rpc)}: the answer is incomplete (${what})`,
      });
    },
  };
}
