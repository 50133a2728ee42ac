import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one HTTP request accumulates on its way through the layers (its request id, the upstream HTTP
 * requests it caused), carried by AsyncLocalStorage so that the long-lived upstream clients, which
 * know nothing of requests, can still report to the one that is running.
 */
export interface RequestScope {
  readonly requestId: string;
  readonly startedAt: number;
  /** Upstream HTTP requests this request sent (every attempt, retries included). */
  upstreamCalls: number;
  /** Of those, the retries. */
  upstreamRetries: number;
  operationName?: string;
  operationType?: string;
  /** The distinct `extensions.code` values of the errors in the answer. */
  errorCodes?: string[];
}

const storage = new AsyncLocalStorage<RequestScope>();

export function runInRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The request being served here, if any (undefined in background refreshes started outside a request). */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}
