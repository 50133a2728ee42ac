import http from 'node:http';
import { startSimulator } from '@avalanche-gateway/simulator';
import { blockBody, fixedLoad } from './load.js';
import {
  buildGateway,
  cpuTimeMs,
  gatewayEnv,
  headOf,
  pinToCpus,
  startBenchServer,
} from './serve-command.js';

/**
 * `npx tsx bench/warm-ratio.ts`: the warm row of `npm run bench` against its ceiling, interleaved. On a
 * shared machine the speed of the whole machine drifts within a minute, so rows measured one after the
 * other (as `npm run bench` does) give ratios that move by half from run to run. Here the three servers
 * run at once: bare Yoga answering `{ __typename }`, the gateway warm with the response cache off (the
 * block-with-five-transactions question, every upstream answer from its cache), and the same gateway with
 * DIRECT_EXECUTION=false (every request through Yoga's pipeline). ROUNDS (10) times, each server in turn
 * answers BATCH (2000) queries from CLIENTS (16) keep-alive clients; its CPU time (user + system, from
 * /proc) is summed per server. A server's rate bound by its CPU is 1 / (CPU per query), so the ratio of
 * the gateway to the ceiling is the ceiling's CPU per query over the gateway's, per round and overall.
 * COMPARE_FLAGS: the third server is instead the gateway (direct) with these Node/V8 flags, for an
 * A/B of a flag (`--max-old-space-size=4144`: Node's default heap limit on a 16 GB machine).
 * PIN=<cpu>: the three servers on that CPU (`taskset`); run the script on another
 * (`taskset -c 0 npx tsx bench/warm-ratio.ts` with PIN=1). Linux only.
 */
const ROUNDS = Number(process.env.ROUNDS ?? 10);
const BATCH = Number(process.env.BATCH ?? 2000);
const CLIENTS = Number(process.env.CLIENTS ?? 16);
const COMPARE_FLAGS = process.env.COMPARE_FLAGS?.trim();

buildGateway();
const sim = await startSimulator({ port: 0 });
const head = await headOf(sim, '43114');
const warm = blockBody(String(head - 5));
const typename = JSON.stringify({ query: '{ __typename }' });
const env = (direct: boolean) =>
  gatewayEnv(sim, { RESPONSE_CACHE_MAX_TTL_MS: '0', DIRECT_EXECUTION: String(direct) });
const servers = [
  {
    name: 'bare Yoga { __typename }',
    ...(await startBenchServer('bare', { NODE_ENV: 'production' })),
    body: typename,
  },
  {
    name: 'gateway warm, response cache off',
    ...(await startBenchServer('gateway', env(true))),
    body: warm,
  },
  COMPARE_FLAGS
    ? {
        name: `the same with ${COMPARE_FLAGS}`,
        ...(await startBenchServer('gateway', env(true), COMPARE_FLAGS.split(' '))),
        body: warm,
      }
    : {
        name: 'the same through Yoga (DIRECT_EXECUTION=false)',
        ...(await startBenchServer('gateway', env(false))),
        body: warm,
      },
];
if (process.env.PIN) for (const s of servers) pinToCpus(s.child.pid!, process.env.PIN);
const agents = servers.map(() => new http.Agent({ keepAlive: true, maxSockets: CLIENTS }));
const run = async (i: number, n: number) => {
  const s = servers[i]!;
  const r = await fixedLoad(s.url, () => s.body, n, CLIENTS, agents[i]);
  if (r.errors > 0) throw new Error(`${s.name}: ${r.errors} failed answers`);
};
// Warm-up: every server's code optimized, the gateway's cache filled.
for (let i = 0; i < servers.length; i++) await run(i, 5000);
const total = servers.map(() => 0);
const perRound: number[][] = servers.map(() => []);
for (let round = 0; round < ROUNDS; round++)
  for (let i = 0; i < servers.length; i++) {
    const before = cpuTimeMs(servers[i]!.child.pid!);
    await run(i, BATCH);
    const ms = cpuTimeMs(servers[i]!.child.pid!) - before;
    total[i]! += ms;
    perRound[i]!.push(ms / BATCH);
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${ROUNDS} rounds of ${BATCH} queries per server, ${CLIENTS} clients, interleaved`);
for (let i = 0; i < servers.length; i++) {
  const ratios = perRound[i]!.map((ms, r) => perRound[0]![r]! / ms);
  console.log(
    `${servers[i]!.name}: ${(total[i]! / (ROUNDS * BATCH)).toFixed(3)} ms CPU per query; vs the ceiling ${(total[0]! / total[i]!).toFixed(2)} (per round: median ${median(ratios).toFixed(2)}, ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  );
}
for (const s of servers) s.child.kill('SIGTERM');
for (const a of agents) a.destroy();
await sim.close();
