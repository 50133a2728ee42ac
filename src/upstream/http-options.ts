import type { Credential } from './credential.js';
import type { CallContext } from './request.js';

/**
 * What an upstream HTTP call is given besides its path and body: its query, its per-call options, and the
 * gate (the plan-wide governor) each attempt passes. src/upstream/http.ts re-exports these.
 */
/** What the plan-wide governor (src/upstream/governor.ts) sees of the client's attempts. */
export interface UpstreamGate {
  /**
   * Before an attempt: resolves when `cu` may be spent; throws an UpstreamError (RATE_LIMITED, never
   * sent) when the budget refuses it. `background`: no request waits for the answer (a refresh);
   * `payer`: the client whose request the call serves (its address), for its fair share.
   */
  take(o: {
    cu: number;
    background: boolean;
    credential: Credential;
    payer?: string;
  }): Promise<void>;
  /** Every answer, for the upstream's own `ratelimit-*` headers and 429s. */
  observe(o: {
    status: number;
    header: (name: string) => string | undefined;
    credential: Credential;
  }): void;
}

export type Query = Record<
  string,
  string | number | boolean | undefined | null | readonly string[]
>;

export interface RequestOptions extends CallContext {
  /** Per-call headers (a caller's own API key). */
  headers?: Record<string, string>;
  /** Retry this call on transient failures; false for non-idempotent calls. @default true */
  retry?: boolean;
}

/** A client's own options for one call made for `call` (its request, its cache load). */
export function withCall(opts: RequestOptions, call: CallContext | undefined): RequestOptions {
  return call
    ? {
        ...opts,
        scope: call.scope,
        onFailedAttempt: call.onFailedAttempt,
        background: call.background,
      }
    : opts;
}

export function buildSearch(query: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) params.append(k, item);
    else params.append(k, String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}
