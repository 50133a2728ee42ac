import type { RequestScope } from '../telemetry/request-scope.js';

/** A request's allowance (src/edge/use-query-cost.ts): how much, and its end when the client goes. */
/**
 * How far past its estimate a request may spend: the estimate is an upper bound of the calls a request
 * makes (the differential test, test/integration/cost-differential.test.ts, holds every field and shipped
 * operation to it), so the margin pays only for retries of transient failures, which are spent again: a
 * quarter of a request's calls may be retried once. A retry the allowance cannot pay is not made (the
 * attempt's failure answers). Never more than the client's remaining budget.
 */
export const ALLOWANCE_MARGIN = 1.25;

/**
 * What retries alone may spend beyond a request's allowance, in CUs: the margin of a small request rounds
 * to nothing (a 10 CU block read has 12), and a transient 503 on its one call would otherwise answer at
 * once. Two retries of a Large call (50 CU each, src/upstream/compute-units.ts); only a retry draws on it
 * (a first attempt is held to the allowance), never more than the client's budget has left.
 */
export const RETRY_RESERVE_CU = 100;

/** A request's allowance: `estimate` with the margin, capped by what its client's budget has left. */
export function allowanceOf(estimate: number, budgetLeft = Number.POSITIVE_INFINITY): number {
  return Math.max(0, Math.min(Math.floor(estimate * ALLOWANCE_MARGIN), budgetLeft));
}

/**
 * Grants `scope` the allowance of an operation of `estimate` CUs (added to what it has when `add`: the
 * operations of one batched request share their scope), and the retry reserve beside it.
 */
export function grantAllowance(
  scope: RequestScope,
  estimate: number,
  budgetLeft: number,
  add: boolean,
): void {
  if (scope.aborted) {
    stopSpending(scope);
    return;
  }
  const granted = allowanceOf(estimate, budgetLeft);
  scope.allowance = (add ? (scope.allowance ?? 0) : 0) + granted;
  scope.retryReserve = Math.max(0, Math.min(RETRY_RESERVE_CU, budgetLeft - granted));
}

/** No further upstream attempt for `scope`: its allowance and its retry reserve are spent. */
export function stopSpending(scope: RequestScope): void {
  scope.allowance = 0;
  scope.retryReserve = 0;
}

/**
 * The client going (its HTTP response closing before it is finished) stops the request's spending: its
 * scope is marked and its allowance is 0, so no further upstream attempt is made for it. (graphql-ws: the
 * socket closing ends each subscription's events, whose end zeroes the allowance.)
 */
export function stopWhenGone(
  response:
    | { once?: (event: 'close', listener: () => void) => unknown; writableFinished?: boolean }
    | undefined,
  scope: RequestScope,
): void {
  if (!response || typeof response.once !== 'function') return;
  response.once('close', () => {
    if (!response.writableFinished) {
      scope.aborted = true;
      stopSpending(scope);
    }
  });
}
