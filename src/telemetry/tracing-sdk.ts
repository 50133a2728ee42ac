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
import type { Tracing, TracingConfig } from './tracing.js';

/** The OpenTelemetry SDK side of `setupTracing` (src/telemetry/tracing.ts), loaded only when tracing is on. */
export function startTracing(config: TracingConfig, options: { exporter?: SpanExporter }): Tracing {
  const exporter =
    options.exporter ??
    new OTLPTraceExporter({ url: config.otlpTracesUrl, headers: config.otlpHeaders });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sampleRatio) }),
    // In-memory exporters (tests) want each span as it ends; a collector wants batches.
    spanProcessors: [
      options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter),
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
