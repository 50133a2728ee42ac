import type { World } from '../world/index.js';
import type { SimUpstream, SimUpstreamOptions } from '../types.js';

/** Placeholder until the real metrics-api simulator lands: every route answers 404 in the real error shape. */
export function createMetricsApi(_world: World, _opts: SimUpstreamOptions): SimUpstream {
  return {
    name: 'metrics-api',
    handle: (req) => ({
      status: 404,
      body: { message: `Cannot ${req.method} ${req.path}`, statusCode: 404, error: 'Not Found' },
      route: `${req.method} (unmatched)`,
    }),
  };
}
