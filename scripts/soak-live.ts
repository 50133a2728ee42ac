import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { rssMb } from '../bench/serve-command.js';
import { startSimulator } from '../src/sim/index.js';
import { sseSubscribe, wsSubscribe } from '../test/support/live-clients.js';
import { startReplica } from '../test/support/replicas.js';

/**
 * `npm run soak:live`: a bounded soak of the live path (never part of `npm test`). One gateway process over
 * a private Redis and the simulator's websocket; SOAK_SUBSCRIBERS subscribers (half graphql-ws, half SSE),
 * a block every SOAK_BLOCK_MS and SOAK_QPS steady queries for SOAK_MS. The gateway's RSS is sampled every
 * 5 s; it must stay flat: after the warm-up (the first fifth), no sample may exceed the warm-up's last
 * sample by more than SOAK_RSS_BOUND_MB. The gateway runs with its heap capped as docker-compose deploys
 * it (`--max-old-space-size`, SOAK_HEAP_MB): without a cap V8 lets a busy heap grow lazily toward a
 * quarter of the machine's memory, which is not a leak and hides one. So a leak is also looked for
 * directly: the heap's floor (the least `nodejs_heap_size_used_bytes` of each 30 s, read from /metrics,
 * i.e. what survives collection) may not grow by more than SOAK_HEAP_GROWTH_MB from the first window after
 * the warm-up to the last. Every subscriber must have every head. Exits 1 otherwise.
 */
const num = (name: string, dflt: number) => Number(process.env[name] ?? dflt);
const DURATION = num('SOAK_MS', 300_000);
const SUBSCRIBERS = num('SOAK_SUBSCRIBERS', 200);
const BLOCK_MS = num('SOAK_BLOCK_MS', 1_000);
const QPS = num('SOAK_QPS', 20);
const RSS_BOUND_MB = num('SOAK_RSS_BOUND_MB', 64);
const HEAP_MB = num('SOAK_HEAP_MB', 384);
const HEAP_GROWTH_MB = num('SOAK_HEAP_GROWTH_MB', 16);

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const redisPort = await freePort();
const redis: ChildProcess = spawn(
  'redis-server',
  ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  { stdio: 'ignore' },
);
await sleep(300);
const sim = await startSimulator({ port: 0 });
const gw = await startReplica({
  DATA_API_URL: sim.dataApiUrl,
  METRICS_API_URL: sim.metricsApiUrl,
  NODE_RPC_URL: sim.nodeUrl,
  REDIS_URL: `redis://127.0.0.1:${redisPort}`,
  LIVE_WS: `43114=${sim.wsUrl}`,
  CLIENT_BUDGET_PER_MINUTE: '0',
  UPSTREAM_CU_PER_MINUTE: '0',
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${HEAP_MB}`.trim(),
});
const heapUsedMb = async () => {
  const text = await (await fetch(`${gw.url}/metrics`)).text();
  const m = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(text);
  return m ? Number(m[1]) / 1024 / 1024 : Number.NaN;
};
const url = `${gw.url}/graphql`;
const sub = 'subscription { newBlocks(chainId: "43114") { number hash txCount } }';
const subs = Array.from({ length: SUBSCRIBERS }, (_, i) =>
  i % 2 === 0 ? wsSubscribe(url, sub) : sseSubscribe(url, sub),
);
await sleep(2_000);

const f = sim.world.fixtures;
const queries = [
  '{ chain(id: "43114") { blocks(first: 5) { edges { node { number hash txCount } } } } }',
  `{ address(chainId: "43114", address: "${f.ordinaryAddress}") { transactions(first: 10) { edges { node { hash } } } } }`,
  `{ block(chainId: "43114", id: "${f.blockNumber}") { hash transactions(first: 3) { edges { node { hash } } } } }`,
];
const heads: string[] = [];
const samples: { atS: number; rssMb: number }[] = [];
let sent = 0;
let failed = 0;
const start = Date.now();
const until = start + DURATION;
const advancing = (async () => {
  while (Date.now() < until) {
    const r = (await (
      await fetch(`${sim.url}/_sim/advance`, {
        method: 'POST',
        body: JSON.stringify({ chainId: '43114', blocks: 1 }),
      })
    ).json()) as { head: { number: number } };
    heads.push(String(r.head.number));
    await sleep(BLOCK_MS);
  }
})();
const querying = (async () => {
  while (Date.now() < until) {
    const q = queries[sent % queries.length]!;
    sent += 1;
    void fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: q }),
    })
      .then((r) => r.json() as Promise<{ errors?: unknown[] }>)
      .then(
        (b) => {
          if (b.errors) failed += 1;
        },
        () => {
          failed += 1;
        },
      );
    await sleep(1_000 / QPS);
  }
})();
/** The least heap used seen in each 30 s window (index = window). */
const heapFloors: number[] = [];
while (Date.now() < until) {
  const atS = Math.round((Date.now() - start) / 1000);
  if (atS % 5 === 0 && samples.at(-1)?.atS !== atS)
    samples.push({ atS, rssMb: rssMb(gw.child.pid) });
  const w = Math.floor(atS / 30);
  const heap = await heapUsedMb().catch(() => Number.NaN);
  if (Number.isFinite(heap)) heapFloors[w] = Math.min(heapFloors[w] ?? heap, heap);
  await sleep(1_000);
}
await Promise.all([advancing, querying]);
await sleep(3_000);

const warm = samples[Math.max(0, Math.floor(samples.length / 5) - 1)]!;
const after = samples.filter((s) => s.atS > warm.atS);
const peak = Math.max(...after.map((s) => s.rssMb));
const complete = subs.filter((s) => {
  const got = s.events.map((e) => e.data?.newBlocks?.number).filter(Boolean);
  return heads.every((h) => got.includes(h)) && new Set(got).size === got.length;
}).length;
// Whole windows only: from the first after the warm-up to the last complete one.
const firstW = Math.ceil(warm.atS / 30);
const floors = heapFloors.slice(firstW, Math.floor(DURATION / 30_000));
const heapGrowth = (floors.at(-1) ?? 0) - (floors[0] ?? 0);
const report = {
  durationS: DURATION / 1000,
  subscribers: SUBSCRIBERS,
  heads: heads.length,
  subscribersWithEveryHeadOnce: complete,
  queries: sent,
  queryErrors: failed,
  rssMb: {
    first: samples[0]?.rssMb,
    afterWarmUp: warm.rssMb,
    peakAfterWarmUp: peak,
    last: samples.at(-1)?.rssMb,
    bound: `+${RSS_BOUND_MB}`,
    heapCapMb: HEAP_MB,
  },
  heapFloorMb: {
    byWindow: heapFloors.map((f) => Math.round(f)),
    growthAfterWarmUp: Math.round(heapGrowth * 10) / 10,
    bound: `+${HEAP_GROWTH_MB}`,
  },
  samples,
};
console.log(JSON.stringify(report, null, 2));
const ok =
  peak - warm.rssMb <= RSS_BOUND_MB &&
  floors.length >= 2 &&
  heapGrowth <= HEAP_GROWTH_MB &&
  complete === SUBSCRIBERS &&
  failed === 0;
for (const s of subs) await s.close();
await gw.kill('SIGTERM');
await sim.close();
redis.kill();
console.log(ok ? 'soak: PASS' : 'soak: FAIL');
process.exit(ok ? 0 : 1);
