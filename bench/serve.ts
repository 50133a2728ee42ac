import { createServer, type RequestListener } from 'node:http';
import { createSchema, createYoga } from 'graphql-yoga';
import { RedisStore } from '../src/cache/redis-store.js';
import { loadConfig } from '../src/config.js';
import { createGateway } from '../src/gateway.js';

/**
 * One server under benchmark, in its own process so the load generator does not share its event loop.
 * BENCH_SERVER: `bare` (Yoga answering `{ __typename }`: the ceiling), `gateway` (the real gateway from
 * the environment), `gateway-redis-only` (the gateway with Redis as its only cache tier, to measure
 * warm-from-Redis without the in-process LRU in front).
 */
const kind = process.env.BENCH_SERVER ?? 'gateway';
const port = Number(process.env.PORT ?? 0);

let handler: RequestListener;
if (kind === 'bare') {
  handler = createYoga({
    schema: createSchema({ typeDefs: 'type Query { ok: Boolean }' }),
    logging: false,
    landingPage: false,
  });
} else {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const store =
    kind === 'gateway-redis-only'
      ? new RedisStore({ url: config.redisUrl!, commandTimeoutMs: config.redisCommandTimeoutMs })
      : undefined;
  handler = createGateway(config, store ? { store } : {}).yoga;
}

const server = createServer(handler);
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const addr = server.address() as { port: number };
  process.stdout.write(`READY ${addr.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
