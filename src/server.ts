import { createServer } from 'node:http';
import { ConfigError, loadConfig } from './config.js';
import { createGateway } from './gateway.js';
import { applyServerLimits } from './edge/server-limits.js';

/** Process entry: config, listen, graceful shutdown. Nothing else lives here. */
let config;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(2);
  }
  throw e;
}

const gateway = createGateway(config);
await gateway.ready();
const server = applyServerLimits(createServer(gateway.yoga), config);
server.listen(config.port, config.host, () => {
  console.log(`gateway: GraphQL and GraphiQL at http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}/graphql`);
  console.log(`gateway: upstreams data=${config.dataApiUrl} metrics=${config.metricsApiUrl} nodes=${config.nodes.map((n) => `${n.name}=${n.url}`).join(',')}`);
  console.log(`gateway: cache ${config.redisUrl ? 'Redis + in-process LRU' : 'in-process LRU (set REDIS_URL to share it)'}`);
});

let closing = false;
const shutdown = (signal: string) => {
  if (closing) return;
  closing = true;
  console.log(`gateway: ${signal}, closing`);
  server.close(() => void gateway.close().finally(() => process.exit(0)));
  server.closeAllConnections?.();
  setTimeout(() => process.exit(1), 10_000).unref();
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
