import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { availableParallelism } from 'node:os';
import { startSimulator } from '@avalanche-gateway/simulator';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { blockBody, fixedLoad, type LoadResult } from './load.js';
import { PEER_QUERY, peerAvailable, preparePeer, startPeer } from './peer.js';
import {
  buildGateway,
  gatewayEnv,
  headOf,
  pinToCpus,
  startBenchServer,
  watchRss,
} from './serve-command.js';

/**
 * `npm run bench`: requests per second and latency of one gateway query cold, warm from the in-process
 * LRU, warm from Redis, and a bare Yoga server answering `{ __typename }` as the ceiling — all in one run,
 * with upstream calls and Redis round trips per query. Never part of `npm test`.
 * Env: BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 32), REDIS_URL (default redis://127.0.0.1:6379/15),
 * BENCH_STEADY_QUERIES (default 4000: the measured queries of the steady-state cold rows).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/15';

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  upstreamPerQuery: number;
  redisCommandsPerQuery: number | null;
  /** The server's resident set: before the load, and the highest sample during it (MB). */
  rssIdleMb: number;
  rssPeakMb: number;
}

/**
 * Each server under test runs on a core of its own (the last), and this process (the simulator, the
 * clients, autocannon) on the others, as the issue's comparison with the peer was measured: otherwise
 * the servers share both cores with the simulator and the load, and a server that needs less CPU per
 * query than the bench process spends on it is measured at the bench process's speed. BENCH_PIN=0
 * leaves scheduling to the system. Linux (`taskset`) with at least two cores.
 */
const CPUS = availableParallelism();
const PIN = process.env.BENCH_PIN !== '0' && CPUS >= 2 && hasTaskset();
const pin = pinToCpus;
function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function startServer(
  kind: string,
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const server =
    kind === 'peer' || kind === 'peer-cached'
      ? await (async () => {
          if (!peerWork) throw new Error('the peer is not prepared');
          return startPeer(peerWork, kind === 'peer-cached');
        })()
      : await startBenchServer(kind, env);
  if (PIN && server.child.pid) pin(server.child.pid, String(CPUS - 1));
  return server;
}

/** What one load run measured. */
/** A load run for SECONDS with autocannon (the warm rows). */
async function load(url: string, bodies: () => string, connections: number): Promise<LoadResult> {
  const res = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: SECONDS,
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, body: bodies() }) }],
  });
  return {
    requests: res.requests.total,
    errors: res.errors + res.non2xx,
    rps: Math.round(res.requests.average),
    p50: res.latency.p50,
    p99: res.latency.p99,
  };
}

async function redisCommands(redis: Redis): Promise<number> {
  const info = await redis.info('stats');
  return Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
}

// The gateway runs compiled, as `npm start` runs it (BENCH_FROM=src: from the TypeScript sources).
buildGateway();
if (PIN) pin(process.pid, `0-${CPUS - 2}`);
const sim = await startSimulator({ port: 0 });
// The peer (Hive Gateway over GraphQL Mesh's composition of the same spec): BENCH_PEER=0 leaves it out.
const withPeer = process.env.BENCH_PEER !== '0' && peerAvailable();
const peerWork = withPeer ? preparePeer(sim.dataApiUrl) : undefined;
const redis = new Redis(REDIS_URL);
await redis.flushdb();
const rows: Row[] = [];
const simEnv = gatewayEnv(sim);

async function scenario(
  name: string,
  kind: string,
  env: Record<string, string>,
  bodies: () => string,
  warm?: string | readonly string[],
  amount?: number,
  connections?: number,
) {
  const { url, child } = await startServer(kind, env);
  const agent = new Agent({ keepAlive: true, maxSockets: connections ?? CONNECTIONS });
  const post = (b: string) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: b }).then(
      (r) => r.arrayBuffer(),
    );
  try {
    // One body: sent three times. Several (the cold rows): each once, by the same clients (sockets)
    // as the measured run, so the server's connections, upstream ones included, are open before it.
    if (typeof warm === 'string') for (let i = 0; i < 3; i++) await post(warm);
    else if (warm) {
      let w = 0;
      await fixedLoad(url, () => warm[w++]!, warm.length, connections ?? CONNECTIONS, agent);
    }
    await new Promise((r) => setTimeout(r, 200));
    sim.reset();
    const before = await redisCommands(redis);
    const rss = watchRss(child.pid, 200);
    const res = await (amount
      ? fixedLoad(url, bodies, amount, connections ?? CONNECTIONS, agent)
      : load(url, bodies, connections ?? CONNECTIONS)
    ).finally(() => rss.stop());
    const rssPeakMb = rss.stop();
    const after = await redisCommands(redis);
    const ok = res.requests;
    if (res.errors > 0) console.warn(`${name}: ${res.errors} failed or non-2xx answers`);
    rows.push({
      scenario: name,
      rps: res.rps,
      p50: res.p50,
      p99: res.p99,
      requests: ok,
      errors: res.errors,
      upstreamPerQuery: ok ? +(sim.stats().total / ok).toFixed(3) : 0,
      redisCommandsPerQuery: env.REDIS_URL ? +((after - before - 1) / ok).toFixed(3) : null,
      rssIdleMb: rss.before,
      rssPeakMb,
    });
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
  }
}

const head = await headOf(sim, '43114');
let next = 0;
// The simulated chain holds a few hundred blocks below its head (like the real one, far from genesis).
const coldBody = () => blockBody(String(head - 10 - (next++ % 400))); // a different existing block each time
const warmBody = blockBody(String(head - 5));
// Before a cold row, each server (ours and the peer) answers 200 other misses, on the Fuji C-Chain's
// blocks: the same code paths, optimized by V8 before the measured 400 (a run of 400 that starts on
// unoptimized code measures mostly the start), and the measured blocks are still misses.
const fujiHead = await headOf(sim, '43113');
const FUJI_WARM_IDS = Array.from({ length: 200 }, (_, i) => String(fujiHead - 10 - i));
const coldWarm = FUJI_WARM_IDS.map((id) => blockBody(id, '43113'));
// The steady-state cold rows: 2000 misses, then 4000 measured, so the servers' code is optimized and
// the row measures the steady state, not the start (the short rows above spend most of their CPU on
// it: about 2.1 ms a query against 0.7 in the steady state). Ours has a 1 MiB in-process cache, so
// cycling over the 400 blocks misses every time (as the peer, which has no data cache, does).
const STEADY_WARMUP = 2000;
const STEADY_QUERIES = Number(process.env.BENCH_STEADY_QUERIES ?? 4000);
const cycle = (bodies: readonly string[], n: number) =>
  Array.from({ length: n }, (_, i) => bodies[i % bodies.length]!);
// The simulator builds a block's contents on first read: read the 400 blocks of the cold runs once
// here, so no server under test pays for that and the one measured first is not at a disadvantage.
for (let i = 0; i < 400; i += 20)
  await Promise.all(
    Array.from({ length: 20 }, (_, j) => {
      const id = String(head - 10 - i - j);
      return Promise.all([
        fetch(`${sim.dataApiUrl}/v1/chains/43114/blocks/${id}`).then((r) => r.arrayBuffer()),
        fetch(`${sim.dataApiUrl}/v1/chains/43114/blocks/${id}/transactions?pageSize=100`).then(
          (r) => r.arrayBuffer(),
        ),
      ]);
    }),
  );

await scenario('bare Yoga `{ __typename }` (ceiling)', 'bare', { NODE_ENV: simEnv.NODE_ENV! }, () =>
  JSON.stringify({ query: '{ __typename }' }),
);
await scenario(
  'gateway cold (400 distinct blocks, each a miss)',
  'gateway',
  { ...simEnv, RESPONSE_CACHE_MAX_TTL_MS: '0' },
  coldBody,
  coldWarm,
  400,
);
await scenario(
  'gateway cold, steady state (4000 misses after 2000)',
  'gateway',
  { ...simEnv, RESPONSE_CACHE_MAX_TTL_MS: '0', MEMORY_CACHE_MAX_BYTES: String(1024 * 1024) },
  coldBody,
  cycle(coldWarm, STEADY_WARMUP),
  STEADY_QUERIES,
);
await scenario('gateway warm, in-process LRU', 'gateway', { ...simEnv }, () => warmBody, warmBody);
await scenario(
  'gateway warm, Redis only (no LRU tier)',
  'gateway-redis-only',
  { ...simEnv, REDIS_URL },
  () => warmBody,
  warmBody,
);
await scenario(
  'gateway warm, data cache only (response cache off, LRU)',
  'gateway',
  { ...simEnv, RESPONSE_CACHE_MAX_TTL_MS: '0' },
  () => warmBody,
  warmBody,
);

// A nested list: 20 latest blocks with their first 5 transactions (1 + 20 upstream calls cold).
const NESTED = `{ chain(id: "43114") { blocks(first: 20) { edges { node { number hash
  transactions(first: 5) { edges { node { hash value } } } } } } } }`;
const nestedBody = JSON.stringify({ query: NESTED });
await scenario(
  'nested list, data cache only (response cache off)',
  'gateway',
  { ...simEnv, RESPONSE_CACHE_MAX_TTL_MS: '0' },
  () => nestedBody,
  nestedBody,
);
// Ten EVM fields of the node's C-Chain: one JSON-RPC batch when cold.
const NODE_BATCH = `query($a: String!) { networkNode { cChain { chainId blockNumber baseFee maxPriorityFeePerGas gasPrice
  chainConfig { chainId } isSyncing netVersion clientVersion balance(address: $a) } } }`;
const nodeBody = JSON.stringify({
  query: NODE_BATCH,
  variables: { a: '0x0000000000000000000000000000000000000001' },
});
await scenario(
  'node batch (ten EVM fields), response cache off',
  'gateway',
  { ...simEnv, RESPONSE_CACHE_MAX_TTL_MS: '0' },
  () => nodeBody,
  nodeBody,
);
next = 0;
await scenario(
  'cold burst, 50 concurrent (400 distinct blocks)',
  'gateway',
  { ...simEnv, RESPONSE_CACHE_MAX_TTL_MS: '0' },
  coldBody,
  coldWarm,
  400,
  50,
);

if (withPeer) {
  // The same question asked of the peer, in its schema: the block and its first 5 transactions.
  const peerBody = (id: string) =>
    JSON.stringify({ query: PEER_QUERY, variables: { c: '43114', id } });
  next = 0;
  const peerWarm = peerBody(String(head - 5));
  await scenario(
    'Hive Gateway cold (400 distinct blocks, each a miss)',
    'peer',
    {},
    () => peerBody(String(head - 10 - (next++ % 400))),
    FUJI_WARM_IDS.map((id) => JSON.stringify({ query: PEER_QUERY, variables: { c: '43113', id } })),
    400,
  );
  next = 0;
  await scenario(
    'Hive Gateway cold, steady state (4000 misses after 2000)',
    'peer',
    {},
    () => peerBody(String(head - 10 - (next++ % 400))),
    cycle(
      FUJI_WARM_IDS.map((id) =>
        JSON.stringify({ query: PEER_QUERY, variables: { c: '43113', id } }),
      ),
      STEADY_WARMUP,
    ),
    STEADY_QUERIES,
  );
  await scenario(
    'Hive Gateway warm, its response cache on',
    'peer-cached',
    {},
    () => peerWarm,
    peerWarm,
  );
}

await sim.close();
redis.disconnect();

const bare = rows[0]!.rps;
const table = [
  '| scenario | req/s | vs bare | p50 ms | p99 ms | errors | upstream calls / query | Redis commands / query | RSS idle / peak MB |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.scenario} | ${r.rps} | ${(r.rps / bare).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.upstreamPerQuery} | ${r.redisCommandsPerQuery ?? '–'} | ${r.rssIdleMb} / ${r.rssPeakMb} |`,
  ),
].join('\n');
console.log(
  `\n${SECONDS}s per scenario, ${CONNECTIONS} connections, node ${process.version}, ${PIN ? `each server on CPU ${CPUS - 1}, the bench on the others` : 'not pinned'}\n\n${table}\n`,
);
const row = (name: string) => rows.find((r) => r.scenario.startsWith(name));
const peerCold = row('Hive Gateway cold (');
const peerSteady = row('Hive Gateway cold, steady');
const peerWarm = row('Hive Gateway warm');
const oursCold = row('gateway cold (');
const oursSteady = row('gateway cold, steady');
const oursWarm = row('gateway warm, in-process LRU');
if (peerCold && peerWarm && oursCold && oursWarm && peerSteady && oursSteady) {
  const x = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '–');
  const peakOf = (...rs: Row[]) => Math.max(...rs.map((r) => r.rssPeakMb));
  console.log(
    [
      '| against Hive Gateway | ours | peer | ours / peer |',
      '|---|---|---|---|',
      `| cold, steady state (4000 misses after 2000): req/s | ${oursSteady.rps} | ${peerSteady.rps} | ${x(oursSteady.rps, peerSteady.rps)} |`,
      `| cold, steady state: p99 ms | ${oursSteady.p99} | ${peerSteady.p99} | ${x(oursSteady.p99, peerSteady.p99)} |`,
      `| cold, the first 400 misses after 200: req/s | ${oursCold.rps} | ${peerCold.rps} | ${x(oursCold.rps, peerCold.rps)} |`,
      `| cold, the first 400: p99 ms | ${oursCold.p99} | ${peerCold.p99} | ${x(oursCold.p99, peerCold.p99)} |`,
      `| response cache on both: req/s | ${oursWarm.rps} | ${peerWarm.rps} | ${x(oursWarm.rps, peerWarm.rps)} |`,
      `| peak RSS under the cold load, MB | ${oursCold.rssPeakMb} | ${peerCold.rssPeakMb} | ${x(oursCold.rssPeakMb, peerCold.rssPeakMb)} |`,
      `| peak RSS under the steady cold load, MB | ${oursSteady.rssPeakMb} | ${peerSteady.rssPeakMb} | ${x(oursSteady.rssPeakMb, peerSteady.rssPeakMb)} |`,
      `| peak RSS over the three loads both ran (the highest), MB | ${peakOf(oursCold, oursSteady, oursWarm)} | ${peakOf(peerCold, peerSteady, peerWarm)} | ${x(peakOf(oursCold, oursSteady, oursWarm), peakOf(peerCold, peerSteady, peerWarm))} |`,
      `| upstream calls per cold query | ${oursCold.upstreamPerQuery} | ${peerCold.upstreamPerQuery} | |`,
    ].join('\n'),
  );
}
// Two targets measured by their own scripts: the cold overhead (a simulator at 50 ms per call, one
// query at a time) and the idle RSS of `npm start` (no load at all). BENCH_EXTRAS=0 leaves them out.
const extras: Record<string, string> = {};
if (process.env.BENCH_EXTRAS !== '0') {
  // They pin nothing themselves: every core again for them and what they start.
  if (PIN) pin(process.pid, `0-${CPUS - 1}`);
  const scripts: [string, string, Record<string, string>][] = [
    ['cold overhead', 'bench/cold-overhead.ts', {}],
    ['idle RSS of npm start', 'bench/idle-rss.ts', { IDLE_SECONDS: '30' }],
  ];
  for (const [name, script, env] of scripts) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, ...env, BENCH_BUILT: '1' },
      encoding: 'utf8',
    }).trim();
    extras[name] = out;
    console.log(`\n${name} (${script}):\n${out}`);
  }
}
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/latest.json',
  JSON.stringify(
    { date: new Date().toISOString(), seconds: SECONDS, connections: CONNECTIONS, rows, extras },
    null,
    2,
  ),
);
