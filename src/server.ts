import { collectDefaultMetrics } from 'prom-client';
import { ConfigError, loadConfig } from './config.js';
import { applyServerLimits } from './edge/server-limits.js';
import { createGateway } from './gateway.js';
import { applyHeapGrowth, checkHeapLimit } from './heap-limit.js';
import { connectionSharesOf } from './http/connection-shares.js';
import { startMetricsServer } from './http/metrics-server.js';
import { startHttpServer } from './http/server.js';
import { createLogger } from './telemetry/logger.js';
import { installProcessHandlers, type ProcessErrorKind } from './telemetry/process-handlers.js';
import { setupTracing } from './telemetry/tracing.js';

/** Process entry: config, logs and traces, listen, process-level error handlers, graceful shutdown. Nothing else lives here. */
let config: ReturnType<typeof loadConfig>;
let heapGrowthApplied = false;
try {
  config = loadConfig();
  checkHeapLimit(config.memoryCacheMaxBytes);
  heapGrowthApplied = applyHeapGrowth(config.heapGrowthPercent);
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}

const logger = createLogger({ level: config.logLevel });
/** A start-up step that fails stops the process at once, saying why in one line: nothing pretends to be up. */
async function startUp<T>(step: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    logger.fatal(
      { err: e, step },
      `cannot start: ${step} failed: ${e instanceof Error ? e.message : String(e)}`,
    );
    process.exit(1);
  }
}
const tracing = await startUp('tracing (OTEL_EXPORTER_OTLP_*)', () => setupTracing(config.tracing));
const gateway = await startUp('the gateway', () => createGateway(config, { logger }));
const KINDS: ProcessErrorKind[] = ['unhandledRejection', 'uncaughtException'];
for (const kind of KINDS) gateway.metrics.processErrors.inc({ kind }, 0);
installProcessHandlers({ logger, count: (kind) => gateway.metrics.processErrors.inc({ kind }) });
// Process metrics (memory, CPU, event-loop lag, GC) beside the gateway's own.
collectDefaultMetrics({ register: gateway.metrics.registry });

await startUp('the cache and live data (REDIS_URL, LIVE_WS)', () => gateway.ready());
// METRICS_PORT: /metrics on a listener of its own (not on PORT).
const metricsServer =
  config.metricsPort === undefined
    ? undefined
    : await startMetricsServer({
        port: config.metricsPort,
        host: config.host,
        metrics: gateway.metrics,
        store: gateway.store,
        token: config.metricsToken,
      });
// Server-level limits (request timeout, connection cap: src/edge/server-limits.ts) before it listens.
let http: Awaited<ReturnType<typeof startHttpServer>>;
try {
  http = await startHttpServer({
    gateway,
    port: config.port,
    host: config.host,
    graceMs: config.shutdownGraceMs,
    drainMs: config.shutdownDrainMs,
    ws: { maxPerClient: config.wsMaxPerClient, clientOf: gateway.wsClientOf },
    connections: connectionSharesOf(config, gateway.wsClientOf),
    logger,
    configure: (server) => applyServerLimits(server, config),
  });
} catch (e) {
  // No listener: a process that kept following heads here would look alive and serve nothing.
  logger.fatal({ err: e, port: config.port, host: config.host }, listenFailure(e));
  process.exit(1);
}
// Upstreams by origin only: a base URL may carry a key in its path or userinfo.
const origin = (u: string) => {
  try {
    return new URL(u).origin;
  } catch {
    return 'invalid';
  }
};
logger.info(
  {
    url: `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${http.port}/graphql`,
    port: http.port,
    upstreams: {
      data: origin(config.dataApiUrl),
      metrics: origin(config.metricsApiUrl),
      nodes: config.nodes.map((n) => `${n.name}=${origin(n.url)}`),
    },
    cache: config.redisUrl ? 'redis+lru' : 'lru',
    tracing: tracing.enabled ? 'otlp' : 'off',
    metricsProtected: config.metricsToken !== undefined,
    metricsPort: metricsServer?.port,
    // HEAP_GROWTH_PERCENT as applied: `v8` when V8's own policy runs (0, or a heap limit under 2 GB).
    heapGrowth: heapGrowthApplied ? `${config.heapGrowthPercent}%` : 'v8',
  },
  'gateway listening',
);

let closing = false;
const shutdown = (signal: string) => {
  // A second signal while draining: stop waiting.
  if (closing) {
    logger.warn({ signal }, 'second signal while draining; exiting now');
    process.exit(1);
  }
  closing = true;
  // Never hang past the grace and a little more for Redis and the trace exporter.
  setTimeout(
    () => process.exit(1),
    config.shutdownDrainMs + config.shutdownGraceMs + 5_000,
  ).unref();
  void http
    .shutdown(signal)
    .then(() => metricsServer?.close())
    .then(() => tracing.shutdown())
    .then(
      () => process.exit(0),
      (e: unknown) => {
        logger.error({ err: e }, 'shutdown failed');
        process.exit(1);
      },
    );
};
// SIGHUP: the persisted operations' files are read again (a failure is logged and keeps the ones loaded).
process.on('SIGHUP', () => {
  try {
    gateway.reloadPersistedOperations();
  } catch {
    // Logged by the gateway's reload hook.
  }
});
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

/** Why the gateway could not listen, naming the settings that choose where. */
function listenFailure(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  const where = `PORT=${config.port} on HOST=${config.host}`;
  if (code === 'EADDRINUSE')
    return `cannot listen: ${where} is already in use; set PORT to a free port (or stop what holds it)`;
  if (code === 'EACCES')
    return `cannot listen: ${where} needs privileges this process lacks; set PORT above 1023`;
  if (code === 'EADDRNOTAVAIL')
    return `cannot listen: HOST=${config.host} is not an address of this machine; set HOST`;
  return `cannot listen on ${where}: ${e instanceof Error ? e.message : String(e)}`;
}
