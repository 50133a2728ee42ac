import type { SimRequest, SimResponse, SimUpstream } from '../types.js';
import type { World } from '../world/index.js';
import { BucketPager } from './paging.js';
import {
  chainMetrics,
  getChain,
  legacyAvgTps,
  legacyAvgTpsRolling,
  listChains,
  type MetricsCtx,
  rollingWindowMetrics,
} from './routes-chains.js';
import { createIcmL1Routes } from './routes-icm-l1.js';
import { stakingMetrics } from './routes-network.js';
import { ChainSeries } from './series.js';
import type { StakingSeries } from './staking-series.js';
import { MetricsError } from './validate.js';

/**
 * The simulated Metrics API (popsicle), mounted at `/metrics-api`: the v2 chain routes
 * (listChains, getChain, the 17 per-chain metrics, rolling windows), staking metrics per network,
 * health checks, and the seed's legacy `GET /v1/avg_tps/{chainId}` (plus its `/rollingWindow`). Series are deterministic from
 * the world's seed and end at world time (`world.now`). Errors are NestJS bodies whose `message`
 * is an array of strings.
 */

export interface MetricsApiOptions {
  /** Lifetime of issued page tokens (ms). */
  pageTokenTtlMs: number;
  /** Wall clock for token expiry. @default Date.now */
  now?: () => number;
}

type Handler = (ctx: MetricsCtx, params: string[], query: URLSearchParams) => unknown;

const HEALTH = {
  status: 'ok',
  info: { database: { status: 'up' } },
  error: {},
  details: { database: { status: 'up' } },
};

export function createMetricsApi(world: World, opts: MetricsApiOptions): SimUpstream {
  const ctx: MetricsCtx = {
    world,
    series: new ChainSeries(world.seed, world.now),
    pager: new BucketPager(opts.pageTokenTtlMs, opts.now ?? Date.now),
  };
  const stakingCache = new Map<string, StakingSeries | undefined>();
  const more = createIcmL1Routes(world, opts.pageTokenTtlMs, opts.now ?? Date.now);
  const routes: [RegExp, string, Handler][] = [
    [/^\/v2\/health-check$/, '/v2/health-check', () => HEALTH],
    [/^\/v2\/live-check$/, '/v2/live-check', () => HEALTH],
    [/^\/v2\/chains$/, '/v2/chains', (c, _p, q) => listChains(c, q)],
    [/^\/v2\/chains\/([^/]+)$/, '/v2/chains/:chainId', (c, p) => getChain(c, p[0]!)],
    [
      /^\/v2\/chains\/([^/]+)\/metrics\/([^/]+)$/,
      '/v2/chains/:chainId/metrics/:metric',
      (c, p, q) => chainMetrics(c, p[0]!, p[1]!, q),
    ],
    [
      /^\/v2\/chains\/([^/]+)\/rollingWindowMetrics\/([^/]+)$/,
      '/v2/chains/:chainId/rollingWindowMetrics/:metric',
      (c, p, q) => rollingWindowMetrics(c, p[0]!, p[1]!, q),
    ],
    [
      /^\/v2\/networks\/([^/]+)\/metrics\/([^/]+)$/,
      '/v2/networks/:network/metrics/:metric',
      (c, p, q) => stakingMetrics(c, stakingCache, p[0]!, p[1]!, q),
    ],
    [/^\/v2\/icm\/timeseries$/, '/v2/icm/timeseries', (_c, _p, q) => more.icmTimeseries(q)],
    [/^\/v2\/icm\/summary$/, '/v2/icm/summary', (_c, _p, q) => more.icmSummary(q)],
    [
      /^\/v2\/validators\/metrics\/([^/]+)$/,
      '/v2/validators/metrics/:metric',
      (_c, p, q) => more.total(p[0]!, q),
    ],
    [
      /^\/v2\/validation\/([^/]+)\/metrics\/([^/]+)$/,
      '/v2/validation/:l1ValidationId/metrics/:metric',
      (_c, p, q) => more.byValidation(p[0]!, p[1]!, q),
    ],
    [
      /^\/v2\/validator\/([^/]+)\/metrics\/([^/]+)$/,
      '/v2/validator/:nodeId/metrics/:metric',
      (_c, p, q) => more.byNode(p[0]!, p[1]!, q),
    ],
    [
      /^\/v2\/subnet\/([^/]+)\/metrics\/([^/]+)$/,
      '/v2/subnet/:subnetId/metrics/:metric',
      (_c, p, q) => more.bySubnet(p[0]!, p[1]!, q),
    ],
    [/^\/v1\/avg_tps\/([^/]+)$/, '/v1/avg_tps/:chainId', (c, p, q) => legacyAvgTps(c, p[0]!, q)],
    [
      /^\/v1\/avg_tps\/([^/]+)\/rollingWindow$/,
      '/v1/avg_tps/:chainId/rollingWindow',
      (c, p) => legacyAvgTpsRolling(c, p[0]!),
    ],
  ];

  function handle(req: SimRequest): SimResponse {
    const path = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    for (const [re, template, handler] of routes) {
      const m = re.exec(path);
      if (!m) continue;
      if (req.method !== 'GET') break;
      const route = `GET ${template}`;
      try {
        return { status: 200, body: handler(ctx, m.slice(1), req.query), route };
      } catch (e) {
        if (e instanceof MetricsError) return { status: e.status, body: e.body(), route };
        throw e;
      }
    }
    return {
      status: 404,
      body: new MetricsError(404, [`Cannot ${req.method} ${req.path}`]).body(),
      route: `${req.method} (unmatched)`,
    };
  }

  return { name: 'metrics-api', handle };
}
