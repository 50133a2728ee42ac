import http, { createServer } from 'node:http';
import { createSchema, createYoga } from 'graphql-yoga';

/**
 * The gateway's modules as `npm start` runs them: compiled JavaScript from `dist/` (built by the bench
 * first) under plain `node`, or the TypeScript sources with BENCH_FROM=src (then this file is started
 * with `--import tsx`). This file is JavaScript so that the compiled gateway is measured without tsx's
 * loader in the process: that loader alone adds about 65 MB of resident memory.
 */
const from = process.env.BENCH_FROM === 'src' ? '../src' : '../dist';
const { RedisStore } = await import(`${from}/cache/redis-store.js`);
const { loadConfig } = await import(`${from}/config.js`);
const { createGateway } = await import(`${from}/gateway.js`);
const { startHttpServer } = await import(`${from}/http/server.js`);
const { createLogger } = await import(`${from}/telemetry/logger.js`);
const { applyHeapGrowth } = await import(`${from}/heap-limit.js`);

/**
 * One server under benchmark, in its own process so the load generator does not share its event loop.
 * BENCH_SERVER: `bare` (Yoga answering `{ __typename }`: the ceiling), `gateway` (the real gateway from
 * the environment), `gateway-redis-only` (the gateway with Redis as its only cache tier, to measure
 * warm-from-Redis without the in-process LRU in front), `relay` (no GraphQL: a plain Node server that, for
 * a body `{ variables: { id } }`, fetches the block and its transactions page from the Data API together
 * and answers `{}`: the cold-path floor of any Node server in front of that upstream).
 */
const kind = process.env.BENCH_SERVER ?? 'gateway';
const port = Number(process.env.PORT ?? 0);

/** @type {import('node:http').RequestListener} */
let handler;
/** @type {ReturnType<typeof createGateway> | undefined} */
let gateway;
if (kind === 'relay') {
  const base = `${process.env.DATA_API_URL}/v1/chains/43114/blocks`;
  // The fastest plain client Node has (node:http over a keep-alive agent; fetch costs more per call):
  // the floor is the process hop, not a client library.
  const agent = new http.Agent({ keepAlive: true });
  /** @param {string} url */
  const getJson = (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent }, (r) => {
          /** @type {Buffer[]} */
          const parts = [];
          r.on('data', (c) => parts.push(c));
          r.on('end', () => resolve(JSON.parse(Buffer.concat(parts).toString())));
          r.on('error', reject);
        })
        .on('error', reject);
    });
  handler = (req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const id = JSON.parse(Buffer.concat(chunks).toString()).variables.id;
      await Promise.all([
        getJson(`${base}/${id}`),
        getJson(`${base}/${id}/transactions?pageSize=100`),
      ]);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  };
} else if (kind === 'bare') {
  handler = createYoga({
    schema: createSchema({ typeDefs: 'type Query { ok: Boolean }' }),
    logging: false,
    landingPage: false,
  });
} else {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  // As src/server.ts does before the gateway allocates.
  applyHeapGrowth(config.heapGrowthPercent);
  const store =
    kind === 'gateway-redis-only'
      ? new RedisStore({
          url: /** @type {string} */ (config.redisUrl),
          commandTimeoutMs: config.redisCommandTimeoutMs,
        })
      : undefined;
  gateway = createGateway(config, store ? { store } : {});
  handler = gateway.yoga;
}

// The gateway is served as `npm start` serves it (src/http/server.ts: the response-cache fast path in
// front of Yoga); the bare ceiling is Yoga on a plain Node server.
const server = gateway
  ? (
      await startHttpServer({
        gateway,
        port,
        host: '127.0.0.1',
        graceMs: 1_000,
        logger: createLogger({ level: 'silent' }),
        configure: (/** @type {import('node:http').Server} */ s) => {
          s.keepAliveTimeout = 60_000;
        },
      })
    ).server
  : createServer(handler);
server.keepAliveTimeout = 60_000;
const ready = () => {
  const addr = /** @type {{ port: number }} */ (server.address());
  process.stdout.write(`READY ${addr.port}\n`);
};
if (server.listening) ready();
else server.listen(port, '127.0.0.1', ready);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
