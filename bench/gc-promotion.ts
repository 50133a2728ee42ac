import { startSimulator } from '@avalanche-gateway/simulator';
import { blockRunner } from './load.js';
import {
  buildGateway,
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
 * `npx tsx bench/gc-promotion.ts`: what each query leaves for the garbage collector. The gateway (compiled,
 * with the heap limit `npm start` gives it) runs with V8's `--trace-gc-nvp`; after WARMUP (1000) queries,
 * TOTAL (6000) more from CLIENTS (16) keep-alive clients, and for those the script reports the bytes
 * allocated and promoted per query (promoted: what survived two young-generation collections and moved
 * to the old generation, where only a full collection frees it), the number of scavenges and full
 * collections, and the server's RSS before and at its peak.
 * MODE=warm (default): response cache off, one block repeated, every upstream answer from the cache.
 * MODE=cold: a 1 MiB in-process cache over 300 blocks, so every query misses (two upstream calls).
 * NODE_FLAGS: more flags for the gateway (`--max-old-space-size=4144` is Node's default on a 16 GB machine).
 * PIN=<cpu>: the server on that CPU (run this script on another: `taskset -c 0 npx tsx …` with PIN=1).
 */
const knobs = perQueryKnobs({ mode: 'warm', warmup: 1000, total: 6000 });

buildGateway();
const sim = await startSimulator({ port: 0 });
const head = await headOf(sim, '43114');
const { child, url } = await startBenchServer('gateway', perQueryEnv(sim, knobs.cold), [
  '--trace-gc-nvp',
  ...nodeFlags(),
]);
if (process.env.PIN) pinToCpus(child.pid!, process.env.PIN);

// One line per collection: `pause=… gc=s|mc|… allocated=<bytes> promoted=<bytes> …`.
let measuring = false;
const gc = { scavenges: 0, full: 0, allocated: 0, promoted: 0 };
let partial = '';
child.stdout!.on('data', (d: Buffer) => {
  const lines = (partial + d.toString()).split('\n');
  partial = lines.pop() ?? '';
  if (!measuring) return;
  for (const line of lines) {
    const kind = / gc=(\w+)/.exec(line)?.[1];
    if (!kind || !line.includes('pause=')) continue;
    if (kind === 's') gc.scavenges++;
    else gc.full++;
    gc.allocated += Number(/ allocated=(\d+)/.exec(line)?.[1] ?? 0);
    gc.promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
  }
});

const run = blockRunner(url, { head, cold: knobs.cold, clients: knobs.clients });
await run(knobs.warmup);
const rss = watchRss(child.pid, 100);
measuring = true;
const { rps } = await run(knobs.total);
measuring = false;
const rssPeak = rss.stop();
const kb = (bytes: number) => (bytes / knobs.total / 1024).toFixed(1);
console.log(
  `${knobs.mode}: ${kb(gc.allocated)} KB allocated and ${kb(gc.promoted)} KB promoted per query; ${gc.scavenges} scavenges, ${gc.full} full collections; RSS ${rss.before} MB before, peak ${rssPeak} MB; ${rps} req/s (${knobs.total} queries, ${knobs.clients} clients${process.env.NODE_FLAGS ? `, ${process.env.NODE_FLAGS}` : ''})`,
);
await stopServer(child);
await sim.close();
