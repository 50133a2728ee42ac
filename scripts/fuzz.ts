import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { startSimulator } from '@avalanche-gateway/simulator';
import { rssMb } from '../bench/serve-command.js';
import { fuzzRequests, rng, sendFuzz } from '../test/support/fuzz-cases.js';
import {
  freePort,
  hasRedisServer,
  startRedisServer,
  type TestRedis,
} from '../test/support/redis.js';

/**
 * `npm run fuzz -- --requests 10000` (never part of `npm test`; test/integration/fuzz.test.ts runs 300 of
 * the same cases there): the seeded fuzz of issue 12 over HTTP and graphql-ws together, against one gateway
 * process run as docker-compose runs it (`node --max-old-space-size=384 dist/server.js`, production mode, its
 * own Redis, the server limits of src/edge/server-limits.ts). Prints requests, statuses, error codes, answers
 * that never came (by their code), failed /health probes, the process's RSS (start, peak, end) and whether
 * it lived. Exits 1 on a crash, an INTERNAL or uncoded error, a 5xx, a request without an answer, a failed
 * /health probe, or an RSS peak over --rss-bound.
 *
 * Options: --requests (10000), --seed (12), --concurrency (16), --heap MB (384), --rss-bound MB (640),
 * --ws-share (0.2), --from src (run the TypeScript sources through tsx instead of building dist/).
 */
const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '16' },
    heap: { type: 'string', default: '384' },
    'rss-bound': { type: 'string', default: '640' },
    'ws-share': { type: 'string', default: '0.2' },
    from: { type: 'string', default: 'dist' },
  },
});
const REQUESTS = Number(args.requests);
const SEED = Number(args.seed);
const CONCURRENCY = Number(args.concurrency);
const HEAP_MB = Number(args.heap);
const RSS_BOUND_MB = Number(args['rss-bound']);

if (args.from !== 'src') execSync('npm run -s build', { stdio: 'inherit' });
const redis: TestRedis | undefined = hasRedisServer() ? await startRedisServer() : undefined;
const sim = await startSimulator({ port: 0 });

const port = await freePort();
const entry = args.from === 'src' ? ['--import', 'tsx', 'src/server.ts'] : ['dist/server.js'];
const child: ChildProcess = spawn(
  process.execPath,
  [`--max-old-space-size=${HEAP_MB}`, '--enable-source-maps', ...entry],
  {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_API_URL: sim.dataApiUrl,
      METRICS_API_URL: sim.metricsApiUrl,
      NODE_RPC_URL: sim.nodeUrl,
      ...(redis ? { REDIS_URL: redis.url } : {}),
      CURSOR_SECRET: 'fuzz-cursor-secret-of-at-least-32-characters',
      // The fuzz reaches introspection too (off by default in production).
      INTROSPECTION: 'true',
      // One client sends everything: its budget would refuse most of the run before it reached the pipeline.
      CLIENT_BUDGET_PER_MINUTE: '0',
      UPSTREAM_CU_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      // The live source and the Data API's webhook route, so the fuzz reaches that surface too.
      LIVE_WS: `43114=${sim.wsUrl}`,
      WEBHOOK_URL: 'http://127.0.0.1:9/webhooks/data-api',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let exit: string | undefined;
child.once('exit', (code, signal) => {
  exit = `exited with ${signal ?? code}`;
});
const logLevels = new Map<string, number>();
const stderrTail: string[] = [];
child.stderr?.on('data', (d: Buffer) => {
  stderrTail.push(d.toString());
  if (stderrTail.length > 20) stderrTail.shift();
});
child.stdout?.on('data', (d: Buffer) => {
  for (const line of d.toString().split('\n').filter(Boolean)) {
    const level = /"level":"(\w+)"/.exec(line)?.[1] ?? 'not JSON';
    const msg = /"msg":"([^"]{0,60})/.exec(line)?.[1] ?? line.slice(0, 60);
    logLevels.set(`${level}: ${msg}`, (logLevels.get(`${level}: ${msg}`) ?? 0) + 1);
  }
});
for (let t = Date.now(); ; ) {
  if (exit) throw new Error(`gateway ${exit}: ${stderrTail.join('')}`);
  const up = await fetch(`http://127.0.0.1:${port}/live`).then(
    (res) => res.ok,
    () => false,
  );
  if (up) break;
  if (Date.now() - t > 60_000) throw new Error('the gateway did not start within 60 s');
  await new Promise((res) => setTimeout(res, 200));
}
const url = `http://127.0.0.1:${port}/graphql`;

const head = Number(
  (
    (await (await fetch(`${sim.dataApiUrl}/v1/chains/43114/blocks?pageSize=1`)).json()) as {
      blocks: { blockNumber: string }[];
    }
  ).blocks[0]!.blockNumber,
);
const seeded = (await (
  await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `{ chain(id: "43114") { blocks(first: 3) { edges { cursor } } transactions(first: 2) { edges { cursor } } } }`,
    }),
  })
).json()) as { data: { chain: Record<string, { edges: { cursor: string }[] }> } };
const cursors = Object.values(seeded.data.chain).flatMap((c) => c.edges.map((e) => e.cursor));

const r = rng(SEED);
const randomRequest = fuzzRequests({
  head,
  cursors,
  wsShare: Number(args['ws-share']),
  webhookShare: 0.05,
  webhookSecret: sim.webhooks.secret,
});
const requests = Array.from({ length: REQUESTS }, () => randomRequest(r));

const rssStart = rssMb(child.pid);
let rssPeak = rssStart;
const sampler = setInterval(() => {
  rssPeak = Math.max(rssPeak, rssMb(child.pid));
}, 250);
const health = { probes: 0, failures: 0, slowestMs: 0 };
let done = false;
const prober = (async () => {
  while (!done && !exit) {
    const t = performance.now();
    const ok = await fetch(url.replace('/graphql', '/health'), {
      signal: AbortSignal.timeout(5_000),
    }).then(
      (res) => res.status === 200,
      () => false,
    );
    health.probes++;
    if (!ok) health.failures++;
    health.slowestMs = Math.max(health.slowestMs, performance.now() - t);
    await new Promise((res) => setTimeout(res, 100));
  }
})();

const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
const statuses = new Map<string, number>();
const codes = new Map<string, number>();
const transport = new Map<string, number>();
const problems: string[] = [];
let sent = 0;
let next = 0;
const started = performance.now();
const worker = async () => {
  while (next < requests.length && !exit) {
    const i = next++;
    const req = requests[i]!;
    const out = await sendFuzz(url, req);
    sent++;
    count(statuses, req.ws ? 'ws' : String(out.status));
    for (const c of out.codes) count(codes, c);
    if (out.transport) count(transport, `${req.ws ? 'ws' : req.method} ${out.transport}`);
    if (out.problem) problems.push(`#${i} ${out.problem} for ${JSON.stringify(req).slice(0, 600)}`);
    if (sent % 1000 === 0)
      console.log(
        `  ${sent} requests, ${Math.round(performance.now() - started)} ms, RSS ${rssMb(child.pid)} MB (peak ${rssPeak})`,
      );
  }
};
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const elapsed = Math.round(performance.now() - started);
done = true;
await prober;
clearInterval(sampler);
const rssEnd = rssMb(child.pid);
const alive = !exit && (await fetch(url.replace('/graphql', '/health')).catch(() => null))?.status;

const obj = (m: Map<string, number>) => JSON.stringify(Object.fromEntries(m));
console.log(
  `fuzz: ${sent} of ${REQUESTS} requests (seed ${SEED}, ${CONCURRENCY} at a time, heap ${HEAP_MB} MB) in ${elapsed} ms\n` +
    `  statuses ${obj(statuses)}\n  error codes ${obj(codes)}\n  no answer ${obj(transport)}\n` +
    `  INTERNAL ${codes.get('INTERNAL') ?? 0}, uncoded ${codes.get('uncoded') ?? 0}, problems ${problems.length}\n` +
    `  health ${health.probes} probes, ${health.failures} failed, slowest ${Math.round(health.slowestMs)} ms\n` +
    `  RSS start ${rssStart} MB, peak ${rssPeak} MB, end ${rssEnd} MB (bound ${RSS_BOUND_MB})\n` +
    `  gateway log lines by level and message ${obj(logLevels)}; crashes ${exit ? 1 : 0}${exit ? ` (${exit})` : ''}, /health at the end ${alive}`,
);
if (problems.length) console.log(problems.slice(0, 10).join('\n'));
if (exit) console.log(stderrTail.join(''));
const failed =
  !!exit || alive !== 200 || problems.length > 0 || health.failures > 0 || rssPeak > RSS_BOUND_MB;
await stopChild(child);
await sim.close();
await redis?.stop();
process.exit(failed ? 1 : 0);

function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
  c.kill('SIGTERM');
  return exited;
}
