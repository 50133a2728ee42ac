import { z } from 'zod';
import { UpstreamError } from './errors.js';
import type { HttpClient } from './http.js';
import { createJsonRpcClient, type JsonRpcClient } from './jsonrpc.js';
import { nodeKeyOf, nodeRequests } from './node-request.js';
import type { NodeTargetInfo, ProfilerAction, UtxoQuery } from './node-rpc-types.js';
import type { Page, UpstreamRequest } from './request.js';
import type { ResourceKind } from './resources.js';
import { issueTxResult, type UtxoPageResult } from './schemas/node-avm.js';
import { emptyResult } from './schemas/node-common.js';

type Req<T> = UpstreamRequest<T>;

const startIndex = z.strictObject({ address: z.string().max(256), utxo: z.string().max(256) });

/** A UTXO page token back to the node's `startIndex`; a token we did not make is refused like an expired one. */
function utxoStartIndex(pageToken: string): z.output<typeof startIndex> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(pageToken);
  } catch {
    parsed = undefined;
  }
  const r = startIndex.safeParse(parsed);
  if (!r.success)
    throw new UpstreamError('node', 'status', {
      status: 400,
      upstreamMessage: 'not a getUTXOs position',
      ownWords: true,
    });
  return r.data;
}

/** How one node call is described and how its failures read: refusals, the method named in messages. */
/**
 * A node-specific method (the admin APIs, info.getNodeID/getNodeIP/getVMs) the node refused: public API
 * nodes do not serve them, and the admin APIs exist only when enabled. Mapped to a typed GraphQL error.
 */
export class NodeMethodUnavailableError extends UpstreamError {
  readonly reason = 'NODE_METHOD_UNAVAILABLE';
  constructor(
    private readonly node: string,
    private readonly method: string,
    private readonly refusal: UpstreamError,
  ) {
    super('node', 'rpc', {
      rpcCode: refusal.rpcCode,
      request: refusal.request,
      upstreamMessage: NodeMethodUnavailableError.words(node, method, refusal.upstreamMessage),
      cause: refusal,
    });
  }

  private static words(node: string, method: string, why: string | undefined): string {
    return `node "${node}" does not serve ${method}${why ? ` (${why})` : ''}; node-specific methods are refused by public API nodes and the admin APIs must be enabled on the node`;
  }

  /** Ours, with the node's own refusal only as far as the allow-list knows it. */
  override clientText(): string {
    const why = this.refusal.clientText() ?? this.refusal.kind;
    return NodeMethodUnavailableError.words(this.node, this.method, why);
  }
}

/** A refusal: the node's error says so (node-errors.ts), or its HTTP server has no such route or denies it. */
function isRefusal(e: unknown): e is UpstreamError {
  if (!(e instanceof UpstreamError)) return false;
  if (e.kind === 'status') return e.status === 401 || e.status === 403 || e.status === 404;
  return e.kind === 'rpc' && e.meaning === 'refused';
}

/** The node's messages rarely say which call failed ("not found"): prefix the method, keep the rest as is. */
function namingMethod(e: unknown, method: string): unknown {
  if (!(e instanceof UpstreamError) || (e.kind !== 'rpc' && e.kind !== 'status')) return e;
  return new UpstreamError(e.upstream, e.kind, {
    status: e.status,
    rpcCode: e.rpcCode,
    retryAfterSec: e.retryAfterSec,
    request: e.request,
    requestId: e.requestId,
    meaning: e.meaning,
    upstreamMessage: `${method}: ${e.upstreamMessage ?? (e.status ? `HTTP ${e.status}` : e.kind)}`,
    cause: e,
  });
}

export interface CallOptions {
  /** Refusals become NodeMethodUnavailableError. */
  nodeSpecific?: boolean;
  /** Changes node state: sent alone, never retried. */
  sideEffect?: boolean;
}

/** A node's endpoints and the call builder every method group (node-rpc*.ts) uses. */
export function nodeCalls(target: NodeTargetInfo, http: HttpClient) {
  const request = nodeRequests(nodeKeyOf(target.name, target.url));
  const gorilla = (path: string) => createJsonRpcClient({ http, path, style: 'gorilla' });
  const ep = {
    info: gorilla('/ext/info'),
    admin: gorilla('/ext/admin'),
    x: gorilla('/ext/bc/X'),
    cRpc: createJsonRpcClient({ http, path: '/ext/bc/C/rpc', style: 'geth', maxBatchSize: 40 }),
    cAvax: gorilla('/ext/bc/C/avax'),
    cAdmin: gorilla('/ext/bc/C/admin'),
  };

  const call = <S extends z.ZodType>(
    rpc: JsonRpcClient,
    resource: ResourceKind,
    method: string,
    params: unknown,
    schema: S,
    o: CallOptions = {},
  ): Req<z.output<S>> =>
    request(rpc, resource, method, params, schema, {
      retry: !o.sideEffect,
      failed: (e) =>
        o.nodeSpecific && isRefusal(e)
          ? new NodeMethodUnavailableError(target.name, method, e)
          : namingMethod(e, method),
      misfit: (where) => `the node's answer does not fit its contract (${where})`,
    });
  const map = <A, B>(req: Req<A>, f: (a: A) => B): Req<B> => ({
    ...req,
    run: async (call) => f(await req.run(call)),
  });
  const utxoParams = (q: UtxoQuery, pageToken: string | null) => ({
    addresses: q.addresses,
    sourceChain: q.sourceChain,
    startIndex: pageToken === null ? undefined : utxoStartIndex(pageToken),
    limit: q.limit,
    encoding: 'hex',
  });
  /**
   * One `getUTXOs` page as a list page. The node pages by position: a full page may have more behind
   * it, and the next one starts at the node's `endIndex`, which becomes the page token. A short page
   * is the last.
   */
  const utxoPage = (q: UtxoQuery, req: Req<UtxoPageResult>): Req<Page<string>> =>
    map(req, (r) => ({
      items: r.utxos,
      nextPageToken:
        r.numFetched >= q.limit
          ? JSON.stringify({ address: r.endIndex.address, utxo: r.endIndex.utxo })
          : null,
    }));
  const node = { nodeSpecific: true };
  const write = { nodeSpecific: true, sideEffect: true };
  const issue = { sideEffect: true };
  /** A signed transaction (hex) issued by one chain's `issueTx` method: its id, never retried. */
  const issueHexTx = (rpc: JsonRpcClient, method: string, tx: string): Req<string> =>
    map(
      call(rpc, 'node.issueTx', method, { tx, encoding: 'hex' }, issueTxResult, issue),
      (r) => r.txID,
    );
  /** An admin endpoint's profiler (the node's `/ext/admin` and the C-Chain's take the same methods). */
  const profiler =
    (rpc: JsonRpcClient) =>
    (action: ProfilerAction): Req<{ ok: true }> =>
      call(rpc, 'node.admin', `admin.${action}`, {}, emptyResult, write);

  return { ep, call, map, utxoParams, utxoPage, node, write, issue, issueHexTx, profiler };
}

export type NodeCalls = ReturnType<typeof nodeCalls>;
