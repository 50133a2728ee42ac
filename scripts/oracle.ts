import { parseArgs } from 'node:util';
import {
  DERIVATION_PLANTS,
  formatDivergence,
  type OracleResult,
  PLANTS,
  type PlantName,
  runOracle,
  TOUCH_ENV_PLANTS,
  TOUCH_PLANTS,
} from '../test/oracle/harness.js';
import { knownIssue } from '../test/oracle/known.js';
import { startRedisServer } from '../test/support/redis.js';
import { allocateRedisDbFrom, redisDbPool } from '../test/support/redis-db.js';
import { flushRedisDb } from '../test/support/sim.js';

/**
 * `npm run test:oracle -- --seeds N [--rounds R] [--max-steps S] [--steps a,b] [--group G] [--parallel P] [--quiet] [--plant NAME] [--live] [--touch] [--no-vary]
 * [--show K]`: the differential cache oracle at size (see test/oracle/harness.ts and docs/testing.md), one
 * run per seed over its own world. `--touch`: live, with freshness by change and a simulator that disagrees with
 * blocks (contracts paying plain addresses no block names, a token rebasing without logs, a Data API indexing 3
 * blocks behind the node; its plants: `touch-ignored`, `lag-ignored`). `--plant contract-call-derived`: a contract call's page
 * derived from its list item. Starts a private redis-server (or uses REDIS_URL without the binary).
 * Exits 1 when any divergence is found, or when a run judged nothing.
 */
const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '12' },
    'max-steps': { type: 'string' },
    'no-vary': { type: 'boolean', default: false },
    show: { type: 'string', default: '10' },
    'first-seed': { type: 'string', default: '1' },
    steps: { type: 'string' },
    group: { type: 'string' },
    parallel: { type: 'string', default: '1' },
    quiet: { type: 'boolean', default: false },
    plant: { type: 'string' },
    live: { type: 'boolean', default: false },
    touch: { type: 'boolean', default: false },
  },
});
const seeds = Number(values.seeds);
const rounds = Number(values.rounds);
const first = Number(values['first-seed']);
const show = Number(values.show);
const t0 = performance.now();

const parallel = Math.max(1, Number(values.parallel));
const plants = [
  ...Object.keys(PLANTS),
  ...Object.keys(TOUCH_PLANTS),
  ...Object.keys(TOUCH_ENV_PLANTS),
  ...Object.keys(DERIVATION_PLANTS),
];
if (values.plant !== undefined && !plants.includes(values.plant))
  throw new Error(`--plant: one of ${plants.join(', ')}`);
const redis = await startRedisServer();
const pool = await redisDbPool(redis);
const results: OracleResult[] = [];
const runSeed = async (i: number, url: string) => {
  const seed = `oracle-${first + i}`;
  await flushRedisDb(url);
  const r = await runOracle({
    seed,
    rounds,
    redisUrl: url,
    vary: !values['no-vary'],
    maxSteps: values['max-steps'] === undefined ? undefined : Number(values['max-steps']),
    onlySteps: values.steps?.split(','),
    groupSize: values.group === undefined ? undefined : Number(values.group),
    plant: values.plant as PlantName | undefined,
    live: values.live,
    touch: values.touch,
    log: values.quiet
      ? undefined
      : parallel > 1
        ? (l) => console.log(`[${seed}] ${l}`)
        : (l) => console.log(l),
  });
  results.push(r);
  console.log(
    `seed ${seed}: ${r.queries} queries judged (${r.unjudged} unjudged) over ${r.versions} world versions, ${r.steps} steps, ${r.divergences.length} divergences${values.touch ? `, ${r.byChange} allowed only by change` : ''}, ${(r.ms / 1000).toFixed(1)} s`,
  );
  // Unknown divergences first: they are what a run is for.
  const ordered = [
    ...r.divergences.filter((d) => !knownIssue(d)),
    ...r.divergences.filter((d) => knownIssue(d)),
  ];
  for (const d of ordered.slice(0, show))
    console.log(`${formatDivergence(d)}\n  known: ${knownIssue(d) ?? 'NO'}`);
};
try {
  // `--parallel P`: P seeds at a time, each its own simulator, gateways and Redis database (one per
  // lane, flushed between its seeds: seeds running side by side never share cache entries).
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, seeds) }, async () => {
      const url = await allocateRedisDbFrom(pool);
      while (next < seeds) await runSeed(next++, url);
    }),
  );
} finally {
  await redis.stop();
}
const sum = (f: (r: OracleResult) => number) => results.reduce((a, r) => a + f(r), 0);
const divergences = sum((r) => r.divergences.length);
const bySteps = new Map<string, number>();
for (const r of results)
  for (const d of r.divergences)
    bySteps.set(
      `${d.step} p${d.page} ${d.credential}`,
      (bySteps.get(`${d.step} p${d.page} ${d.credential}`) ?? 0) + 1,
    );
const unknown = results.flatMap((r) => r.divergences).filter((d) => !knownIssue(d)).length;
const queries = sum((r) => r.queries);
console.log(
  `\nORACLE: ${queries} queries judged over ${sum((r) => r.versions)} world versions (${seeds} seeds, ${results[0]?.steps ?? 0} steps, ${rounds} rounds per group), SIM_VARY ${values['no-vary'] ? 'off' : 'on'}: ${divergences} divergences, ${unknown} unknown, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
);
for (const [k, n] of [...bySteps].sort((a, b) => b[1] - a[1])) console.log(`  ${n}× ${k}`);
const byIssue = new Map<string, number>();
for (const r of results)
  for (const d of r.divergences)
    byIssue.set(knownIssue(d) ?? 'UNKNOWN', (byIssue.get(knownIssue(d) ?? 'UNKNOWN') ?? 0) + 1);
console.log('by known issue (test/oracle/known.ts):');
for (const [k, n] of byIssue) console.log(`  ${n}× ${k}`);
// Known divergences (test/oracle/known.ts) are counted above; an unknown one, or a run that judged nothing, fails.
process.exit(unknown > 0 || queries === 0 ? 1 : 0);
