import { requestSlot } from './request-slot.js';

/**
 * What one HTTP request accumulates on its way through the layers (its request id, the upstream HTTP
 * requests it caused). It is found by the request object, and handed down to the upstream clients with
 * each call (`CallContext`, src/upstream/request.ts). It is not carried by AsyncLocalStorage: on Node 20
 * that installs promise hooks that run for every promise of every request (Node 24's AsyncLocalStorage
 * is built on AsyncContextFrame instead, without them).
 */
export interface RequestScope {
  readonly requestId: string;
  readonly startedAt: number;
  /** Upstream HTTP requests this request sent (every attempt, retries included). */
  upstreamCalls: number;
  /** Of those, the retries. */
  upstreamRetries: number;
  /** The compute units those requests spent (src/upstream/compute-units.ts): 0 when all came from cache. */
  upstreamCu?: number;
  /**
   * What the request's further upstream attempts may still spend, in CUs (src/upstream/allowance.ts):
   * set by the cost plugin (src/edge/use-query-cost.ts) to the estimate times ALLOWANCE_MARGIN, never
   * above the client's remaining budget; each attempt made with the operator's credential takes its
   * price from it before it is sent. Undefined: not metered (a request the cost plugin did not price).
   */
  allowance?: number;
  /** What retries may spend once the allowance cannot pay them (src/edge/request-allowance.ts, RETRY_RESERVE_CU). */
  retryReserve?: number;
  /** The client paying for the request: its address (`ip:…`, its last identity; src/edge/client-budget.ts). */
  payer?: string;
  /** The client went away (its connection closed before the answer): no further upstream attempt is made. */
  aborted?: boolean;
  operationName?: string;
  operationType?: string;
  /** The distinct `extensions.code` values of the errors in the answer. */
  errorCodes?: string[];
}

// On the request itself, not in a WeakMap keyed by it (see request-slot.ts).
const scopes = requestSlot<RequestScope>('requestScope');

/** Opens `request`'s scope (the observability plugin does, as the request arrives). */
export function openRequestScope(request: Request, scope: RequestScope): void {
  scopes.set(request, scope);
}

/** The scope of a request being served (undefined for one the observability plugin has not seen). */
export function requestScopeOf(request: Request): RequestScope | undefined {
  return scopes.get(request);
}
