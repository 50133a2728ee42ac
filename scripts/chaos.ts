import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { PLANTS } from '../test/oracle/plants.js';
import { startRedisServer } from '../test/support/redis.js';
import type { Row } from './chaos-kit.js';
import { type Prometheus, type RowWindow, startPrometheus } from './chaos-prometheus.js';
import {
  liveHolderKilled,
  redisFlushed,
  redisRestartedEmpty,
  rollingRestart,
  type Size,
  steady,
  upstreamStatus,
  websocketDropped,
} from './chaos-rows.js';
import { stageHooks, startStage } from './chaos-stage.js';

/**
 * `npm run chaos [-- --short] [-- --only NAME] [-- --plant NAME]`: every fault of docs/operations.md's
 * table under load, on loopback (the simulator, private redis-servers, three gateway processes behind
 * HAProxy), every answer judged by the cache oracle's judge. Prints the table; exits 1 when a row breaks
 * what it must hold. `--plant` runs the gateways with a wrong cache policy (test/oracle/plants.ts; the
 * flush row unless `--only` says otherwise, its baseline 12 s): the row must then report wrong answers.
 * `--prometheus`: a real Prometheus scrapes the replicas and evaluates the alert rules meanwhile
 * (scripts/chaos-prometheus.ts); the run then also prints which alerts fired in which row, and whether
 * every dashboard panel's query returned series. Never part of `npm test`.
 */
// The clients' own stray rejections (a socket closed under them) are reported, never fatal to the run.
process.on('unhandledRejection', (e) => console.error('chaos client: unhandled rejection', e));
const { values } = parseArgs({
  options: {
    short: { type: 'boolean', default: false },
    only: { type: 'string' },
    plant: { type: 'string' },
    prometheus: { type: 'boolean', default: false },
  },
});
const short = values.short;
const plant = values.plant as keyof typeof PLANTS | undefined;
if (plant !== undefined && !(plant in PLANTS))
  throw new Error(`--plant: one of ${Object.keys(PLANTS).join(', ')}`);
const size: Size = short
  ? { rate: 20, baselineMs: 3_000, tailMs: 3_000, subscribers: 40, blockMs: 500 }
  : { rate: 40, baselineMs: 10_000, tailMs: 5_000, subscribers: 100, blockMs: 500 };
// Long enough for a planted stale answer to outlive the head class's promise.
if (plant) size.baselineMs = 12_000;
const only = values.only ?? (plant ? 'flush' : undefined);
const cmd = (row: string) =>
  `npm run chaos --${short ? ' --short' : ''} --only ${row}${plant ? ` --plant ${plant}` : ''}`;
// `--only a,b`: those rows, in the table's order (a row after the one that opens a breaker, say).
const want = (row: string) => !only || only.split(',').includes(row);
// Replicas run compiled, as deployed (a restart is then seconds, not tsx's half minute); a planted
// gateway runs from its script through tsx.
if (!plant) {
  const built = spawnSync('npm', ['run', '-s', 'build'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  if (built.status !== 0) throw new Error('npm run build failed');
}
const planted = plant
  ? { entry: 'scripts/chaos-planted-server.ts', env: { CHAOS_PLANT: plant } }
  : { entry: 'dist/server.js' };

const rows: Row[] = [];
let prom: Prometheus | undefined;
const windows: RowWindow[] = [];
if (values.prometheus) {
  prom = await startPrometheus();
  stageHooks.env = { METRICS_TOKEN: prom.token };
  stageHooks.started = (urls) => prom!.setTargets(urls);
  stageHooks.ready = async () => void (await prom!.settle(120_000));
}
const runStart = Date.now();
/** A row that could not run to its end (a set-up step over its limit) is a failed row, not a lost table. */
const failed = (fault: string, command: string, e: unknown): Row => ({
  fault,
  requests: 0,
  errors: 0,
  codes: {},
  wrong: 0,
  extraUpstream: 0,
  recoveryMs: 0,
  command,
  failures: [`did not run to its end: ${String(e).slice(0, 300)}`],
  notes: [],
});
const run = async (name: string, row: () => Promise<Row | Row[]>) => {
  if (!want(name)) return;
  // A row starts steady: the alerts of the rows before it resolved first.
  const settledMs = prom ? await prom.settle(180_000) : 0;
  const start = Date.now();
  try {
    const r = await row();
    const list = Array.isArray(r) ? r : [r];
    rows.push(...list);
    // Each row from when its load began (its stage up and quiet) to its end.
    for (const [k, x] of list.entries())
      windows.push({
        name: list.length > 1 ? `${name} ${k + 1}` : name,
        fault: x.fault,
        start: x.startedAt ?? start,
        end: x.endedAt ?? Date.now(),
        faultStart: x.faultStart,
        faultEnd: x.faultEnd,
        settledMs,
      });
  } catch (e) {
    rows.push(failed(name, cmd(name), e));
    windows.push({ name, fault: 'did not run to its end', start, end: Date.now(), settledMs });
  }
};
// The rows over one Redis share a stage; it starts only when one of them runs.
if (
  ['steady', 'rolling', 'flush', 'redis-restart', 'upstream-429', 'upstream-503', 'ws-drop'].some(
    want,
  )
) {
  const redis = await startRedisServer();
  if (!redis.owned)
    throw new Error('chaos needs the redis-server binary (it kills and restarts Redis)');
  const stage = await startStage({ redisUrl: redis.url, ...planted });
  try {
    await run('steady', () => steady(stage, size, cmd('steady')));
    await run('rolling', () => rollingRestart(stage, size, cmd('rolling')));
    await run('flush', () => redisFlushed(stage, size, redis.url, cmd('flush')));
    await run('redis-restart', () => redisRestartedEmpty(stage, size, redis, cmd('redis-restart')));
    await run('upstream-429', () => upstreamStatus(stage, size, 429, cmd('upstream-429')));
    await run('upstream-503', () => upstreamStatus(stage, size, 503, cmd('upstream-503')));
    await run('ws-drop', () => websocketDropped(stage, size, cmd('ws-drop')));
  } finally {
    await stage.stop();
    await redis.stop();
  }
}
// Its own stage: the live lock at its default lifetime (3 s), as deployed; the shared stage's is 1 s.
await run('holder-killed', async () => {
  const redis = await startRedisServer();
  const stage = await startStage({
    redisUrl: redis.url,
    ...planted,
    env: { ...planted.env, LIVE_LOCK_TTL_MS: '3000' },
  });
  try {
    return await liveHolderKilled(stage, size, cmd('holder-killed'));
  } finally {
    await stage.stop();
    await redis.stop();
  }
});
await run('failover', async () => {
  const { redisFailover } = await import('./chaos-failover.js');
  return redisFailover(size, cmd('failover'), planted);
});

const codes = (r: Row) =>
  Object.entries(r.codes)
    .map(([c, n]) => `${c} ${n}`)
    .join(', ');
console.log(
  '\n| fault | requests | errors | wrong answers | extra upstream calls | recovery | result |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(
    `| ${r.fault} | ${r.requests} | ${r.errors}${r.errors ? ` (${codes(r)})` : ''} | ${r.wrong} | ${r.extraUpstream} | ${r.recoveryMs} ms | ${r.failures.length ? 'FAIL' : 'ok'} |`,
  );
for (const r of rows) {
  console.log(`\n${r.fault}: \`${r.command}\``);
  for (const n of r.notes) console.log(`  - ${n}`);
  for (const f of r.failures) console.log(`  ! ${f}`);
}
let promFailed = false;
if (prom) {
  // The last row's alerts resolve too (its "after" column).
  await prom.settle(180_000);
  const { text, failures } = await prom.report(windows, runStart, Date.now());
  console.log(`\nPrometheus (${prom.url}): alerts firing by row and phase\n\n${text}`);
  for (const f of failures) console.log(`  ! ${f}`);
  promFailed = failures.length > 0;
  await prom.stop();
}
process.exit(rows.some((r) => r.failures.length > 0) || rows.length === 0 || promFailed ? 1 : 0);
