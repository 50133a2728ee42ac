import { startSimulator } from '@avalanche-gateway/simulator';
import {
  buildGateway,
  gatewayEnv,
  headOf,
  rssMb,
  startBenchServer,
  watchRss,
} from './serve-command.js';

/**
 * `npx tsx bench/soak.ts`: drives a few thousand varied queries (blocks with transaction pages of
 * several sizes, the latest blocks at several `first`, addresses' transaction lists, transactions) at
 * the gateway over the simulator, samples its RSS, and fails when the peak passes
 * idle + MEMORY_CACHE_MAX_BYTES + SOAK_MARGIN_MB. Not part of `npm test` (it takes minutes).
 * Env: SOAK_QUERIES (3000), SOAK_CONCURRENCY (10), MEMORY_CACHE_MAX_BYTES (32 MiB here, to make the
 * budget bite), SOAK_MARGIN_MB (120: V8's young generation, GC slack and per-request garbage).
 */
const QUERIES = Number(process.env.SOAK_QUERIES ?? 3000);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 10);
const BUDGET = Number(process.env.MEMORY_CACHE_MAX_BYTES ?? 32 * 1024 * 1024);
const MARGIN_MB = Number(process.env.SOAK_MARGIN_MB ?? 120);

buildGateway();
const sim = await startSimulator({ port: 0 });
const { child, url } = await startBenchServer(
  'gateway',
  gatewayEnv(sim, { MEMORY_CACHE_MAX_BYTES: String(BUDGET) }),
);
const post = async (query: string, variables: Record<string, unknown> = {}) => {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await r.json()) as { data?: any; errors?: unknown[] };
};

const C = '43114';
const head = await headOf(sim, C);
const addresses = new Set<string>();
const txs: string[] = [];
const BLOCK = `query($id: String!, $n: Int!) { block(chainId: "${C}", id: $id) { number hash gasUsed
  transactions(first: $n) { edges { node { hash value from { address } to { address } } } } } }`;
const LATEST = `query($n: Int!) { chain(id: "${C}") { blocks(first: $n) { edges { node { number txCount } } } } }`;
const ADDRESS = `query($a: String!, $n: Int!) { address(chainId: "${C}", address: $a) {
  transactions(first: $n) { edges { node { hash } } } } }`;
const TX = `query($h: String!) { transaction(chainId: "${C}", hash: $h) { hash value gasUsed block { number } } }`;

function nextQuery(i: number): Promise<unknown> {
  const kind = i % 4;
  if (kind === 1) return post(LATEST, { n: 1 + (i % 50) });
  if (kind === 2 && addresses.size > 0) {
    const list = [...addresses];
    return post(ADDRESS, { a: list[i % list.length], n: 1 + (i % 25) });
  }
  if (kind === 3 && txs.length > 0) return post(TX, { h: txs[i % txs.length] });
  return post(BLOCK, { id: String(head - 10 - (i % 400)), n: 1 + (i % 10) }).then((r) => {
    for (const e of r.data?.block?.transactions?.edges ?? []) {
      if (txs.length < 2000) txs.push(e.node.hash);
      if (addresses.size < 300) addresses.add(e.node.from.address);
    }
  });
}

for (let i = 0; i < 5; i++) await post(BLOCK, { id: String(head - 5), n: 5 });
await new Promise((r) => setTimeout(r, 1000));
const rss = watchRss(child.pid, 250);
const idle = rss.before;
let done = 0;
let errors = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (done < QUERIES) {
      const i = done++;
      const r = (await nextQuery(i).catch(() => ({ errors: [1] }))) as
        | { errors?: unknown[] }
        | undefined;
      if (r?.errors) errors += 1;
    }
  }),
);
const peak = rss.stop();
const end = rssMb(child.pid!);
child.kill('SIGTERM');
await sim.close();

const limit = idle + BUDGET / 1024 / 1024 + MARGIN_MB;
const f = (n: number) => n.toFixed(0);
console.log(`${QUERIES} queries, ${CONCURRENCY} at a time, ${errors} with errors`);
console.log(
  `RSS idle ${f(idle)} MB, peak ${f(peak)} MB, end ${f(end)} MB; limit idle + ${f(BUDGET / 1048576)} MB budget + ${MARGIN_MB} MB margin = ${f(limit)} MB`,
);
if (peak > limit) {
  console.error('FAIL: the peak RSS passed the limit');
  process.exit(1);
}
console.log('OK: within the limit');
