import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';

/**
 * Turns OpenTelemetry tracing on for this process, or leaves it off. Gateway code only ever talks to
 * `@opentelemetry/api` (src/telemetry/spans.ts); without a registered provider every span is the API's
 * no-op span, so tracing that is not configured costs a few allocations per span and exports nothing.
 */
export interface TracingConfig {
  /** Full OTLP/HTTP traces URL (`…/v1/traces`). Undefined: tracing off. */
  otlpTracesUrl: string | undefined;
  /** Headers sent to the collector (its API key, say): never logged. */
  otlpHeaders: Record<string, string>;
  /** `service.name` of every span. */
  serviceName: string;
  /** Share of new traces sampled, 0–1 (a sampled caller's `traceparent` is always followed). */
  sampleRatio: number;
}

export interface Tracing {
  /** True when spans are recorded and exported. */
  readonly enabled: boolean;
  /** Flushes what is buffered and stops exporting (at shutdown). */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { enabled: false, shutdown: async () => {} };

/**
 * Registers a global tracer provider, the AsyncLocalStorage context manager (so a span started in a
 * resolver batch is the parent of the cache lookup and upstream call below it) and the W3C
 * `traceparent` propagator. Tests pass their own exporter (an in-memory one) and get every span at once.
 */
export function setupTracing(config: TracingConfig, o: { exporter?: SpanExporter } = {}): Tracing {
  if (!o.exporter && !config.otlpTracesUrl) return OFF;
  const exporter =
    o.exporter ?? new OTLPTraceExporter({ url: config.otlpTracesUrl, headers: config.otlpHeaders });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sampleRatio) }),
    // In-memory exporters (tests) want each span as it ends; a collector wants batches.
    spanProcessors: [
      o.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter),
    ],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  let stopped: Promise<void> | undefined;
  return {
    enabled: true,
    shutdown: () =>
      (stopped ??= provider.shutdown().finally(() => {
        trace.disable();
        propagation.disable();
        context.disable();
      })),
  };
}
