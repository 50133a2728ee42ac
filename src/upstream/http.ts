import { trace } from '@opentelemetry/api';
import type { z } from 'zod';
import { giveBackAllowance, type Taken, takeAllowance } from './allowance.js';
import { misfitWhere } from './client-text.js';
import type { CuPrice } from './compute-units.js';
import { credentialOf } from './credential.js';
import {
  parseErrorBody,
  retryAfterSec,
  TRANSIENT_STATUSES,
  UpstreamError,
  type UpstreamName,
  upstreamRequestId,
} from './errors.js';
import { backoffMs, transportFailure, unreachable } from './http-failures.js';
import { buildSearch, type Query, type RequestOptions, type UpstreamGate } from './http-options.js';
import { parseUpstreamJson } from './json.js';
import { createUpstreamObserver, type UpstreamAttempt } from './observe.js';
import { attemptCost } from './spend.js';
import { type HttpMethod, httpTransport, type Transport, TransportError } from './transport.js';

/**
 * JSON over HTTP for one upstream, over `node:http` keep-alive sockets (src/upstream/transport.ts): a
 * timeout per attempt, bounded retries with exponential backoff on 429/502/503/504 and connection errors, honouring
 * `retry-after` up to a bound (a longer wait gives up at once: the client gets RATE_LIMITED instead of a
 * hung request). Every failure becomes an `UpstreamError`; every success is checked against a zod schema.
 */
export interface HttpClientOptions {
  name: UpstreamName;
  baseUrl: string;
  /** Per-attempt timeout (the config's UPSTREAM_TIMEOUT_MS, like the three below: no default here). */
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** Longest `retry-after` honoured; a longer one fails at once. */
  maxRetryAfterMs: number;
  /** Headers sent on every request (e.g. the API key). */
  headers?: Record<string, string>;
  /** How an attempt reaches the upstream; injected by tests. @default httpTransport */
  transport?: Transport;
  /** Largest answer body read; a larger one is a payload error (UPSTREAM_ERROR). */
  maxBodyBytes: number;
  /** Observes each call's outcome ('ok', or the error kind/status) and each retry (metrics). */
  onOutcome?: (outcome: string) => void;
  onRetry?: () => void;
  /** Observes every HTTP attempt, retries included: route template, status, attempt number, latency. */
  onAttempt?: (attempt: UpstreamAttempt) => void;
  /** Prices an attempt in compute units. @default cuPrice (src/upstream/compute-units.ts) */
  price?: CuPrice;
  /** Told the CUs of every answered attempt (a 429 is not charged), per line item (route or method). */
  onSpend?: (route: string, cu: number) => void;
  /** The plan-wide CU governor: asked before every attempt, shown every answer. */
  gate?: UpstreamGate;
}

export interface HttpClient {
  readonly name: UpstreamName;
  getJson<S extends z.ZodType>(
    path: string,
    query: Query,
    schema: S,
    opts?: RequestOptions,
  ): Promise<z.output<S>>;
  /** A POST; `query` for routes that also take query parameters (the Data API's V2 address routes). */
  postJson<S extends z.ZodType>(
    path: string,
    body: unknown,
    schema: S,
    opts?: RequestOptions,
    query?: Query,
  ): Promise<z.output<S>>;
  /** A write with a JSON body (the Data API's webhook management); not retried unless `retry`. */
  sendJson<S extends z.ZodType>(
    method: WriteMethod,
    path: string,
    body: unknown,
    schema: S,
    opts?: RequestOptions,
  ): Promise<z.output<S>>;
}

export type WriteMethod = Exclude<HttpMethod, 'GET'>;

export {
  buildSearch,
  type Query,
  type RequestOptions,
  type UpstreamGate,
  withCall,
} from './http-options.js';

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const { maxRetryAfterMs, retries, maxBodyBytes, timeoutMs } = options;
  const baseHeaders: Record<string, string> = { accept: 'application/json', ...options.headers };
  // Spans for each call and attempt, and the per-attempt report (src/upstream/observe.ts).
  const observe = createUpstreamObserver({
    upstream: options.name,
    baseUrl: options.baseUrl,
    transport: options.transport ?? httpTransport,
    onAttempt: options.onAttempt,
  });

  async function send<S extends z.ZodType>(
    method: HttpMethod,
    path: string,
    search: string,
    body: unknown,
    schema: S,
    opts: RequestOptions,
  ): Promise<z.output<S>> {
    const request = `${method} ${path}`;
    let text: string;
    try {
      text = await exchange(method, path, search, body, opts, request);
    } catch (cause) {
      const err =
        cause instanceof UpstreamError ? cause : unreachable(options.name, request, cause);
      // A call the plan's governor refused was never sent: not an upstream 429.
      options.onOutcome?.(
        'notSent' in err ? 'refused' : err.status ? String(err.status) : err.kind,
      );
      throw err;
    }
    options.onOutcome?.('ok');
    let json: unknown;
    try {
      json = parseUpstreamJson(text);
    } catch (cause) {
      throw new UpstreamError(options.name, 'payload', {
        request,
        upstreamMessage: 'the upstream answered with a body that is not JSON',
        cause,
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const where = misfitWhere(parsed.error.issues[0]);
      throw new UpstreamError(options.name, 'payload', {
        request,
        upstreamMessage: `the upstream answer does not fit its contract (${where})`,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  /**
   * Every attempt of one call, until a 2xx answer's body (returned) or a failure not worth another
   * attempt (thrown as an UpstreamError). Retried: connection failures and the transient statuses,
   * at most `retries` times, after 0.3 s, 0.6 s, 1.2 s... (each with full jitter, at most 2 s), or after
   * the upstream's own `retry-after` on a 429/503; one longer than `maxRetryAfterMs` is not waited for.
   * Not retried: a timeout (the attempt already took the whole budget), a body too large or undecodable,
   * a request that could not be sent at all.
   */
  async function exchange(
    method: HttpMethod,
    path: string,
    search: string,
    body: unknown,
    opts: RequestOptions,
    request: string,
  ): Promise<string> {
    const headers =
      body === undefined
        ? { ...baseHeaders, ...opts.headers }
        : { ...baseHeaders, ...opts.headers, 'content-type': 'application/json' };
    const attempt = {
      method,
      url: `${options.baseUrl}${path}${search}`,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs,
      maxBodyBytes,
    };
    const limit = opts.retry === false ? 0 : retries;
    const transport = observe.transportFor(method, path);
    const scope = opts.scope;
    const cost = attemptCost(options.name, method, path, body, options.price);
    // A call with its own headers carries a caller's key: its CUs are the caller's plan, not ours.
    const credential = credentialOf(opts);
    let spent = 0;
    let lastFailure: UpstreamError | undefined;
    for (let retry = 1; ; retry++) {
      let failure: UpstreamError;
      let waitMs: number | undefined;
      // No request waits on a call made for none, or on a revalidation behind a stale answer.
      const background = opts.background === true || scope === undefined;
      // The request's allowance pays first (src/upstream/allowance.ts): an attempt it cannot pay is not
      // sent. A retry it cannot pay fails as the attempt before it did.
      let taken: Taken;
      try {
        taken = takeAllowance(options.name, scope, cost.total, credential, retry > 1);
      } catch (refused) {
        throw retry > 1 && lastFailure ? lastFailure : refused;
      }
      try {
        await options.gate?.take({ cu: cost.total, background, credential, payer: scope?.payer });
      } catch (e) {
        giveBackAllowance(scope, taken);
        throw e;
      }
      if (scope) {
        scope.upstreamCalls += 1;
        if (retry > 1) scope.upstreamRetries += 1;
      }
      try {
        const res = await transport(attempt);
        options.gate?.observe({ status: res.status, header: res.header, credential });
        if (res.status === 429) giveBackAllowance(scope, taken);
        else {
          spent += cost.total;
          if (scope) scope.upstreamCu = (scope.upstreamCu ?? 0) + cost.total;
          if (options.onSpend) for (const i of cost.items) options.onSpend(i.route, i.cu);
          trace.getActiveSpan()?.setAttribute('upstream.cu', spent);
        }
        if (res.status >= 200 && res.status < 300) return res.body;
        const after = retryAfterSec(res.header);
        failure = new UpstreamError(options.name, 'status', {
          status: res.status,
          request,
          upstreamMessage: parseErrorBody(res.body),
          retryAfterSec: after,
          requestId: upstreamRequestId(res.header),
        });
        if (retry <= limit && TRANSIENT_STATUSES.includes(res.status)) {
          // A retry-after longer than we are willing to hold a client request is not waited for.
          if (after === undefined) waitMs = backoffMs(retry);
          else if (after * 1000 <= maxRetryAfterMs)
            waitMs = res.status === 429 || res.status === 503 ? after * 1000 : backoffMs(retry);
        }
      } catch (cause) {
        if (!(cause instanceof TransportError)) throw cause;
        failure = transportFailure(options.name, request, cause);
        if (cause.kind === 'network' && retry <= limit) waitMs = backoffMs(retry);
      }
      if (waitMs === undefined) throw failure;
      lastFailure = failure;
      // Told before the wait: the cache may serve a stale answer at once instead of waiting for it.
      options.onRetry?.();
      opts.onFailedAttempt?.();
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }

  return {
    name: options.name,
    getJson: (path, query, schema, opts = {}) =>
      observe.call('GET', path, () =>
        send('GET', path, buildSearch(query), undefined, schema, opts),
      ),
    postJson: (path, body, schema, opts = {}, query = {}) =>
      observe.call('POST', path, () => send('POST', path, buildSearch(query), body, schema, opts)),
    sendJson: (method, path, body, schema, opts = {}) =>
      observe.call(method, path, () =>
        send(method, path, '', body, schema, { retry: false, ...opts }),
      ),
  };
}
