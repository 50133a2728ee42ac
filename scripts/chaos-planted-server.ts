import { loadConfig } from '../src/config.js';
import { createGateway } from '../src/gateway.js';
import { startHttpServer } from '../src/http/server.js';
import { createLogger } from '../src/telemetry/logger.js';
import { PLANTS } from '../test/oracle/plants.js';

/**
 * A gateway process with a wrong cache policy planted (CHAOS_PLANT names one of test/oracle/plants.ts):
 * `npm run chaos -- --plant NAME` runs its replicas from here to show that the rows' judge finds the
 * wrong answers such a gateway gives. src/server.ts's wiring, without its logs, traces and metrics.
 */
const plant = PLANTS[process.env.CHAOS_PLANT as keyof typeof PLANTS];
if (!plant) throw new Error(`CHAOS_PLANT: one of ${Object.keys(PLANTS).join(', ')}`);
const config = loadConfig();
const logger = createLogger({ level: config.logLevel });
const gateway = createGateway(config, { logger, wrapPolicy: plant });
await gateway.ready();
const http = await startHttpServer({
  gateway,
  port: config.port,
  host: config.host,
  graceMs: config.shutdownGraceMs,
  drainMs: config.shutdownDrainMs,
  ws: { maxPerClient: config.wsMaxPerClient, clientOf: gateway.wsClientOf },
  logger,
});
process.on('SIGTERM', () => {
  void http.shutdown('SIGTERM').then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
