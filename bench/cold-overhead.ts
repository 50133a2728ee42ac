import { startSimulator } from '@avalanche-gateway/simulator';
import { blockBody } from './load.js';
import {
  buildGateway,
  cpuTimeMs,
  gatewayEnv,
  headOf,
  type SimUrls,
  startBenchServer,
  stopServer,
} from './serve-command.js';
import { startSimProcess } from './workload/processes.js';

/**
 * `npx tsx bench/cold-overhead.ts`: the gateway's own time on a cache miss, in two set-ups: the simulator
 * inside this process (`in-process`), and the simulator as its own process (`process`), as a remote
 * upstream is: there the bench's client, the simulator and the server under test do not share an event
 * loop. SETUP picks one (default: both). The simulator answers every call after LATENCY_MS (default 50);
 * N (default 100) distinct blocks are asked one at a time, each a miss, as
 * `block(id) { …, transactions(first: 5) { … } }`. The upstream critical path of one such query is the two
 * calls it needs (the block, and the block's first transactions page) sent together, timed from this
 * process straight at the simulator for the same blocks. Reported: p50 and p90 of both, the relay's (a
 * plain Node server making the same two calls: the floor), the gateway's, and the differences.
 * Before the measurement each server answers WARMUP (default 2000) misses on 200 other blocks, 16 at a
 * time, so what is measured is a server whose code V8 has optimized, as a server that has been up for
 * a while is. The gateway's in-process cache is 1 MiB, so the warm-up's repeated blocks miss too.
 */
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 50);
const N = Number(process.env.N ?? 100);
const WARMUP = Number(process.env.WARMUP ?? 2000);
const SETUPS = (process.env.SETUP ?? 'in-process,process').split(',');
// CPU_PROF=<dir>: the gateway also writes a CPU profile there (node --cpu-prof).
const profile = process.env.CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.CPU_PROF] : [];
buildGateway();

interface Sim extends SimUrls {
  calls(): Promise<number>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

async function simulator(setup: string): Promise<Sim> {
  if (setup === 'process') {
    const p = await startSimProcess({ SIM_LATENCY_MS: String(LATENCY_MS) });
    return {
      ...p,
      calls: async () =>
        ((await (await fetch(`${p.url}/_sim/stats`)).json()) as { total: number }).total,
      reset: async () => void (await fetch(`${p.url}/_sim/reset`, { method: 'POST' })),
      close: p.stop,
    };
  }
  const s = await startSimulator({ port: 0, latencyMs: LATENCY_MS });
  return { ...s, calls: async () => s.stats().total, reset: async () => s.reset(), close: s.close };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const p50 = (xs: number[]) => quantile(xs, 0.5);
const f = (x: number) => x.toFixed(1);

const ask = async (url: string, id: string) => {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: blockBody(id),
  });
  const json = (await r.json()) as { errors?: unknown[] };
  if (json.errors) throw new Error(JSON.stringify(json.errors));
};

async function run(setup: string) {
  const sim = await simulator(setup);
  const head = await headOf(sim, '43114');
  const ids = Array.from({ length: N }, (_, i) => String(head - 10 - i));
  const upstreamPair = (id: string) =>
    Promise.all([
      fetch(`${sim.dataApiUrl}/v1/chains/43114/blocks/${id}`).then((r) => r.arrayBuffer()),
      fetch(`${sim.dataApiUrl}/v1/chains/43114/blocks/${id}/transactions?pageSize=100`).then((r) =>
        r.arrayBuffer(),
      ),
    ]);
  // The simulator builds a block's contents on first read: read every block once before timing anything.
  for (let i = 0; i < N; i += 25) await Promise.all(ids.slice(i, i + 25).map(upstreamPair));
  const critical: number[] = [];
  for (const id of ids) {
    const t = performance.now();
    await upstreamPair(id);
    critical.push(performance.now() - t);
  }
  /** One server's latencies over the measured blocks, after warming it on blocks outside the set. */
  const measure = async (kind: string, flags: string[] = []) => {
    const { child, url } = await startBenchServer(
      kind,
      gatewayEnv(sim, {
        RESPONSE_CACHE_MAX_TTL_MS: '0',
        MEMORY_CACHE_MAX_BYTES: String(1024 * 1024),
      }),
      flags,
    );
    let w = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (w < WARMUP) await ask(url, String(head - 10 - N - (w++ % 200)));
      }),
    );
    await sim.reset();
    // The server's CPU time over the measured queries: on a shared machine wall-clock differences of a
    // millisecond drown in scheduling noise, CPU per query does not.
    const cpu0 = cpuTimeMs(child.pid!);
    // ROUNDS > 1 (for a CPU profile): the same blocks again (the 1 MiB cache does not keep them).
    const times: number[] = [];
    for (let round = 0; round < Number(process.env.ROUNDS ?? 1); round++)
      for (const id of ids) {
        const t = performance.now();
        await ask(url, id);
        times.push(performance.now() - t);
      }
    const cpuPerQuery = (cpuTimeMs(child.pid!) - cpu0) / times.length;
    const calls = (await sim.calls()) / times.length;
    await stopServer(child);
    return { times, calls, cpuPerQuery };
  };
  // The relay is the floor: a Node process between the client and the upstream, doing nothing else.
  const relay = await measure('relay');
  const gateway = await measure('gateway', profile);
  await sim.close();
  console.log(
    `[${setup}] simulator latency ${LATENCY_MS} ms, ${N} distinct blocks, one at a time after ${WARMUP} other misses; upstream calls per query ${gateway.calls}`,
  );
  console.log(
    `[${setup}] critical path (block + transactions page, together): p50 ${f(p50(critical))} ms, p90 ${f(quantile(critical, 0.9))} ms`,
  );
  const f2 = (x: number) => x.toFixed(2);
  console.log(
    `[${setup}] relay (a plain Node server making the same two calls): p50 ${f(p50(relay.times))} ms, p90 ${f(quantile(relay.times, 0.9))} ms, CPU ${f2(relay.cpuPerQuery)} ms a query`,
  );
  console.log(
    `[${setup}] gateway: p50 ${f(p50(gateway.times))} ms, p90 ${f(quantile(gateway.times, 0.9))} ms, CPU ${f2(gateway.cpuPerQuery)} ms a query`,
  );
  console.log(
    `[${setup}] relay p50 minus critical path p50: ${f(p50(relay.times) - p50(critical))} ms; gateway p50 minus critical path p50: ${f(p50(gateway.times) - p50(critical))} ms; minus the relay's p50: ${f(p50(gateway.times) - p50(relay.times))} ms`,
  );
}

for (const setup of SETUPS) await run(setup);
