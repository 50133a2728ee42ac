import { type CuUpstreamName, cuPrice } from '../../src/upstream/compute-units.js';
import type { SimStatsBody } from './processes.js';

/**
 * CUs counted where they are spent: the simulator's calls by route (and JSON-RPC method), each priced
 * by the project's one price table (src/upstream/compute-units.ts). The same count serves the gateway,
 * the direct baseline and the peer, so none of them reports its own spending.
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
  };
}

export function countCu(s: SimStatsBody): CuCount {
  const out: CuCount = { total: 0, calls: 0, byUpstream: {}, byRoute: {} };
  const add = (key: string, calls: number, each: number) => {
    const row = out.byRoute[key] ?? { calls: 0, cu: 0 };
    out.byRoute[key] = row;
    row.calls += calls;
    row.cu += calls * each;
    out.total += calls * each;
    const upstream = key.slice(0, key.indexOf(' '));
    out.byUpstream[upstream] = (out.byUpstream[upstream] ?? 0) + calls * each;
  };
  for (const [key, calls] of Object.entries(s.byRoute)) {
    const space = key.indexOf(' ');
    const upstream = key.slice(0, space) as CuUpstreamName;
    out.calls += calls;
    // JSON-RPC is priced per method (below), not per HTTP request.
    if (upstream === 'node') continue;
    add(key, calls, cuPrice(upstream, key.slice(space + 1)));
  }
  for (const [key, calls] of Object.entries(s.byRpcMethod)) {
    const method = key.slice(key.lastIndexOf(' ') + 1);
    add(`node ${key}`, calls, cuPrice('node', method));
  }
  return out;
}
