import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { inSpan, markError, tracer, tracingOn } from '../telemetry/spans.js';
import type { UpstreamName } from './errors.js';
import { type Transport, TransportError } from './transport.js';

/**
 * What the gateway sees of its upstream calls: a span per call and per HTTP attempt, and one report per
 * attempt (latency histograms, the request log's upstream count). Everything is named by the route
 * template (`GET /v1/chains/:id/blocks/:id`), never by the URL: no base URL (it may carry a key),
 * no query string, no identifiers, so metric labels stay few.
 */
export interface UpstreamAttempt {
  upstream: UpstreamName;
  method: string;
  /** The route template, e.g. `/v1/chains/:id/blocks/:id`. */
  route: string;
  /** The HTTP status as text, or `timeout` / `network` when no answer came. */
  status: string;
  /** 1 for the first try, 2 for the first retry... */
  attempt: number;
  /** Until the response headers arrived (or the attempt failed). */
  durationMs: number;
}

const VERSION = /^v\d{1,2}$/;
/** A literal word, possibly with a `:action` suffix (`transactions:listStaking`). */
const WORD = /^[A-Za-z][A-Za-z_-]{0,39}(:[A-Za-z][A-Za-z0-9_-]{0,39})?$/;

/**
 * A path's route template: literal words (`chains`, `blocks`, `ext`, `bc`, `C`, `rpc`, `mainnet`,
 * `transactions:listStaking`) and version tags stay; every other segment (numbers, hashes, addresses, node and blockchain ids) is `:id`.
 */
export function routeTemplate(path: string): string {
  // One call asks for its path's template several times (its attempt's report, its circuit breaker,
  // its price): the last few are remembered, paths of up to 512 characters, so at most 256 KiB.
  const known = RECENT_ROUTES.get(path);
  if (known !== undefined) return known;
  const clean = path.split(/[?#]/, 1)[0] ?? '';
  const route = clean
    .split('/')
    .map((seg) => (seg === '' || VERSION.test(seg) || WORD.test(seg) ? seg : ':id'))
    .join('/');
  if (path.length <= 512) {
    if (RECENT_ROUTES.size >= 256) RECENT_ROUTES.clear();
    RECENT_ROUTES.set(path, route);
  }
  return route;
}
const RECENT_ROUTES = new Map<string, string>();

export interface UpstreamObserver {
  /** Runs one upstream call (all its attempts) inside its span. */
  call<T>(method: string, path: string, run: () => Promise<T>): Promise<T>;
  /** The transport for one call: each attempt gets its span and its report, numbered from 1. */
  transportFor(method: string, path: string): Transport;
}

export function createUpstreamObserver(options: {
  upstream: UpstreamName;
  baseUrl: string;
  transport: Transport;
  onAttempt?: (attempt: UpstreamAttempt) => void;
}): UpstreamObserver {
  // The host only: a base URL may carry credentials in its userinfo or path.
  const host = safeHost(options.baseUrl);
  const common = { 'upstream.name': options.upstream, 'server.address': host };
  // A call's span also carries its attempt count and last status (set by its attempts).
  const callSpans = new WeakSet<Span>();
  return {
    call: (method, path, run) => {
      // No provider: no span to name, so neither the name nor the attributes are built.
      if (!tracingOn()) return run();
      const route = routeTemplate(path);
      return inSpan(
        `upstream ${options.upstream} ${method} ${route}`,
        { ...common, 'http.request.method': method, 'url.template': route },
        (span) => {
          if (span.isRecording()) callSpans.add(span);
          return run();
        },
        SpanKind.INTERNAL,
      );
    },
    transportFor: (method, path) => {
      const route = routeTemplate(path);
      let attempt = 0;
      /** Attempt `n`'s report (status and latency), also the call span's last status when traced. */
      const reporter = (n: number, call: Span | undefined) => {
        const started = performance.now();
        return (status: string) => {
          call?.setAttribute('upstream.status', status);
          options.onAttempt?.({
            upstream: options.upstream,
            method,
            route,
            status,
            attempt: n,
            durationMs: performance.now() - started,
          });
        };
      };
      // No provider: each attempt is timed and reported, with no span.
      if (!tracingOn())
        return async (req) => {
          attempt += 1;
          const report = reporter(attempt, undefined);
          try {
            const res = await options.transport(req);
            report(String(res.status));
            return res;
          } catch (e) {
            report(failureKind(e));
            throw e;
          }
        };
      return async (req) => {
        attempt += 1;
        const n = attempt;
        const active = trace.getActiveSpan();
        const call = active && callSpans.has(active) ? active : undefined;
        call?.setAttribute('upstream.attempts', n);
        const report = reporter(n, call);
        return tracer.startActiveSpan(
          `${method} ${route}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              ...common,
              'http.request.method': method,
              'url.template': route,
              'upstream.attempt': n,
              'http.request.resend_count': n - 1,
            },
          },
          async (span) => {
            try {
              const res = await options.transport(req);
              span.setAttribute('http.response.status_code', res.status);
              if (res.status >= 400)
                span.setStatus({ code: SpanStatusCode.ERROR, message: String(res.status) });
              report(String(res.status));
              return res;
            } catch (e) {
              const kind = failureKind(e);
              markError(span, { name: 'UpstreamError', kind });
              report(kind);
              throw e;
            } finally {
              span.end();
            }
          },
        );
      };
    },
  };
}

/** The transport's own word for a failed attempt: timeout, network, too-large or encoding. */
function failureKind(e: unknown): string {
  return e instanceof TransportError ? e.kind : 'network';
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'unknown';
  }
}

/** At most `max` distinct routes per upstream become label values; the rest are counted as `other`. */
export class RouteLabels {
  readonly #seen = new Map<string, Set<string>>();
  constructor(readonly max = 200) {}
  label(upstream: string, route: string): string {
    let set = this.#seen.get(upstream);
    if (!set) {
      set = new Set();
      this.#seen.set(upstream, set);
    }
    if (set.has(route)) return route;
    if (set.size >= this.max) return 'other';
    set.add(route);
    return route;
  }
}
