import { int, number, oneOf } from './config-kinds.js';
import { ConfigError } from './config-shape.js';
import { CU_DEFAULTS, PLANS, type PlanName } from './upstream/compute-units.js';

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

const PLAN_NAMES = Object.keys(PLANS) as [PlanName, ...PlanName[]];

/** The compute-unit budgets: each client's, the operator's plan, and the prices the tables omit. */
export const BUDGET_SETTINGS = {
  CLIENT_CU_PER_MINUTE: int(0, 100_000_000)
    .note('compute units; 0: no budgets')
    .optional(String(DEFAULT_CU_BUDGET))
    .doc(
      "Compute units each client (its address, and its API key when it sends one) may spend upstream per minute; 0 turns budgets off. The unauthenticated plan's minute by default, so that every query under MAX_QUERY_COST can be paid by a fresh budget.",
    ),
  CLIENT_BUDGET_PER_MINUTE: int(0, 100_000_000)
    .note('0: no budgets; the older name of CLIENT_CU_PER_MINUTE')
    .optional(String(DEFAULT_CU_BUDGET))
    .doc('The older name of CLIENT_CU_PER_MINUTE, read when that one is unset.'),
  UPSTREAM_PLAN: oneOf(PLAN_NAMES)
    .default('unauthenticated')
    .doc("The Data API plan the operator's credential is on."),
  UPSTREAM_CU_PER_MINUTE: int(0, 1_000_000_000)
    .note('compute units; 0: no plan-wide governor')
    .optional("the plan's")
    .doc(
      "CUs all replicas together may spend per minute with the operator's credential (0: no governor).",
    ),
  UPSTREAM_CU_PER_DAY: int(0, 1_000_000_000_000)
    .note('compute units')
    .optional("the plan's")
    .doc("CUs all replicas together may spend per day with the operator's credential."),
  UPSTREAM_SYSTEM_SHARE: number(0, 1)
    .note("a fraction of the plan's minute and day")
    .default(0.25)
    .doc(
      'The share of the plan work no client asked for (live readers, refreshes, revalidations, webhook registration) may spend; it also yields first, never bringing the plan past 80 % of a cap.',
    ),
  FAIR_SHARE_CONTENTION: number(0.05, 1)
    .note("a fraction of the plan's minute and day; 1: no fair share")
    .default(0.5)
    .doc(
      "Past this share of the plan's minute (or day), each client may spend only its max-min fair share of it; the rest stays for the clients within theirs (docs/compute-units.md).",
    ),
  FAIR_SHARE_MAX_PAYERS: int(10, 100_000)
    .default(1_000)
    .doc(
      'Clients the fair share tracks per window (one small record each, gone when its spending leaves the window); more share one record.',
    ),
  UPSTREAM_LEDGER_FALLBACK_SHARE: number(0, 1)
    .note('0: fail closed')
    .default(0)
    .doc(
      "While the shared ledger (Redis) does not answer: the share of the plan each replica may spend counting alone (1 / replicas keeps the sum within the plan); 0 refuses the operator's calls (RATE_LIMITED, budget upstream-ledger).",
    ),
  UPSTREAM_LEDGER_TIMEOUT_MS: int(10, 10_000)
    .default(1_000)
    .doc(
      "Longest wait for the shared ledger (Redis) before the governor fails closed; the budgets' Redis connection waits this long when the governor is on (REDIS_COMMAND_TIMEOUT_MS when that is longer). Generous: under load the wait includes the event loop's lag, and a refusal there is a refusal of a client.",
    ),
  UPSTREAM_BLOCK_MAX_SEC: int(1, 600)
    .note('seconds')
    .default(60)
    .doc("The longest one upstream 429's `retry-after` stops every replica's spending."),
  UPSTREAM_LIMIT_FLOOR: number(0.05, 1)
    .note('a fraction of UPSTREAM_CU_PER_MINUTE')
    .default(0.5)
    .doc("The least the upstream's `ratelimit-limit` header can lower the per-minute cap to."),
  UPSTREAM_LIMIT_HOLD_MS: int(1_000, 3_600_000)
    .default(300_000)
    .doc(
      "How long a cap lowered by the upstream's `ratelimit-limit` holds after the last answer that said so.",
    ),
  CU_DEFAULT_DATA: int(0, 100_000)
    .note('compute units')
    .default(CU_DEFAULTS.data)
    .doc('The price of a Data API route the published tables omit.'),
  CU_DEFAULT_METRICS: int(0, 100_000)
    .note('compute units')
    .default(CU_DEFAULTS.metrics)
    .doc('The price of a Metrics API route the published tables omit.'),
  CU_DEFAULT_RPC: int(0, 100_000)
    .note('compute units')
    .default(CU_DEFAULTS.rpc)
    .doc('The price of a JSON-RPC method the published tables omit.'),
};
