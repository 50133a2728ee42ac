import { ConfigError } from './config-shape.js';
import { PLANS } from './upstream/compute-units.js';

/**
 * The default of both MAX_QUERY_COST and CLIENT_CU_PER_MINUTE: the unauthenticated plan's minute. A query
 * dearer than that could not be served within the smallest plan even alone, and a client budget below the
 * dearest admitted query would refuse that query for ever.
 */
export const DEFAULT_CU_BUDGET = PLANS.unauthenticated.perMinute;

/**
 * The operation cost limit, so that every admitted query can be paid by a fresh client budget: unset, it
 * follows a smaller budget; set above the budget, start-up stops.
 */
export function costLimit(maxQueryCost: number | undefined, clientBudgetPerMinute: number): number {
  const ceiling = clientBudgetPerMinute > 0 ? clientBudgetPerMinute : Number.POSITIVE_INFINITY;
  const limit = maxQueryCost ?? Math.min(DEFAULT_CU_BUDGET, ceiling);
  if (limit > ceiling) {
    throw new ConfigError(
      `Invalid configuration:\n  MAX_QUERY_COST=${limit} is above CLIENT_CU_PER_MINUTE=${clientBudgetPerMinute}: a query costing between them would be admitted and then refused RATE_LIMITED for ever; lower MAX_QUERY_COST or raise the client budget (0 turns budgets off)`,
      'MAX_QUERY_COST_OVER_CLIENT_BUDGET',
    );
  }
  return limit;
}
