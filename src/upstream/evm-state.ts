import type { z } from 'zod';
import { UpstreamError } from './errors.js';
import { classifyEvmError } from './evm-errors.js';
import {
  complete,
  type FeeHistoryRead,
  type FeeWindow,
  feeReads,
  type HeadFees,
} from './evm-fees.js';
import type { HttpClient } from './http.js';
import { createJsonRpcClient, type JsonRpcClient } from './jsonrpc.js';
import { nodeKeyOf, nodeRequests } from './node-request.js';
import type { Page, UpstreamRequest } from './request.js';
import type { ResourceKind } from './resources.js';
import * as s from './schemas/evm-state.js';
import { hexQuantity } from './schemas/node-common.js';

/**
 * EVM state read from a node's go-ethereum-style endpoint: `/ext/bc/C/rpc` on an AvalancheGo node,
 * `/ext/bc/<blockchain id>/rpc` for an L1's EVM, or whatever path a plain EVM node serves. The
 * calls made in one tick go out as one JSON-RPC batch (≤ `maxBatchSize`, 40 as on the public API
 * node).
 *
 * Every read names the block it reads (a `BlockPin`), never `latest`: the loaders resolve `latest`
 * to a number first, so all reads of a query see one state. A pin with a hash is sent as EIP-1898
 * `{ blockHash }` and keyed by it; a pin by number is keyed by the number (blocks are final: both
 * name one state). A read at a pin made from `latest` is head data; at a pin the client named,
 * final data.
 */
export interface BlockPin {
  /** Decimal block number. */
  number: string;
  /** 0x block hash, when known. */
  hash?: string;
  /** This pin is the head `latest` resolved to (cached by the head class, not as final). */
  head?: boolean;
}

export interface EvmCallInput {
  to: string;
  data: string;
  from?: string;
  /** Wei, decimal. */
  value?: string;
}

export interface LogFilter {
  fromBlock: string;
  toBlock: string;
  address?: string[];
  topics?: (string | string[] | null)[];
}

type Req<T> = UpstreamRequest<T>;

export {
  classifyEvmError,
  EvmRevertError,
  PRUNING_TIP_BUFFER,
  ProofWindowError,
} from './evm-errors.js';
export type { FeeHistoryRead, FeeWindow, HeadFees } from './evm-fees.js';

export interface EvmStateClient {
  /** `node/path`: which endpoint this is. */
  readonly id: string;
  readonly node: string;
  readonly path: string;
  chainId(): Req<string>;
  blockNumber(): Req<string>;
  /** A block the node does not hold is a 404 (remembered briefly, never as final). */
  header(pin: BlockPin): Req<s.EvmHeader>;
  balance(address: string, pin: BlockPin): Req<string>;
  nonce(address: string, pin: BlockPin): Req<string>;
  code(address: string, pin: BlockPin): Req<string>;
  storage(address: string, slot: string, pin: BlockPin): Req<string>;
  call(input: EvmCallInput, pin: BlockPin): Req<string>;
  estimateGas(input: EvmCallInput, pin: BlockPin): Req<string>;
  logs(filter: LogFilter): Req<s.EvmLog[]>;
  /**
   * One page of the logs over blocks `from`..`to` (inclusive): `eth_getLogs` over a window of at
   * most `window` blocks, starting at the page token's block (the first window at `from`). The
   * next window's first block is the next token; the window that reaches `to` is the last page.
   */
  logsPage(
    filter: Omit<LogFilter, 'fromBlock' | 'toBlock'>,
    range: { from: number; to: number; window: number },
    pageToken: string | null,
  ): Req<Page<s.EvmLog>>;
  /** The logs of one block, by its hash (EIP-234): final. */
  blockLogs(blockHash: string): Req<s.EvmLog[]>;
  proof(address: string, keys: string[], pin: BlockPin): Req<s.EvmProof>;
  /**
   * eth_feeHistory over the `blockCount` blocks ending at the pinned block, with the head number asked
   * in the same batch: the last base fee is the node's forecast while the pin is the head and the next
   * block's own fee once it exists, so the answer is final only when the head has passed the pin.
   */
  feeHistory(blockCount: number, pin: BlockPin, percentiles: number[]): Req<FeeHistoryRead>;
  /**
   * The head and its fee histories in one answer (one batch, cached whole): `latest` pinned by the
   * newest block of the histories, so the forecast entry is the one the node gave at that head.
   */
  headFees(windows: readonly FeeWindow[]): Req<HeadFees>;
}

const toHex = (decimal: string) => `0x${BigInt(decimal).toString(16)}`;
const blockParam = (pin: BlockPin) => (pin.hash ? { blockHash: pin.hash } : toHex(pin.number));
const txObject = (i: EvmCallInput) => ({
  to: i.to,
  data: i.data,
  ...(i.from ? { from: i.from } : {}),
  ...(i.value ? { value: toHex(i.value) } : {}),
});

export function createEvmStateClient(options: {
  node: string;
  url: string;
  path: string;
  http: HttpClient;
  maxBatchSize?: number;
}): EvmStateClient {
  const request = nodeRequests(nodeKeyOf(options.node, options.url));
  const rpc: JsonRpcClient = createJsonRpcClient({
    http: options.http,
    path: options.path,
    style: 'geth',
    maxBatchSize: options.maxBatchSize ?? 40,
  });

  const req = <S extends z.ZodType>(
    resource: ResourceKind,
    method: string,
    params: unknown[],
    schema: S,
  ): Req<z.output<S>> =>
    request(rpc, resource, method, params, schema, {
      failed: (e) => classifyEvmError(e, method),
      misfit: (where) => `${method}: the answer does not fit its contract (${where})`,
    });
  const at = (pin: BlockPin): ResourceKind => (pin.head ? 'node.evm.headState' : 'node.evm.state');

  const logs = (f: LogFilter): Req<s.EvmLog[]> =>
    req(
      'node.evm.state',
      'eth_getLogs',
      [
        {
          fromBlock: toHex(f.fromBlock),
          toBlock: toHex(f.toBlock),
          address: f.address,
          topics: f.topics,
        },
      ],
      s.logsResult,
    );
  return {
    id: `${options.node}${options.path}`,
    node: options.node,
    path: options.path,
    chainId: () => req('node.evm.eth_chainId', 'eth_chainId', [], hexQuantity),
    blockNumber: () => req('node.evm.eth_blockNumber', 'eth_blockNumber', [], hexQuantity),
    header: (pin) => {
      const r = pin.hash
        ? req(at(pin), 'eth_getBlockByHash', [pin.hash, false], s.headerResult)
        : req(at(pin), 'eth_getBlockByNumber', [toHex(pin.number), false], s.headerResult);
      return {
        ...r,
        run: async (call) => {
          const h = await r.run(call);
          if (h) return h;
          const upstreamMessage = `block ${pin.hash ?? pin.number} not found`;
          throw new UpstreamError('node', 'status', {
            status: 404,
            request: `POST ${options.path} ${String(r.query.rpc)}`,
            upstreamMessage,
            ownWords: true,
          });
        },
      };
    },
    balance: (a, pin) => req(at(pin), 'eth_getBalance', [a, blockParam(pin)], hexQuantity),
    nonce: (a, pin) => req(at(pin), 'eth_getTransactionCount', [a, blockParam(pin)], hexQuantity),
    code: (a, pin) => req(at(pin), 'eth_getCode', [a, blockParam(pin)], s.dataResult),
    storage: (a, slot, pin) =>
      req(at(pin), 'eth_getStorageAt', [a, slot, blockParam(pin)], s.storageResult),
    call: (i, pin) => req(at(pin), 'eth_call', [txObject(i), blockParam(pin)], s.dataResult),
    estimateGas: (i, pin) =>
      req(at(pin), 'eth_estimateGas', [txObject(i), blockParam(pin)], hexQuantity),
    // A range that ends at or below a resolved head is final.
    logs,
    logsPage(f, { from, to, window }, pageToken) {
      const start = pageToken === null ? from : Number(pageToken);
      if (!/^\d{1,15}$/.test(pageToken ?? '0') || start < from || start > to)
        throw new UpstreamError('node', 'status', {
          status: 400,
          upstreamMessage: 'not a block of this logs range',
          ownWords: true,
        });
      const end = Math.min(start + window - 1, to);
      const read = logs({ ...f, fromBlock: String(start), toBlock: String(end) });
      return {
        ...read,
        // The page's next token depends on `to`: pages of ranges with other ends are cached apart.
        variant: `to=${to}`,
        run: async (call) => ({
          items: await read.run(call),
          nextPageToken: end < to ? String(end + 1) : null,
        }),
      };
    },
    blockLogs: (blockHash) => req('node.evm.state', 'eth_getLogs', [{ blockHash }], s.logsResult),
    proof: (a, keys, pin) =>
      complete(req(at(pin), 'eth_getProof', [a, keys, blockParam(pin)], s.proofResult), (p) =>
        p.storageProof.length === keys.length
          ? undefined
          : `${p.storageProof.length} storage proofs for ${keys.length} keys`,
      ),
    ...feeReads(req, options.path),
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const EVM_STATE_RESOURCES = [
  'node.evm.eth_chainId',
  'node.evm.eth_blockNumber',
  'node.evm.state',
  'node.evm.headState',
] as const;
