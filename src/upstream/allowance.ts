import type { RequestScope } from '../telemetry/request-scope.js';
import type { Credential } from './credential.js';
import { UpstreamError, type UpstreamName } from './errors.js';

/**
 * The meter at the source: before every upstream attempt made for a request, the attempt's price in
 * compute units is taken from the request's allowance (`RequestScope.allowance`, set by the cost plugin,
 * src/edge/use-query-cost.ts, to the request's estimate times ALLOWANCE_MARGIN, never above what its
 * client's budget has left; a retry may also draw on the request's retry reserve). An attempt neither can
 * pay is not sent: it fails with
 * `AllowanceError` (RATE_LIMITED, `extensions.budget: 'request-allowance'`), only the fields that needed
 * it fail, and the rest of the answer stands. A request whose client went away (`aborted`) gets no
 * further attempt at all.
 * Not metered: a call made for no request (a background refresh: the plan's governor bounds those), and a
 * call with a caller's own API key (it spends the caller's plan, not the operator's).
 */

/** Which limit refused an attempt, as clients read it in `extensions.budget`. */
export const ALLOWANCE_BUDGET = 'request-allowance';

/** An attempt the request's allowance could not pay, or one for a client that went away: never sent. */
export class AllowanceError extends UpstreamError {
  readonly extensions: { budget: string; reason: string };
  /** Never sent (the metrics of upstream outcomes count it as `refused`). */
  readonly notSent = true;
  constructor(upstream: UpstreamName, reason: 'REQUEST_ALLOWANCE_SPENT' | 'CLIENT_GONE') {
    super(upstream, 'status', {
      status: 429,
      upstreamMessage:
        reason === 'CLIENT_GONE'
          ? 'the client went away: no further upstream call is made for it'
          : "the request's compute-unit allowance (its cost estimate) is spent",
    });
    this.extensions = { budget: ALLOWANCE_BUDGET, reason };
  }

  override toExtensions(): Record<string, unknown> {
    // Nothing was sent: there is no upstream status to report.
    const { upstreamStatus: _, ...rest } = super.toExtensions();
    return rest;
  }
}

/**
 * Takes `cu` from the scope's allowance for one attempt (returns what was taken, to give back should the
 * attempt not be charged), or throws AllowanceError when the attempt may not be sent.
 */
export function takeAllowance(
  upstream: UpstreamName,
  scope: RequestScope | undefined,
  cu: number,
  credential: Credential,
  retry = false,
): Taken {
  if (!scope || credential.kind !== 'operator') return NOTHING;
  if (scope.aborted) throw new AllowanceError(upstream, 'CLIENT_GONE');
  if (scope.allowance === undefined || cu <= 0) return NOTHING;
  if (cu <= scope.allowance) {
    scope.allowance -= cu;
    return { cu, reserve: false };
  }
  // A retry the allowance cannot pay may use the request's retry reserve (src/edge/request-allowance.ts).
  if (retry && cu <= (scope.retryReserve ?? 0)) {
    scope.retryReserve = (scope.retryReserve ?? 0) - cu;
    return { cu, reserve: true };
  }
  throw new AllowanceError(upstream, 'REQUEST_ALLOWANCE_SPENT');
}

/** What one attempt took, and from where. */
export interface Taken {
  cu: number;
  reserve: boolean;
}
const NOTHING: Taken = { cu: 0, reserve: false };

/** Gives back what `takeAllowance` took for an attempt that was not charged (a 429, a refusal). */
export function giveBackAllowance(scope: RequestScope | undefined, taken: Taken): void {
  if (!scope || taken.cu <= 0) return;
  if (taken.reserve) scope.retryReserve = (scope.retryReserve ?? 0) + taken.cu;
  else if (scope.allowance !== undefined) scope.allowance += taken.cu;
}
