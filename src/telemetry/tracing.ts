import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

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
 * The SDK and the OTLP exporter are imported only when tracing is on: a gateway without a collector
 * never loads them (about 10 MB of resident memory).
 */
export async function setupTracing(
  config: TracingConfig,
  options: { exporter?: SpanExporter } = {},
): Promise<Tracing> {
  if (!options.exporter && !config.otlpTracesUrl) return OFF;
  const { startTracing } = await import('./tracing-sdk.js');
  return startTracing(config, options);
}
