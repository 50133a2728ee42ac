import { startSimulator } from '@avalanche-gateway/simulator';
import { gatewayEnv, rssMb, startBenchServer, stopServer } from '../bench/serve-command.js';
import { wsRaw } from '../test/support/transports.js';

/**
 * `npm run soak:documents` (never part of `npm test`): SOAK_DOCUMENTS distinct maximal documents, each
 * within the body and token limits, half over HTTP and half over graphql-ws, against one gateway process
 * run from the sources with the heap docker-compose gives it (`--max-old-space-size`, SOAK_HEAP_MB).
 * Two shapes: one ~900 KB string argument, and 100 aliases of 4 KB strings. Every answer must be a coded
 * error (none INTERNAL), the process must live, and its RSS must stay under SOAK_RSS_BOUND_MB. Prints
 * the RSS before, at its peak, and after SOAK_IDLE_MS idle. Exits 1 on a failure.
 */
const num = (name: string, dflt: number) => Number(process.env[name] ?? dflt);
const DOCUMENTS = num('SOAK_DOCUMENTS', 10_000);
const CONCURRENCY = num('SOAK_CONCURRENCY', 4);
const HEAP_MB = num('SOAK_HEAP_MB', 384);
const RSS_BOUND_MB = num('SOAK_RSS_BOUND_MB', 640);
const IDLE_MS = num('SOAK_IDLE_MS', 10_000);

process.env.BENCH_FROM = 'src';
process.env.BENCH_HEAP_MB = String(HEAP_MB);
const sim = await startSimulator({ port: 0 });
const { child, url } = await startBenchServer('gateway', gatewayEnv(sim, { LOG_LEVEL: 'error' }));
let exited = false;
child.once('exit', () => {
  exited = true;
});

const big = (i: number) => `{ chain(id: "${i}-${'a'.repeat(900_000)}") { name } }`;
const aliases = (i: number) =>
  `{ ${Array.from({ length: 100 }, (_, k) => `a${k}: chain(id: "${i}.${k}-${'b'.repeat(4_000)}") { name }`).join(' ')} }`;
const documentOf = (i: number) => (i % 2 === 0 ? big(i) : aliases(i));

const before = rssMb(child.pid);
let peak = before;
const sampler = setInterval(() => {
  peak = Math.max(peak, rssMb(child.pid));
}, 250);
const codes = new Map<string, number>();
const problems: string[] = [];
let next = 0;
const started = performance.now();
const worker = async () => {
  while (next < DOCUMENTS && !exited) {
    const i = next++;
    const query = documentOf(i);
    let errors: { message: string; extensions?: Record<string, unknown> }[];
    if (i % 4 < 2) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query }),
      }).catch((e: Error) => ({ status: 0, text: async () => e.message }));
      const text = await res.text();
      try {
        errors = (JSON.parse(text) as { errors?: typeof errors }).errors ?? [];
      } catch {
        errors = [{ message: `HTTP ${res.status}: ${text.slice(0, 200)}` }];
      }
    } else errors = (await wsRaw(url, { query }, 30_000)).errors;
    const code = String(
      errors[0]?.extensions?.code ?? `uncoded: ${errors[0]?.message ?? 'no error'}`,
    );
    codes.set(code, (codes.get(code) ?? 0) + 1);
    if (!errors[0]?.extensions?.code || code === 'INTERNAL') problems.push(`#${i}: ${code}`);
    if ((i + 1) % 500 === 0)
      console.log(
        `  ${i + 1} documents, ${Math.round(performance.now() - started)} ms, RSS ${rssMb(child.pid)} MB (peak ${peak})`,
      );
  }
};
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const elapsed = Math.round(performance.now() - started);
const atEnd = rssMb(child.pid);
await new Promise((r) => setTimeout(r, IDLE_MS));
clearInterval(sampler);
const idle = rssMb(child.pid);
const health = exited ? 0 : (await fetch(url.replace('/graphql', '/health'))).status;
console.log(
  `soak:documents ${next} documents (${CONCURRENCY} at a time, heap ${HEAP_MB} MB) in ${elapsed} ms; ` +
    `answers ${JSON.stringify(Object.fromEntries(codes))}; RSS before ${before} MB, peak ${peak} MB, ` +
    `at end ${atEnd} MB, after ${IDLE_MS} ms idle ${idle} MB; alive ${!exited}, /health ${health}`,
);
await stopServer(child);
await sim.close();
const failed = exited || health !== 200 || problems.length > 0 || peak > RSS_BOUND_MB;
if (problems.length) console.log(problems.slice(0, 10).join('\n'));
process.exit(failed ? 1 : 0);
