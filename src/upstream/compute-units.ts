import { DATA_ROUTES, METRICS_ROUTES, RPC_METHODS } from './compute-units-table.js';

/**
 * What each upstream call costs in compute units (CUs), the currency the upstream's rate limits are
 * counted in, and the plans' limits. One table for the gateway (counting, budgets), the schema's
 * `@cost` weights and the benchmarks. Sources:
 * - Data API (plans, weights, routes, JSON-RPC methods): "Rate Limits for the Data API",
 *   https://build.avax.network/docs/api-reference/data-api/rate-limits
 * - Metrics API (its own scale and plan): "Rate Limits for the Metrics API",
 *   https://build.avax.network/docs/api-reference/metrics-api/rate-limits
 * A route the pages do not list takes its `x-execution-weight` from the published OpenAPI spec (marked
 * `spec`); one listed nowhere costs the upstream's default (`CU_DEFAULTS`, settable: `cuPricer`).
 */

/** The plans of the Data API: CUs per minute and per day, per key (or per IP without one). */
export const PLANS = {
  unauthenticated: { perMinute: 6_000, perDay: 1_200_000 },
  free: { perMinute: 8_000, perDay: 2_000_000 },
  base: { perMinute: 10_000, perDay: 3_750_000 },
  growth: { perMinute: 14_000, perDay: 11_200_000 },
  pro: { perMinute: 20_000, perDay: 25_000_000 },
} as const;
export type PlanName = keyof typeof PLANS;

/** The Metrics API's one published plan (it takes no key). */
export const METRICS_PLAN = { perMinute: 8_000, perDay: 1_200_000 } as const;

/** The Data API's weight classes (also its JSON-RPC methods'). */
export const WEIGHTS = { free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200 } as const;
/** The Metrics API's own scale for the same class names. */
export const METRICS_WEIGHTS = {
  free: 1,
  small: 20,
  medium: 100,
  large: 500,
  xl: 1_000,
  xxl: 3_000,
} as const;
export type Weight = keyof typeof WEIGHTS;

/** Which price list: the Data API's routes, the Metrics API's routes, or JSON-RPC methods. */
export type CuUpstream = 'data' | 'metrics' | 'rpc';
/** Our upstream clients' names (src/upstream/errors.ts) are accepted too. */
export type CuUpstreamName = CuUpstream | 'data-api' | 'metrics-api' | 'node';

/**
 * The price of a route or method neither page lists: Data API Medium (the class of most of its routes,
 * the address and transaction lists), Metrics API Medium (every metric route on its page), JSON-RPC
 * Medium (above the Small of plain reads: an unlisted method is as likely an index scan as a read).
 */
export const CU_DEFAULTS: Readonly<Record<CuUpstream, number>> = {
  data: WEIGHTS.medium,
  metrics: METRICS_WEIGHTS.medium,
  rpc: WEIGHTS.medium,
};

/** Our upstream client names and the price lists they are charged from. */
const LIST: Record<CuUpstreamName, CuUpstream> = {
  data: 'data',
  'data-api': 'data',
  metrics: 'metrics',
  'metrics-api': 'metrics',
  rpc: 'rpc',
  node: 'rpc',
};

export function cuUpstream(name: CuUpstreamName): CuUpstream {
  return LIST[name];
}

interface Entry {
  method: string;
  segs: readonly string[];
  cu: number;
}

interface PriceList {
  routes: readonly Entry[];
  /** By operationId and by a route's unique last segment (`balances:getNative`). */
  byName: ReadonlyMap<string, number>;
}

function compile(rows: readonly string[], scale: Readonly<Record<Weight, number>>): PriceList {
  const routes: Entry[] = [];
  const byName = new Map<string, number>();
  const lastSeen = new Map<string, number>();
  for (const row of rows) {
    const [method = '', template = '', weight = '', operationId = ''] = row.split(' ');
    const cu = scale[weight as Weight];
    if (cu === undefined) throw new Error(`compute-units: unknown weight in "${row}"`);
    const segs = segments(template);
    routes.push({ method, segs, cu });
    byName.set(operationId, cu);
    const last = segs[segs.length - 1] ?? '';
    if (!last.startsWith('{')) lastSeen.set(last, (lastSeen.get(last) ?? 0) + 1);
  }
  for (const e of routes) {
    const last = e.segs[e.segs.length - 1] ?? '';
    if (last.includes(':') && lastSeen.get(last) === 1 && !byName.has(last)) byName.set(last, e.cu);
  }
  return { routes, byName };
}

function segments(path: string): string[] {
  return (path.split(/[?#]/, 1)[0] ?? '').split('/').filter((s) => s !== '');
}

const isParam = (seg: string) => seg.startsWith('{');

/**
 * The listed route a path or route template (`/v1/chains/:id/blocks`, ids as `:id`) is: a `{param}`
 * matches any segment, a literal only itself, and the route with most literal matches wins (so
 * `/v1/chains/allBlocks` is not `/v1/chains/{chainId}`); the same method breaks a tie.
 */
function matchRoute(list: PriceList, method: string | undefined, path: string): number | undefined {
  const segs = segments(path);
  let best: Entry | undefined;
  let bestScore = -1;
  for (const e of list.routes) {
    if (e.segs.length !== segs.length) continue;
    let score = 0;
    let ok = true;
    for (let i = 0; i < segs.length && ok; i++) {
      const want = e.segs[i] as string;
      const got = segs[i] as string;
      if (isParam(want)) continue;
      if (want === got) score += 2;
      else ok = false;
    }
    if (!ok) continue;
    if (method && e.method === method) score += 1;
    if (score > bestScore) {
      best = e;
      bestScore = score;
    }
  }
  return best?.cu;
}

const LISTS: Record<CuUpstream, PriceList> = {
  data: compile(DATA_ROUTES, WEIGHTS),
  metrics: compile(METRICS_ROUTES, METRICS_WEIGHTS),
  rpc: {
    routes: [],
    byName: new Map(Object.entries(RPC_METHODS).map(([m, w]) => [m, WEIGHTS[w]])),
  },
};

/** The price list's own answer, or undefined when the route or method is not in it. */
export function listedCu(upstream: CuUpstreamName, route: string): number | undefined {
  const list = LISTS[LIST[upstream]];
  const named = list.byName.get(route);
  if (named !== undefined || !route.includes('/')) return named;
  const space = route.indexOf(' ');
  const method = space > 0 ? route.slice(0, space).toUpperCase() : undefined;
  return matchRoute(list, method, space > 0 ? route.slice(space + 1) : route);
}

export type CuPrice = (upstream: CuUpstreamName, route: string) => number;

/**
 * A price function with its own defaults for what the lists omit (config: `CU_DEFAULT_*`). `route` is
 * a route template or path, optionally after its method (`POST /v1/…`), an operationId, a route's
 * action (`balances:getNative`), or a JSON-RPC method (`eth_getLogs`) for `rpc`/`node`.
 */
export function cuPricer(defaults: Partial<Record<CuUpstream, number>> = {}): CuPrice {
  const fallback = { ...CU_DEFAULTS, ...defaults };
  // Callers pass route templates, so the distinct keys are few; the bound keeps raw paths harmless.
  const memo = new Map<string, number>();
  return (upstream, route) => {
    const key = `${upstream} ${route}`;
    let cu = memo.get(key);
    if (cu === undefined) {
      cu = listedCu(upstream, route) ?? fallback[LIST[upstream]];
      if (memo.size >= 2_000) memo.clear();
      memo.set(key, cu);
    }
    return cu;
  };
}

/** The published price of one call, with the documented defaults for what the lists omit. */
export const cuPrice: CuPrice = cuPricer();
