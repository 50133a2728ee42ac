import {
  type Attributes,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * The spans the gateway makes, one helper per layer, all through `@opentelemetry/api` (a no-op until
 * src/telemetry/tracing.ts registers a provider). The tree of one request:
 *
 *   POST /graphql                               (telemetry/request-observer.ts)
 *   └─ loader.batch data.block                  one DataLoader batch (loaders/request-loader.ts)
 *      └─ cache.lookup                          one read-through round trip (cache/read-through.ts)
 *         └─ upstream data-api GET /v1/…/:id    one upstream call, retries included (upstream/http.ts)
 *            └─ GET /v1/…/:id                   one HTTP attempt: status, attempt number
 *
 * Attributes carry route templates, counts and codes: never a full URL, a header or a key.
 */
export const tracer = trace.getTracer('avalanche-graphql-gateway');

/** A short, secret-free name for what went wrong: an upstream error kind or status, else the error's name. */
export function errorType(e: unknown): string {
  if (e && typeof e === 'object') {
    const u = e as { name?: unknown; kind?: unknown; status?: unknown };
    if (u.name === 'UpstreamError')
      return typeof u.status === 'number' ? String(u.status) : String(u.kind);
    if (typeof u.name === 'string') return u.name;
  }
  return 'Error';
}

/** What `fn` gets while no tracer provider is registered: records nothing. */
const NOT_RECORDING = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
/** The API's own no-op provider, which a proxy delegates to until a real one is registered. */
const NOOP_DELEGATE = new ProxyTracerProvider().getDelegate();

/**
 * Whether a tracer provider is registered (src/telemetry/tracing.ts). Off, a span would be the API's
 * no-op anyway, but starting one still costs a context switch and closures per loader batch and lookup.
 */
export function tracingOn(): boolean {
  const p = trace.getTracerProvider();
  return !(p instanceof ProxyTracerProvider) || p.getDelegate() !== NOOP_DELEGATE;
}

/** Runs `fn` as a span would (a synchronous throw becomes a rejection), without one. */
function untraced<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return fn();
  } catch (e) {
    return Promise.reject(e);
  }
}

/** Runs `fn` inside an active span that ends when it settles; a throw marks the span as an error. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!tracingOn()) return untraced(() => fn(NOT_RECORDING));
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (e) {
      markError(span, e);
      throw e;
    } finally {
      span.end();
    }
  });
}

export function markError(span: Span, e: unknown): void {
  const type = errorType(e);
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** One DataLoader batch of described upstream requests: which resource kinds, how many keys. */
export function traceLoaderBatch<T>(
  resources: readonly string[],
  fn: () => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return untraced(fn);
  const kinds = [...new Set(resources)].sort();
  const name = kinds.length === 1 ? `loader.batch ${kinds[0]}` : 'loader.batch';
  return inSpan(name, { 'loader.resources': kinds, 'loader.batch_size': resources.length }, () =>
    fn(),
  );
}

/** Outcome counts of one cache lookup, filled by `noteCacheEvent` while the lookup's span is active. */
const cacheCounts = new WeakMap<Span, Record<string, number>>();

/** One read-through round trip for `keys` keys, with the loads of its misses below it. */
export function traceCacheLookup<T>(keys: number, fn: () => Promise<T>): Promise<T> {
  return inSpan('cache.lookup', { 'cache.keys': keys }, async (span) => {
    if (!span.isRecording()) return fn();
    const counts: Record<string, number> = {};
    cacheCounts.set(span, counts);
    try {
      return await fn();
    } finally {
      for (const [event, n] of Object.entries(counts)) span.setAttribute(`cache.${event}`, n);
    }
  });
}

/** Counts a read-through outcome (hit, miss, coalesced, stale-…) on the cache lookup span that is active, if any. */
export function noteCacheEvent(event: string): void {
  const span = trace.getActiveSpan();
  const counts = span && cacheCounts.get(span);
  if (counts) counts[event] = (counts[event] ?? 0) + 1;
}

/** One JSON-RPC request: a single call, or a geth-style batch of calls. */
export function traceRpc<T>(
  path: string,
  methods: readonly string[],
  fn: () => Promise<T>,
): Promise<T> {
  const unique = [...new Set(methods)].sort();
  return inSpan(
    methods.length === 1 ? `jsonrpc ${methods[0]}` : 'jsonrpc batch',
    {
      'rpc.system': 'jsonrpc',
      'rpc.method': unique.join(','),
      'rpc.jsonrpc.batch_size': methods.length,
      'url.template': path,
    },
    () => fn(),
  );
}
