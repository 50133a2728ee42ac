import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { startSimulator } from '../src/sim/index.js';
import { sseSubscribe, wsSubscribe } from '../test/support/live-clients.js';
import { startReplica } from '../test/support/replicas.js';

/**
 * `npm run soak:live`: a bounded soak of the live path (never part of `npm test`). One gateway process over
 * a private Redis and the simulator's websocket; SOAK_SUBSCRIBERS subscribers (half graphql-ws, half SSE),
 * a block every SOAK_BLOCK_MS and SOAK_QPS steady queries for SOAK_MS. The gateway's RSS is sampled every
 * 5 s; it must stay flat: after the warm-up (the first fifth), no sample may exceed the warm-up's last
 * sample by more than SOAK_RSS_BOUND_MB. Every subscriber must have every head. Exits 1 otherwise.
 */
const num = (name: string, dflt: number) => Number(process.env[name] ?? dflt);
const DURATION = num('SOAK_MS', 300_000);
const SUBSCRIBERS = num('SOAK_SUBSCRIBERS', 200);
const BLOCK_MS = num('SOAK_BLOCK_MS', 1_000);
const QPS = num('SOAK_QPS', 20);
const RSS_BOUND_MB = num('SOAK_RSS_BOUND_MB', 64);

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

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
});
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
while (Date.now() < until) {
  samples.push({
    atS: Math.round((Date.now() - start) / 1000),
    rssMb: Math.round(rssMb(gw.child.pid!)),
  });
  await sleep(5_000);
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
  },
  samples,
};
console.log(JSON.stringify(report, null, 2));
const ok = peak - warm.rssMb <= RSS_BOUND_MB && complete === SUBSCRIBERS && failed === 0;
for (const s of subs) await s.close();
await gw.kill('SIGTERM');
await sim.close();
redis.kill();
console.log(ok ? 'soak: PASS' : 'soak: FAIL');
process.exit(ok ? 0 : 1);
