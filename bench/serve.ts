import { createServer, type RequestListener } from 'node:http';
import { createSchema, createYoga } from 'graphql-yoga';

/**
 * The gateway's modules as `npm start` runs them: compiled JavaScript from `dist/` (built by the bench
 * first), or the TypeScript sources with BENCH_FROM=src.
 */
const from = process.env.BENCH_FROM === 'src' ? '../src' : '../dist';
const { RedisStore } = (await import(
  `${from}/cache/redis-store.js`
)) as typeof import('../src/cache/redis-store.js');
const { loadConfig } = (await import(`${from}/config.js`)) as typeof import('../src/config.js');
const { createGateway } = (await import(
  `${from}/gateway.js`
)) as typeof import('../src/gateway.js');
const { startHttpServer } = (await import(
  `${from}/http-server.js`
)) as typeof import('../src/http-server.js');
const { createLogger } = (await import(
  `${from}/telemetry/logger.js`
)) as typeof import('../src/telemetry/logger.js');

/**
 * One server under benchmark, in its own process so the load generator does not share its event loop.
 * BENCH_SERVER: `bare` (Yoga answering `{ __typename }`: the ceiling), `gateway` (the real gateway from
 * the environment), `gateway-redis-only` (the gateway with Redis as its only cache tier, to measure
 * warm-from-Redis without the in-process LRU in front).
 */
const kind = process.env.BENCH_SERVER ?? 'gateway';
const port = Number(process.env.PORT ?? 0);

let handler: RequestListener;
let gateway: ReturnType<typeof createGateway> | undefined;
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
  gateway = createGateway(config, store ? { store } : {});
  handler = gateway.yoga;
}

// The gateway is served as `npm start` serves it (src/http-server.ts: the response-cache fast path in
// front of Yoga); the bare ceiling is Yoga on a plain Node server.
const server = gateway
  ? (
      await startHttpServer({
        gateway,
        port,
        host: '127.0.0.1',
        graceMs: 1_000,
        logger: createLogger({ level: 'silent' }),
        configure: (s) => {
          s.keepAliveTimeout = 60_000;
        },
      })
    ).server
  : createServer(handler);
server.keepAliveTimeout = 60_000;
const ready = () => {
  const addr = server.address() as { port: number };
  process.stdout.write(`READY ${addr.port}\n`);
};
if (server.listening) ready();
else server.listen(port, '127.0.0.1', ready);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
