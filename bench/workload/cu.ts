import type { SimStatsBody } from './processes.js';

/**
 * CUs counted where they are spent: what the simulator charged, by route (and JSON-RPC method), from its
 * own ledger and its own copy of the published prices (packages/simulator/src/prices.ts), never the
 * gateway's table: a price the gateway gets wrong is not repeated in what it is measured by. The same
 * count serves the gateway, the direct baseline and the peer, so none of them reports its own spending.
 */
export interface CuCount {
  total: number;
  calls: number;
  /** By upstream: `data-api`, `metrics-api` (each its own plan), `node` (JSON-RPC). */
  byUpstream: Record<string, number>;
  byRoute: Record<string, { calls: number; cu: number }>;
}

export function diffStats(a: SimStatsBody, b: SimStatsBody): SimStatsBody {
  const sub = (x: Record<string, number>, y: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(y)
        .map(([k, v]) => [k, v - (x[k] ?? 0)] as const)
        .filter(([, v]) => v > 0),
    );
  return {
    total: b.total - a.total,
    byRoute: sub(a.byRoute, b.byRoute),
    byRpcMethod: sub(a.byRpcMethod, b.byRpcMethod),
    cuByRoute: sub(a.cuByRoute, b.cuByRoute),
  };
}

export function countCu(s: SimStatsBody): CuCount {
  const out: CuCount = { total: 0, calls: 0, byUpstream: {}, byRoute: {} };
  const add = (key: string, calls: number, cu: number) => {
    const row = out.byRoute[key] ?? { calls: 0, cu: 0 };
    out.byRoute[key] = row;
    row.calls += calls;
    row.cu += cu;
    out.total += cu;
    const upstream = key.slice(0, key.indexOf(' '));
    out.byUpstream[upstream] = (out.byUpstream[upstream] ?? 0) + cu;
  };
  // HTTP requests by route; JSON-RPC charged per method (an HTTP batch is several calls); the CUs are
  // the simulator's ledger's.
  for (const [key, calls] of Object.entries(s.byRoute)) {
    out.calls += calls;
    if (!key.startsWith('node ')) add(key, calls, s.cuByRoute[key] ?? 0);
  }
  for (const [key, calls] of Object.entries(s.byRpcMethod))
    add(`node ${key}`, calls, s.cuByRoute[`node ${key}`] ?? 0);
  return out;
}
