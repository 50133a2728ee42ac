import type { IncomingHttpHeaders } from 'node:http';

/**
 * Shared shapes of the upstream simulator. The simulator is a dev and test tool: gateway code
 * (everything outside packages/simulator) never imports it.
 */

/** One request as an upstream handler sees it: the path is below the upstream's base path. */
export interface SimRequest {
  method: string;
  /** Path below the base path, e.g. `/v1/chains/43114/blocks` or `/ext/info`. Already percent-decoded per segment by the router. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw request body (empty string when none). */
  rawBody: string;
}

/** What a handler answers. `body` is serialized as JSON; `text` is sent as-is (plain text). */
export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  text?: string;
  /**
   * The route template this request matched, used for call counting and fault matching,
   * e.g. `GET /v1/chains/:chainId/blocks` or `POST /ext/bc/C/rpc`. Unmatched: `GET (unmatched)`.
   */
  route: string;
  /** JSON-RPC method names served by this request (one for node-style endpoints, several for an EVM batch). */
  rpcMethods?: string[];
}

export type UpstreamName = 'data-api' | 'metrics-api' | 'node';

export interface SimUpstream {
  name: UpstreamName;
  handle(req: SimRequest): Promise<SimResponse> | SimResponse;
}

/** Call counts since the last reset. Keys are `${upstream} ${route}`, e.g. `data-api GET /v1/chains/:chainId/blocks`. */
export interface SimStats {
  total: number;
  byRoute: Record<string, number>;
  /** Keys are `${path} ${method}`, e.g. `/ext/bc/C/rpc eth_getBlockByNumber`; a batch counts each call. */
  byRpcMethod: Record<string, number>;
  /**
   * The node's JSON-RPC calls (HTTP and websocket, each call of a batch) in compute units at the
   * published price table (its own copy, src/prices.ts; a method it omits at the documented default).
   * A subscription's notifications are not calls and cost nothing here.
   */
  nodeCu: number;
  /** The Data API's answered calls at the same table's route prices (whether or not a plan is charged). */
  dataCu: number;
  /** The Metrics API's answered calls, on its own scale. */
  metricsCu: number;
  /**
   * What each route charged, in CUs (its own price table): `byRoute`'s keys for the Data and Metrics
   * APIs, `node ${byRpcMethod key}` for each JSON-RPC method. What benches count as spent.
   */
  cuByRoute: Record<string, number>;
}

/** A fault injected through `POST /_sim/faults`. */
export interface SimFault {
  /** Which requests it hits: `${upstream} ${route}` must start with this string (omit = every request). */
  route?: string;
  /** Answer with this HTTP status and (optional) body instead of the real answer. */
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Added latency before answering (ms). */
  latencyMs?: number;
  /** Destroy the socket without answering. */
  reset?: boolean;
  /** Answer 200 with a body that is not valid JSON. */
  malformed?: boolean;
  /** Fire for this many matching requests, then disappear (default: unlimited). */
  count?: number;
  /** Fire for this fraction of matching requests, 0..1 (default 1). */
  rate?: number;
}

/** What every upstream factory (`createDataApi`, `createMetricsApi`, `createNodeRpc`) receives besides the world. */
export interface SimUpstreamOptions {
  /** Answer the node's admin APIs (`/ext/admin`, `/ext/bc/C/admin`). */
  adminEnabled: boolean;
  /** Lifetime of issued page tokens (ms). */
  pageTokenTtlMs: number;
  /** Wall clock (ms) for token expiry and time-relative answers; tests may inject one. */
  now: () => number;
  /** The C-Chain's eth_getProof windows (archival with 43,200 blocks by default). */
  proofWindow?: { pruning?: boolean; historicalProofQueryWindow?: number };
}
