import type { Ctx } from './ctx.js';
import type { Route } from './router.js';
import { addressUtxoRoutes } from './routes-address-utxos.js';
import { subnetRoutes } from './routes-subnets.js';

export { PRIMARY_NET_QUERY_PARAMS } from './operation-params.js';

/**
 * The primary-network routes of issue 14's third part: subnets, blockchains and the AVAX supply
 * (routes-subnets.ts); UTXOs, last activity and chain ids by addresses (routes-address-utxos.ts).
 */
export const primaryNetRoutes: Route<Ctx>[] = [...subnetRoutes, ...addressUtxoRoutes];
