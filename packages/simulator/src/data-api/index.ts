import type { SimRequest, SimResponse, SimUpstream, SimUpstreamOptions } from '../types.js';
import type { World } from '../world/index.js';
import { Created, Ctx } from './ctx.js';
import { HttpError } from './errors.js';
import { PageTokens } from './page-tokens.js';
import { Router } from './router.js';
import { addressRoutes } from './routes-address.js';
import { blockRoutes } from './routes-blocks.js';
import { chainRoutes } from './routes-chains.js';
import { contractRoutes } from './routes-contracts.js';
import { icmRoutes } from './routes-icm.js';
import { portfolioRoutes } from './routes-portfolio.js';
import { primaryRoutes } from './routes-primary.js';
import { primaryAtomicRoutes } from './routes-primary-atomic.js';
import { primaryBlockRoutes } from './routes-primary-blocks.js';
import { primaryNetRoutes } from './routes-primary-net.js';
import { rewardRoutes } from './routes-rewards.js';
import { signatureRoutes } from './routes-signatures.js';
import { stakingRoutes } from './routes-staking.js';
import { tokenRoutes } from './routes-tokens.js';
import { transactionRoutes } from './routes-transactions.js';
import { validatorRoutes } from './routes-validators.js';
import { xVertexRoutes } from './routes-x-vertices.js';
import type { SimWebhooks } from './webhooks.js';

/**
 * The simulated Data API (Glacier): the real paths below `/data-api`, the real response shapes
 * (see data-api.openapi.json), NestJS-style 400s, 404s for unknown chains / blocks / txs, and page
 * tokens bound to their query. Handlers return a body (200) or `{ status, body }` via `created()`.
 */
export function createDataApi(
  world: World,
  opts: SimUpstreamOptions,
  webhooks?: SimWebhooks,
): SimUpstream {
  const tokens = new PageTokens(opts.pageTokenTtlMs, opts.now);
  const router = new Router<Ctx>().add([
    ...chainRoutes,
    ...blockRoutes,
    ...transactionRoutes,
    ...addressRoutes,
    ...contractRoutes,
    ...primaryRoutes,
    ...primaryAtomicRoutes,
    ...primaryNetRoutes,
    ...primaryBlockRoutes,
    ...xVertexRoutes,
    ...validatorRoutes,
    ...icmRoutes,
    ...signatureRoutes,
    ...portfolioRoutes,
    ...tokenRoutes,
    ...stakingRoutes,
    ...rewardRoutes,
    ...(webhooks?.routes() ?? []),
  ]);

  return {
    name: 'data-api',
    handle(req: SimRequest): SimResponse {
      const m = router.match(req);
      if (!('route' in m)) {
        const status = 404;
        return {
          status,
          body: {
            message: `Cannot ${req.method} ${req.path}`,
            statusCode: status,
            error: 'Not Found',
          },
          route: `${req.method} (unmatched)`,
        };
      }
      const route = m.route.key;
      try {
        const ctx = new Ctx(world, req, m.params, route, tokens, opts);
        const out = m.route.handler(ctx);
        if (out instanceof Created) return { status: out.status, body: out.body, route };
        return { status: 200, body: out, route };
      } catch (err) {
        if (err instanceof HttpError) return { status: err.status, body: err.body(), route };
        throw err;
      }
    },
  };
}
