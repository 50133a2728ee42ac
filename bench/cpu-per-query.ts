import { readFileSync } from 'node:fs';
import http from 'node:http';
import { startSimulator } from '../src/sim/index.js';
import { buildGateway, gatewayEnv, headOf, startBenchServer } from './serve-command.js';

/**
 * `npx tsx bench/cpu-per-query.ts`: the gateway's CPU time per query (user + system, read from
 * /proc/<pid>/stat before and after), which on a shared machine is steadier than a request rate.
 * MODE=cold (default): response cache off and a 1 MiB in-process cache, so every query over 300
 * distinct blocks misses (two upstream calls each). MODE=warm: response cache off, one block repeated,
 * every upstream answer from the cache. WARMUP (2000) queries, then TOTAL (4000), from CLIENTS (16)
 * keep-alive clients. Linux only (/proc).
 */
const MODE = process.env.MODE ?? 'cold';
if (MODE !== 'cold' && MODE !== 'warm') throw new Error('MODE is cold or warm');
const cold = MODE === 'cold';
const WARMUP = Number(process.env.WARMUP ?? 2000);
const TOTAL = Number(process.env.TOTAL ?? 4000);
const CLIENTS = Number(process.env.CLIENTS ?? 16);

buildGateway();
const sim = await startSimulator({ port: 0 });
const head = await headOf(sim, '43114');
const { child, url } = await startBenchServer(
  'gateway',
  gatewayEnv(sim, {
    RESPONSE_CACHE_MAX_TTL_MS: '0',
    ...(cold ? { MEMORY_CACHE_MAX_BYTES: String(1024 * 1024) } : {}),
  }),
);
const QUERY = `query Bench($id: String!) { block(chainId: "43114", id: $id) { number hash timestamp txCount gasUsed baseFee
  transactions(first: 5) { edges { node { hash from { address } to { address } value gasUsed status } } } } }`;
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
const target = new URL(url);
const ask = (id: string) =>
  new Promise<void>((resolve, reject) => {
    const body = JSON.stringify({ query: QUERY, variables: { id } });
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => (text.includes('"errors"') ? reject(new Error(text)) : resolve()));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
const ids = cold
  ? Array.from({ length: 300 }, (_, i) => String(head - 10 - i))
  : [String(head - 5)];
const run = async (total: number) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < total) await ask(ids[next++ % ids.length]!);
    }),
  );
};
/** The server's CPU time so far, ms (utime + stime, in clock ticks of 10 ms). */
const cpuMs = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
await run(WARMUP);
sim.reset();
const before = cpuMs();
const started = performance.now();
await run(TOTAL);
const ms = cpuMs() - before;
const seconds = (performance.now() - started) / 1000;
console.log(
  `${MODE}: ${(ms / TOTAL).toFixed(3)} ms of gateway CPU per query, ${(TOTAL / seconds).toFixed(0)} req/s, ${(sim.stats().total / TOTAL).toFixed(2)} upstream calls per query (${TOTAL} queries, ${CLIENTS} clients)`,
);
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
await sim.close();
