import {
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
} from '@opentelemetry/api';
import type { GatewayMetrics } from '../metrics.js';
import type { Logger } from './logger.js';
import { REQUEST_ID_HEADER, requestLogLine, saneRequestId } from './request-log.js';
import { openRequestScope, type RequestScope, requestScopeOf } from './request-scope.js';
import { requestSlot } from './request-slot.js';
import { tracer } from './spans.js';

/**
 * One request, observed: a request id (the caller's sane `x-request-id`, else a new UUID) echoed in the
 * response header, the request's span (parent of every resolver batch, cache lookup and upstream call;
 * a caller's W3C `traceparent` is continued), and one log line when the response is ready: operation,
 * status, duration, upstream calls, error codes. GraphQL requests log at `info`; probes and `/metrics`
 * at `debug`. Headers, variables and the query text are never logged.
 */
export function requestIdFrom(headers: Headers): string {
  return saneRequestId(headers.get(REQUEST_ID_HEADER));
}

const headerGetter: TextMapGetter<Headers> = {
  keys: (h) => [...h.keys()],
  get: (h, key) => h.get(key) ?? undefined,
};

export interface ObservabilityOptions {
  logger: Logger;
  metrics: GatewayMetrics;
  graphqlEndpoint: string;
}

/**
 * How a request is observed, whoever answers it: Yoga's pipeline (src/plugins/use-observability.ts) or
 * the direct execution in front of it (src/http/direct.ts), so both give the same span, request id,
 * metrics and log line.
 */
export interface RequestObserver {
  /** Runs `wrapped` inside the request's span, with its scope open (found by `requestScopeOf`). */
  observe(request: Request, wrapped: () => void | Promise<void>): Promise<void>;
  /** The distinct error codes of a result (or results), noted in the request's scope. */
  noteErrors(request: Request, result: unknown): void;
  /** The response is ready: the request id header is set on it, the request is measured and logged. */
  respond(request: Request, status: number, setHeader: (name: string, value: string) => void): void;
}

export function createRequestObserver(options: ObservabilityOptions): RequestObserver {
  // The request's span, on its scope (see telemetry/request-slot.ts).
  const spans = requestSlot<Span>('span');
  const known = new Set([options.graphqlEndpoint, '/health', '/live', '/metrics']);
  return {
    observe(request, wrapped) {
      const scope: RequestScope = {
        requestId: requestIdFrom(request.headers),
        startedAt: performance.now(),
        upstreamCalls: 0,
        upstreamRetries: 0,
      };
      const path = pathOf(request.url);
      const parent = propagation.extract(ROOT_CONTEXT, request.headers, headerGetter);
      return tracer.startActiveSpan(
        known.has(path) ? `${request.method} ${path}` : request.method,
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'url.path': known.has(path) ? path : 'other',
            'request.id': scope.requestId,
          },
        },
        parent,
        async (span) => {
          spans.set(scope, span);
          openRequestScope(request, scope);
          try {
            await wrapped();
          } finally {
            span.end();
          }
        },
      );
    },
    noteErrors(request, result) {
      const scope = requestScopeOf(request);
      if (!scope) return;
      const results = Array.isArray(result) ? result : [result];
      const codes = new Set<string>();
      for (const r of results) {
        if (!r || typeof r !== 'object' || !('errors' in r) || !Array.isArray(r.errors)) continue;
        for (const e of r.errors as { extensions?: { code?: unknown } }[])
          codes.add(typeof e.extensions?.code === 'string' ? e.extensions.code : 'UNCODED');
      }
      if (codes.size > 0) scope.errorCodes = [...codes].sort();
    },
    respond(request, status, setHeader) {
      const scope = requestScopeOf(request);
      if (!scope) return;
      setHeader(REQUEST_ID_HEADER, scope.requestId);
      const durationMs = performance.now() - scope.startedAt;
      const path = pathOf(request.url);
      const isGraphql = path === options.graphqlEndpoint;
      if (isGraphql) {
        const operation = options.metrics.operations.label(scope.operationName);
        options.metrics.requestDuration.observe(
          { status: String(status), operation },
          durationMs / 1000,
        );
        for (const code of scope.errorCodes ?? [])
          options.metrics.graphqlErrors.inc({ operation, code });
      }
      const span = spans.get(scope);
      if (span?.isRecording()) {
        span.setAttribute('http.response.status_code', status);
        span.setAttribute('upstream.calls', scope.upstreamCalls);
        span.setAttribute('upstream.cu', scope.upstreamCu ?? 0);
        if (scope.operationName) span.setAttribute('graphql.operation.name', scope.operationName);
        if (scope.operationType) span.setAttribute('graphql.operation.type', scope.operationType);
        if (scope.errorCodes) span.setAttribute('graphql.error.codes', scope.errorCodes);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: String(status) });
      }
      const traceId = span?.isRecording() ? span.spanContext().traceId : undefined;
      const line = requestLogLine({
        requestId: scope.requestId,
        traceId,
        method: request.method,
        path: known.has(path) ? path : 'other',
        status,
        durationMs,
        operationName: scope.operationName,
        operationType: scope.operationType,
        upstreamCalls: scope.upstreamCalls,
        upstreamCu: scope.upstreamCu,
        upstreamRetries: scope.upstreamRetries,
        errorCodes: scope.errorCodes,
      });
      if (isGraphql) options.logger.info(line, 'request');
      else options.logger.debug(line, 'request');
    },
  };
}

/**
 * An absolute URL whose path is plain (letters, digits, `-`, `_`, `/`): its path as written is what
 * `URL` would give, so the path is read without building a URL (two per request otherwise). Request
 * URLs are built by the server from a valid request; the path only names known endpoints in labels.
 */
const PLAIN_PATH = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\\s]*(\/[A-Za-z0-9_\-/]*)?(?:[?#]|$)/i;

export function pathOf(url: string): string {
  const plain = PLAIN_PATH.exec(url);
  if (plain) return plain[1] || '/';
  try {
    return new URL(url, 'http://localhost').pathname;
  } catch {
    return 'other';
  }
}
