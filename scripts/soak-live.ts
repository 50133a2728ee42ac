import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { startSimulator } from '@avalanche-gateway/simulator';
import { rssMb } from '../bench/serve-command.js';
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
 *
 * Beside them, SOAK_ACTIVITY_SUBSCRIBERS `addressActivity` subscribers (half graphql-ws, half SSE) follow
 * SOAK_ACTIVITY_ADDRESSES addresses between them (the simulator's busy and ordinary EOAs, then unused ones),
 * each its own slice; each must get exactly the transactions the simulated node's blocks hold for its
 * addresses, in block order, none missed or repeated.
 */
const num = (name: string, dflt: number) => Number(process.env[name] ?? dflt);
const DURATION = num('SOAK_MS', 300_000);
const SUBSCRIBERS = num('SOAK_SUBSCRIBERS', 200);
const BLOCK_MS = num('SOAK_BLOCK_MS', 1_000);
const QPS = num('SOAK_QPS', 20);
const RSS_BOUND_MB = num('SOAK_RSS_BOUND_MB', 64);
const HEAP_MB = num('SOAK_HEAP_MB', 384);
const HEAP_GROWTH_MB = num('SOAK_HEAP_GROWTH_MB', 16);
const ACTIVITY_SUBSCRIBERS = num('SOAK_ACTIVITY_SUBSCRIBERS', 200);
const ACTIVITY_ADDRESSES = num('SOAK_ACTIVITY_ADDRESSES', 1_000);

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
  // Every test client is one address: it may hold all the sockets the run opens.
  WS_MAX_PER_CLIENT: '10000',
  UPSTREAM_CU_PER_MINUTE: '0',
  // Every soak client is 127.0.0.1: one client, as many subscriptions as the soak opens.
  ACTIVITY_SUBSCRIPTIONS_PER_CLIENT: String(Math.max(1, ACTIVITY_SUBSCRIBERS)),
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
const book = sim.world.addressBook;
const pool = [...new Set([...book.busy, ...book.ordinary].map((a) => a.toLowerCase()))];
for (let i = 0; pool.length < ACTIVITY_ADDRESSES; i++)
  pool.push(`0x${(0xa0000 + i).toString(16).padStart(40, '0')}`);
const followed = pool.slice(0, ACTIVITY_ADDRESSES);
const per = Math.ceil(followed.length / Math.max(1, ACTIVITY_SUBSCRIBERS));
const activityQuery =
  'subscription($a: [String!]!) { addressActivity(chainId: "43114", addresses: $a) { blockNumber transactionHash } }';
const activity = Array.from({ length: ACTIVITY_SUBSCRIBERS }, (_, i) => {
  const a = followed.slice(i * per, (i + 1) * per);
  return {
    addresses: a,
    client:
      i % 2 === 0
        ? wsSubscribe(url, activityQuery, { a })
        : sseSubscribe(url, activityQuery, { a }),
  };
});
const chain = sim.world.chain('43114')!;
const settledAt = async (n: number) => {
  for (let i = 0; i < 300; i++) {
    const m = /^gateway_live_activity_block\{chain="43114"\} (\d+)/m.exec(
      await (await fetch(`${gw.url}/metrics`)).text(),
    );
    if (m && Number(m[1]) >= n) return;
    await sleep(100);
  }
};
await sleep(2_000);
// Every activity subscriber is following before the first block it is judged on.
for (let i = 0; i < 300; i++) {
  const m = /^gateway_live_activity_subscribers (\d+)/m.exec(
    await (await fetch(`${gw.url}/metrics`)).text(),
  );
  if (m && Number(m[1]) >= ACTIVITY_SUBSCRIBERS) break;
  await sleep(100);
}
const activityFrom = chain.head().number;
await settledAt(activityFrom);

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
const activityTo = chain.head().number;
await settledAt(activityTo);

/** What the simulated node's blocks hold for `addresses` in (activityFrom, activityTo]. */
const expectedOf = (addresses: readonly string[]) => {
  const mine = new Set(addresses);
  const out: string[] = [];
  for (let n = activityFrom + 1; n <= activityTo; n++)
    for (const tx of chain.blockTxs(chain.block(n)!))
      if (
        mine.has(tx.from.toLowerCase()) ||
        mine.has(tx.to.toLowerCase()) ||
        tx.erc20.some((t) => mine.has(t.from.toLowerCase()) || mine.has(t.to.toLowerCase()))
      )
        out.push(tx.hash.toLowerCase());
  return out;
};
let activityEvents = 0;
const activityMisses: {
  subscriber: number;
  missing: string[];
  extra: string[];
  errors: unknown[];
}[] = [];
const activityExact = activity.filter(({ addresses, client }, i) => {
  // Blocks the holder read after a subscriber followed, up to the judged window, may come first: fine.
  const got = client.events
    .map((e) => e.data?.addressActivity)
    .filter((a) => a && Number(a.blockNumber) > activityFrom)
    .map((a) => a.transactionHash);
  activityEvents += got.length;
  const want = expectedOf(addresses);
  const exact = JSON.stringify(got) === JSON.stringify(want);
  if (!exact && activityMisses.length < 5)
    activityMisses.push({
      subscriber: i,
      missing: want.filter((h) => !got.includes(h)).slice(0, 5),
      extra: got.filter((h) => !want.includes(h)).slice(0, 5),
      errors: client.events.filter((e) => e.errors || e.error).slice(0, 2),
    });
  return exact;
}).length;

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
  activity: {
    subscribers: ACTIVITY_SUBSCRIBERS,
    addresses: followed.length,
    blocks: activityTo - activityFrom,
    events: activityEvents,
    subscribersWithExactlyTheirEvents: activityExact,
    misses: activityMisses,
  },
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
  activityExact === ACTIVITY_SUBSCRIBERS &&
  failed === 0;
for (const s of subs) await s.close();
for (const a of activity) await a.client.close();
await gw.kill('SIGTERM');
await sim.close();
redis.kill();
console.log(ok ? 'soak: PASS' : 'soak: FAIL');
process.exit(ok ? 0 : 1);
