/** What live charges to a subscriber's budget (src/edge/client-budget.ts, given by the composition root). */

/**
 * Charges `cu` CUs a subscription's own reads spent (an ICM poll) to its client's budget, as they happen:
 * `ok: false` when the budget is spent (the spend is still recorded), and the subscription ends.
 */
export type SpendOf = (
  client: readonly string[],
  cu: number,
) => Promise<{ ok: true } | { ok: false; retryAfterSec: number; perMinute: number }>;

/** What live needs of the clients' budgets (src/edge/client-budget.ts, given by the composition root). */
export interface SubscriberBudget {
  readonly perMinute: number;
  charge(
    client: readonly string[],
    cu: number,
  ): Promise<{ ok: true } | { ok: false; retryAfterSec: number }>;
  settle(client: readonly string[], delta: number): Promise<void>;
}

/** A refusal still records what was spent (`settle` never refuses): the client's budget tells the truth. */
export function spendOf(budget: SubscriberBudget): SpendOf {
  return async (client, cu) => {
    if (cu <= 0) return { ok: true };
    const verdict = await budget.charge(client, cu);
    if (verdict.ok) return { ok: true };
    await budget.settle(client, cu);
    return { ok: false, retryAfterSec: verdict.retryAfterSec, perMinute: budget.perMinute };
  };
}
