import { startSimulator } from '@avalanche-gateway/simulator';
import { blockBody, blockRunner } from './load.js';
import { PEER_QUERY, peerAvailable, preparePeer, startPeer } from './peer.js';
import {
  buildGateway,
  cpuTimeMs,
  headOf,
  nodeFlags,
  perQueryEnv,
  perQueryKnobs,
  pinToCpus,
  startBenchServer,
  stopServer,
  watchRss,
} from './serve-command.js';

/**
 * `npx tsx bench/cpu-per-query.ts`: the gateway's CPU time per query (user + system, read from
 * /proc/<pid>/stat before and after), which on a shared machine is steadier than a request rate.
 * MODE=cold (default): response cache off and a 1 MiB in-process cache, so every query over 300
 * distinct blocks misses (two upstream calls each). MODE=warm: response cache off, one block repeated,
 * every upstream answer from the cache. WARMUP (2000) queries, then TOTAL (4000), from CLIENTS (16)
 * keep-alive clients. Linux only (/proc).
 * SERVER=peer (cold only): the same measurement of the bench's peer (Hive Gateway, see peer.ts, its
 * response cache off), asked the same question in its schema; it has no data cache, so every query
 * is a miss there too. CPU_PROF=<dir>: the gateway writes a CPU profile (node --cpu-prof) there.
 * SERVER=bare: the ceiling of `npm run bench` (bare Yoga answering `{ __typename }`), measured the same
 * way. QUERY=typename (warm only): the gateway asked `{ __typename }` too, so that the warm gap to the
 * ceiling splits into what the gateway's pipeline costs (plugins, context) and what executing costs.
 * PIN=<cpu>: the server is moved to that CPU (`taskset`); run this script on another one
 * (`taskset -c 0 npx tsx …` with PIN=1) so the load generator does not share the server's core.
 * NODE_FLAGS: V8/Node flags for the gateway's process (`--max-semi-space-size=4`, …). The server's RSS
 * before the load and its peak (sampled every 100 ms over warm-up and measurement) are reported too.
 */
const knobs = perQueryKnobs({ mode: 'cold', warmup: 2000, total: 4000 });
const peer = process.env.SERVER === 'peer';
if (peer && (!knobs.cold || !peerAvailable()))
  throw new Error('SERVER=peer: cold only, with ../shared');
const typename = process.env.SERVER === 'bare' || process.env.QUERY === 'typename';
if (typename && knobs.cold) throw new Error('SERVER=bare and QUERY=typename: MODE=warm only');

buildGateway();
const sim = await startSimulator({ port: 0 });
const head = await headOf(sim, '43114');
const { child, url } = peer
  ? await startPeer(preparePeer(sim.dataApiUrl), false)
  : process.env.SERVER === 'bare'
    ? await startBenchServer('bare', { NODE_ENV: 'production' })
    : await startBenchServer('gateway', perQueryEnv(sim, knobs.cold), [
        ...(process.env.CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.CPU_PROF] : []),
        ...nodeFlags(),
      ]);
const TYPENAME = JSON.stringify({ query: '{ __typename }' });
if (process.env.PIN) pinToCpus(child.pid!, process.env.PIN);
const bodyOf = (id: string) =>
  typename
    ? TYPENAME
    : peer
      ? JSON.stringify({ query: PEER_QUERY, variables: { c: '43114', id } })
      : blockBody(id);
const run = blockRunner(url, { head, cold: knobs.cold, clients: knobs.clients, bodyOf });
const cpuMs = () => cpuTimeMs(child.pid!);
const rss = watchRss(child.pid, 100);
await run(knobs.warmup);
sim.reset();
const before = cpuMs();
const { rps, p99 } = await run(knobs.total);
const ms = cpuMs() - before;
const rssPeak = rss.stop();
console.log(
  `${process.env.SERVER ? `${process.env.SERVER} ` : ''}${knobs.mode}${typename ? ' { __typename }' : ''}: ${(ms / knobs.total).toFixed(3)} ms of ${process.env.SERVER ? 'server' : 'gateway'} CPU per query, ${rps} req/s (p99 ${p99} ms), ${(sim.stats().total / knobs.total).toFixed(2)} upstream calls per query (${knobs.total} queries, ${knobs.clients} clients); RSS ${rss.before} MB before, peak ${rssPeak} MB`,
);
await stopServer(child);
await sim.close();
