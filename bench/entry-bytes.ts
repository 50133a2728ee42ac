import { startSimulator } from '@avalanche-gateway/simulator';
import { decodeEntry, type StoredEntry } from '../src/cache/entry.js';
import { withExpiry } from '../src/cache/expiry.js';
import { type CacheEntry, MemoryStore } from '../src/cache/store.js';
import { loadConfig } from '../src/config.js';
import { createGateway } from '../src/gateway.js';
import { loadDocuments } from './workload/documents.js';
import { CHAIN, journeyDrawer, runJourney } from './workload/journeys.js';
import { createPopulation, listValidatorIds } from './workload/population.js';
import { seeded } from './workload/zipf.js';

/**
 * `npx tsx bench/entry-bytes.ts`: the bytes each stored entry costs with named fields against the
 * one-letter format it replaced (docs/decisions/stored-entries.md). A gateway in-process over the
 * simulator runs JOURNEYS (60) journeys of the workload (bench/workload), response cache on; every entry
 * it writes is captured, and re-encoded in the former format (`{e,r,s,h,v,x}` for read-through entries,
 * `{data,t,ttl,swr,h}` for whole responses, the bare page for snapshots). Sizes are UTF-8 bytes of the
 * value as Redis keeps it (with its `<epoch ms>|` prefix), and with its key. Then the time to encode and
 * decode all captured entries (JSON.stringify, JSON.parse), both formats in turn, ROUNDS (20) rounds.
 */
const JOURNEYS = Number(process.env.JOURNEYS ?? 60);
const ROUNDS = Number(process.env.ROUNDS ?? 20);

type Kind =
  | 'read-through'
  | 'read-through error'
  | 'response'
  | 'page snapshot'
  | 'persisted query';
const kindOf = (key: string, entry: StoredEntry | undefined): Kind =>
  !entry
    ? 'persisted query'
    : key.includes(':response:')
      ? 'response'
      : key.includes(':page:')
        ? 'page snapshot'
        : entry.error
          ? 'read-through error'
          : 'read-through';

/** The same entry in the one-letter format (the field order its writers used). */
function legacy(kind: Kind, raw: string, entry: StoredEntry | undefined): string {
  if (!entry) return raw;
  if (kind === 'page snapshot') return JSON.stringify(entry.value);
  if (kind === 'response')
    return JSON.stringify({
      data: entry.value,
      t: entry.storedAt,
      ttl: entry.freshUntil - entry.storedAt!,
      swr: entry.revalidateUntil === undefined ? 0 : entry.revalidateUntil - entry.freshUntil,
      ...(entry.version ? { h: entry.version } : {}),
    });
  return JSON.stringify({
    e: entry.freshUntil,
    ...(entry.revalidateUntil !== undefined ? { r: entry.revalidateUntil } : {}),
    ...(entry.staleIfErrorUntil !== undefined ? { s: entry.staleIfErrorUntil } : {}),
    ...(entry.version !== undefined ? { h: entry.version } : {}),
    ...(entry.error ? { x: entry.error } : { v: entry.value }),
  });
}

const captured = new Map<string, CacheEntry>();
class CapturingStore extends MemoryStore {
  override async setMany(entries: readonly CacheEntry[]): Promise<void> {
    for (const e of entries) captured.set(e.key, e);
    return super.setMany(entries);
  }
}

const sim = await startSimulator({ port: 0 });
const config = loadConfig({
  DATA_API_URL: sim.dataApiUrl,
  METRICS_API_URL: sim.metricsApiUrl,
  NODE_RPC_URL: sim.nodeUrl,
  LOG_LEVEL: 'silent',
  CLIENT_CU_PER_MINUTE: '0',
  UPSTREAM_CU_PER_MINUTE: '0',
});
const gateway = createGateway(config, { store: new CapturingStore() });
const docs = loadDocuments();
const ask = async (operation: string, variables: Record<string, unknown>) => {
  const res = await gateway.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: docs[operation], variables }),
  });
  return ((await res.json()) as { data?: unknown }).data;
};
const head = await (async () => {
  const r = await fetch(`${sim.dataApiUrl}/v1/chains/${CHAIN}/blocks?pageSize=1`);
  return Number(((await r.json()) as { blocks: { blockNumber: string }[] }).blocks[0]!.blockNumber);
})();
const pop = createPopulation('avalanche', await listValidatorIds(sim.dataApiUrl), 300);
const draw = journeyDrawer(pop);
const rand = seeded(34);
for (let i = 0; i < JOURNEYS; i++) await runJourney(draw(rand), ask, { head: () => head, pop });
// Unknown transactions: the upstream's 404s, remembered briefly (negative entries).
for (let i = 0; i < 5; i++)
  await ask('ExplorerTransaction', { chainId: CHAIN, hash: `0x${String(i).repeat(64)}` });
await gateway.settled();

type Row = { count: number; old: number; now: number; oldKeyed: number; nowKeyed: number };
const rows = new Map<Kind, Row>();
const bytes = (s: string) => Buffer.byteLength(s);
const pairs: { kind: Kind; raw: string; old: string }[] = [];
for (const { key, value } of captured.values()) {
  const entry = decodeEntry(value);
  const kind = kindOf(key, entry);
  const old = legacy(kind, value, entry);
  pairs.push({ kind, raw: value, old });
  // What Redis keeps: the value behind its expiry prefix, under its key (same length in both versions).
  const stored = (v: string) => bytes(withExpiry(v, Date.now()));
  const row = rows.get(kind) ?? { count: 0, old: 0, now: 0, oldKeyed: 0, nowKeyed: 0 };
  row.count += 1;
  row.old += stored(old);
  row.now += stored(value);
  row.oldKeyed += stored(old) + bytes(key);
  row.nowKeyed += stored(value) + bytes(key);
  rows.set(kind, row);
}
const pct = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;
const total: Row = { count: 0, old: 0, now: 0, oldKeyed: 0, nowKeyed: 0 };
console.log('kind | entries | bytes before | bytes after | per entry | change | change with keys');
for (const [kind, r] of [...rows].sort((a, b) => b[1].count - a[1].count)) {
  for (const f of Object.keys(total) as (keyof Row)[]) total[f] += r[f];
  const per = ((r.now - r.old) / r.count).toFixed(1);
  console.log(
    `${kind} | ${r.count} | ${r.old} | ${r.now} | +${per} B | ${pct(r.old, r.now)} | ${pct(r.oldKeyed, r.nowKeyed)}`,
  );
}
console.log(
  `all | ${total.count} | ${total.old} | ${total.now} | +${((total.now - total.old) / total.count).toFixed(1)} B | ${pct(total.old, total.now)} | ${pct(total.oldKeyed, total.nowKeyed)}`,
);

// Single entries: the smallest, the median and the largest of each kind.
for (const kind of rows.keys()) {
  const sized = pairs
    .filter((p) => p.kind === kind)
    .map((p) => ({ old: bytes(p.old), now: bytes(p.raw) }))
    .sort((a, b) => a.old - b.old);
  const picks = [sized[0]!, sized[Math.floor(sized.length / 2)]!, sized.at(-1)!];
  const shown = picks.map((x) => `${x.old} → ${x.now} B (${pct(x.old, x.now)})`);
  console.log(`${kind}: smallest ${shown[0]}, median ${shown[1]}, largest ${shown[2]}`);
}

/** µs per entry of one pass over `texts`: JSON.parse each, or JSON.stringify each parsed one. */
const pass = (texts: string[], parsed: unknown[], parse: boolean) => {
  const t0 = performance.now();
  if (parse) for (const t of texts) JSON.parse(t);
  else for (const p of parsed) JSON.stringify(p);
  return ((performance.now() - t0) / texts.length) * 1000;
};
const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const entries = pairs.filter((p) => p.kind !== 'persisted query');
const sides = [entries.map((p) => p.old), entries.map((p) => p.raw)].map((texts) => ({
  texts,
  parsed: texts.map((t) => JSON.parse(t) as unknown),
}));
for (const parse of [false, true]) {
  // The two formats in turn, round after round: a machine's speed drifts less within a round.
  const runs: [number[], number[]] = [[], []];
  for (let r = 0; r < ROUNDS; r++)
    for (const [i, side] of sides.entries()) runs[i]!.push(pass(side.texts, side.parsed, parse));
  const [before, after] = runs.map(median) as [number, number];
  console.log(
    `${parse ? 'decode' : 'encode'}: ${before.toFixed(2)} µs before, ${after.toFixed(2)} µs after, per entry, median of ${ROUNDS} rounds (${pct(before, after)})`,
  );
}
await gateway.close();
await sim.close();
