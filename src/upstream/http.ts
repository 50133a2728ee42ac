import { AsyncLocalStorage } from 'node:async_hooks';
import ky, { HTTPError, type KyInstance, TimeoutError } from 'ky';
import type { z } from 'zod';
import { parseErrorBody, TRANSIENT_STATUSES, UpstreamError, type UpstreamName } from './errors.js';
import { parseUpstreamJson } from './json.js';
import { createUpstreamObserver, type UpstreamAttempt } from './observe.js';

/**
 * JSON over HTTP for one upstream, on `ky` (a small, well-kept fetch wrapper): a timeout per attempt,
 * bounded retries with exponential backoff on 429/502/503/504 and connection errors, honouring
 * `retry-after` up to a bound (a longer wait gives up at once: the client gets RATE_LIMITED instead of a
 * hung request). Every failure becomes an `UpstreamError`; every success is checked against a zod schema.
 */
export interface HttpClientOptions {
  name: UpstreamName;
  baseUrl: string;
  /** Per-attempt timeout. @default 10000 */
  timeoutMs?: number;
  /** Retries after the first attempt. @default 2 */
  retries?: number;
  /** Longest `retry-after` honoured; a longer one fails at once. @default 5000 */
  maxRetryAfterMs?: number;
  /** Headers sent on every request (e.g. the API key). */
  headers?: Record<string, string>;
  /** Injected for tests. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Largest answer body read; a larger one is a payload error (UPSTREAM_ERROR). @default 20 MiB */
  maxBodyBytes?: number;
  /** Observes each call's outcome ('ok', or the error kind/status) and each retry (metrics). */
  onOutcome?: (outcome: string) => void;
  onRetry?: () => void;
  /** Observes every HTTP attempt, retries included: route template, status, attempt number, latency. */
  onAttempt?: (attempt: UpstreamAttempt) => void;
}

export type Query = Record<
  string,
  string | number | boolean | undefined | null | readonly string[]
>;

export interface RequestOptions {
  /** Per-call headers (a caller's own API key). */
  headers?: Record<string, string>;
  /** Retry this call on transient failures; false for non-idempotent calls. @default true */
  retry?: boolean;
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
}

const retryWatchers = new AsyncLocalStorage<() => void>();

/**
 * Runs `fn`; `onFailedAttempt` is told each time an upstream call it makes failed an attempt and is about
 * to be retried (the cache serves a stale answer at once instead of waiting for the retries).
 */
export function watchFailedAttempts<T>(
  onFailedAttempt: () => void,
  fn: () => Promise<T>,
): Promise<T> {
  return retryWatchers.run(onFailedAttempt, fn);
}

/** Status codes worth another attempt: rate limited, or the upstream's gateway/node briefly unavailable. */

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

export function createHttpClient(o: HttpClientOptions): HttpClient {
  const maxRetryAfterMs = o.maxRetryAfterMs ?? 5_000;
  const retries = o.retries ?? 2;
  const maxBodyBytes = o.maxBodyBytes ?? 20 * 1024 * 1024;
  // ky replaces (does not merge) a per-call `retry`, so every call passes the whole policy.
  const retryPolicy = {
    limit: retries,
    methods: ['get', 'post'],
    statusCodes: [...TRANSIENT_STATUSES],
    afterStatusCodes: [429, 503],
    backoffLimit: 2_000,
    jitter: true,
    // A retry-after longer than we are willing to hold a client request is not waited for.
    shouldRetry: ({ error }: { error: Error }) => {
      if (error instanceof HTTPError) {
        const after = retryAfterSec(error.response.headers);
        if (after !== undefined && after * 1000 > maxRetryAfterMs) return false;
      }
      return undefined;
    },
  };
  const base: KyInstance = ky.create({
    timeout: o.timeoutMs ?? 10_000,
    headers: { accept: 'application/json', ...o.headers },
    fetch: o.fetch ?? globalThis.fetch,
    throwHttpErrors: true,
    hooks: {
      beforeRetry: [
        () => {
          o.onRetry?.();
          retryWatchers.getStore()?.();
        },
      ],
    },
    retry: retryPolicy,
  });
  // Spans for each call and attempt, and the per-attempt report (src/upstream/observe.ts).
  const observe = createUpstreamObserver({
    upstream: o.name,
    baseUrl: o.baseUrl,
    fetch: o.fetch ?? globalThis.fetch,
    onAttempt: o.onAttempt,
  });

  async function send<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    search: string,
    body: unknown,
    schema: S,
    opts: RequestOptions,
  ): Promise<z.output<S>> {
    const request = `${method} ${path}`;
    let text: string;
    try {
      const res = await base(`${o.baseUrl}${path}${search}`, {
        method,
        headers: {
          ...opts.headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        retry: { ...retryPolicy, limit: opts.retry === false ? 0 : retries },
        fetch: observe.fetchFor(method, path),
      });
      text = await readCapped(
        res,
        maxBodyBytes,
        () =>
          new UpstreamError(o.name, 'payload', {
            request,
            upstreamMessage: `the upstream answer is larger than ${maxBodyBytes} bytes`,
          }),
      );
    } catch (cause) {
      const err =
        cause instanceof UpstreamError ? cause : await toUpstreamError(o.name, request, cause);
      o.onOutcome?.(err.status ? String(err.status) : err.kind);
      throw err;
    }
    o.onOutcome?.('ok');
    let json: unknown;
    try {
      json = parseUpstreamJson(text);
    } catch (cause) {
      throw new UpstreamError(o.name, 'payload', {
        request,
        upstreamMessage: 'the upstream answered with a body that is not JSON',
        cause,
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first
        ? `${first.path.join('.') || '(root)'}: ${first.message}`
        : 'unexpected shape';
      throw new UpstreamError(o.name, 'payload', {
        request,
        upstreamMessage: `the upstream answer does not fit its contract (${where})`,
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  return {
    name: o.name,
    getJson: (path, query, schema, opts = {}) =>
      observe.call('GET', path, () =>
        send('GET', path, buildSearch(query), undefined, schema, opts),
      ),
    postJson: (path, body, schema, opts = {}, query = {}) =>
      observe.call('POST', path, () => send('POST', path, buildSearch(query), body, schema, opts)),
  };
}

/** The body as text, read no further than `max` bytes (a longer body is refused, not buffered). */
async function readCapped(res: Response, max: number, tooLarge: () => Error): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function retryAfterSec(headers: Headers): number | undefined {
  const raw = headers.get('retry-after') ?? headers.get('ratelimit-reset');
  if (raw === null) return undefined;
  const n = Number(raw);
  if (Number.isFinite(n)) return Math.max(0, n);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}

async function toUpstreamError(
  name: UpstreamName,
  request: string,
  cause: unknown,
): Promise<UpstreamError> {
  if (cause instanceof HTTPError) {
    const status = cause.response.status;
    const text = await cause.response.text().catch(() => '');
    return new UpstreamError(name, 'status', {
      status,
      request,
      upstreamMessage: parseErrorBody(text),
      retryAfterSec: retryAfterSec(cause.response.headers),
      cause,
    });
  }
  if (cause instanceof TimeoutError) return new UpstreamError(name, 'timeout', { request, cause });
  return new UpstreamError(name, 'network', {
    request,
    cause,
    upstreamMessage: 'the upstream could not be reached',
  });
}
