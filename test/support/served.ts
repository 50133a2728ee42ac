import { startHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/telemetry/logger.js';

/**
 * A gateway served over HTTP as the tests serve one: a free loopback port, no log lines, and a 100 ms
 * grace for open connections when the test shuts it down.
 */
export const serveOnLoopback = (gateway: Parameters<typeof startHttpServer>[0]['gateway']) =>
  startHttpServer({
    gateway,
    port: 0,
    host: '127.0.0.1',
    graceMs: 100,
    logger: createLogger({ level: 'silent' }),
  });
