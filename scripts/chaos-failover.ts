import { spawnSync } from 'node:child_process';
import { Cluster } from 'ioredis';
import { startRedisCluster, type TestRedisCluster } from '../test/support/redis-cluster.js';
import { type Row, sleep, startLoad, tally, until, watchLoad } from './chaos-kit.js';
import { HEAD_BOUND_MS, type Size } from './chaos-rows.js';
import { type Stage, startStage } from './chaos-stage.js';

/**
 * Redis Cluster failover under load: three primaries with a replica each; the primary that holds an
 * over-budget client's counter fails over (`CLUSTER FAILOVER` on its replica), then the primary that
 * holds the live-heads lock is killed (its replica is promoted after the node timeout). Must hold: no
 * user-visible error, the over-budget client never answered, the lock held again and heads flowing
 * within LOCK_BOUND_MS, extra upstream calls within EXTRA_BOUND.
 */
/** The per-client budget (CUs a minute): a subscriber's heads fit it, the abuser's uncached blocks do not. */
const BUDGET = 2_000;
const ABUSER = '10.9.9.9';
/** Node timeout (2 s) + promotion + the lock's TTL (1 s) and a follower's retry: stated bound. */
export const LOCK_BOUND_MS = 8_000;
/** Stated bound on the upstream calls a failover may add over the baseline (cold keys refetched). */
export const EXTRA_BOUND = 60;

const keyslot = (port: number, key: string) =>
  Number(
    spawnSync('redis-cli', ['-p', String(port), 'cluster', 'keyslot', key], {
      encoding: 'utf8',
    }).stdout.trim(),
  );

/** The primary serving `slot` now, from CLUSTER NODES' slot ranges. */
function primaryOf(cluster: TestRedisCluster, slot: number): number {
  const alive = cluster.roles().find((r) => r.up)!.port;
  const text = spawnSync('redis-cli', ['-p', String(alive), 'cluster', 'nodes'], {
    encoding: 'utf8',
  }).stdout;
  for (const f of text
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' '))) {
    if (!f[2]!.includes('master') || f[2]!.includes('fail')) continue;
    for (const range of f.slice(8)) {
      const [a, b] = range.split('-').map(Number);
      if (slot >= a! && slot <= (b ?? a!)) return Number(/:(\d+)@/.exec(f[1]!)![1]);
    }
  }
  throw new Error(`no primary serves slot ${slot}`);
}

let answered = 0;
let firstTop: number | undefined;
/** The budget left that the first answers reported (-1: none reported). */
const budgetSeen: number[] = [];

/**
 * One request of the client `xff`: a block never asked before, so no cache answers it and it costs its
 * CUs (an answer from the caches is free). A refusal says when the client's budget comes back.
 */
async function ask(stage: Stage, xff: string): Promise<{ code: string; retryAfterSec?: number }> {
  // The blocks below the first head seen, newest first: each answered one is cached, so never asked again.
  firstTop ??= stage.heads.top;
  const block = firstTop - 1 - answered;
  const r = await fetch(`${stage.lb.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
    body: JSON.stringify({ query: `{ block(chainId: "43114", id: "${block}") { number } }` }),
  }).then(
    (x) =>
      x.json() as Promise<{
        errors?: { extensions?: { code?: string; retryAfterSec?: number } }[];
        extensions?: { cost?: { budget?: { remaining?: number } } };
      }>,
  );
  if (budgetSeen.length < 5) budgetSeen.push(r.extensions?.cost?.budget?.remaining ?? -1);
  const e = r.errors?.[0]?.extensions;
  if (!e) answered += 1;
  return { code: e?.code ?? 'OK', retryAfterSec: e?.retryAfterSec };
}

async function oneFailover(
  stage: Stage,
  cluster: TestRedisCluster,
  size: Size,
  name: string,
  cmd: string,
  fault: () => Promise<void>,
): Promise<Row> {
  // Every row starts from closed breakers and no fault of the row before.
  const settled = await stage.settle();
  const startedAt = Date.now();
  const h = stage.heads.top;
  const blocks = await watchLoad(stage.world, [h - 40, h - 30, h - 20, h - 12, h - 6]);
  const subs = await stage.subscribe(size.subscribers);
  const stopTicking = stage.ticking(size.blockMs);
  // Spread over 200 clients, each well under its budget.
  const load = startLoad(
    stage.lb.url,
    size.rate,
    stage.world,
    blocks,
    () => HEAD_BOUND_MS,
    (i) => ({
      'x-forwarded-for': `10.1.${(i % 200) >> 8}.${i % 200}`,
    }),
  );
  // The abuser spends its budget, then keeps asking through the fault. An answer before the refusal's
  // `retryAfterSec` is up is one over budget; after it, the client's next minute has begun.
  let spent = 0;
  let refusal = 'OK';
  let budgetBackAt = 0;
  budgetSeen.length = 0;
  for (; spent < 1_000; spent++) {
    const r = await ask(stage, ABUSER);
    refusal = r.code;
    if (r.code !== 'OK') {
      budgetBackAt = Date.now() + (r.retryAfterSec ?? 60) * 1_000;
      break;
    }
  }
  let through = 0;
  let asked = 0;
  let abusing = true;
  const abuse = (async () => {
    while (abusing) {
      asked += 1;
      const r = await ask(stage, ABUSER);
      if (r.code !== 'OK') budgetBackAt = Date.now() + (r.retryAfterSec ?? 60) * 1_000;
      // One second's slack: retryAfterSec is rounded up.
      else if (Date.now() < budgetBackAt - 1_000) through += 1;
      await sleep(100);
    }
  })();
  const calls = () => stage.sim.stats().total;
  const c0 = calls();
  await sleep(size.baselineMs);
  const c1 = calls();
  const f0 = Date.now();
  await fault();
  // The lock again held by one replica with its socket open, and a new head reaching every subscriber.
  const redis = new Cluster([{ host: '127.0.0.1', port: cluster.roles().find((r) => r.up)!.port }]);
  await until(
    'the live lock held and its socket open',
    async () =>
      (await redis.get('gw:live:{43114}:lock')) !== null && stage.sim.socketStats().open === 1,
    30_000,
  );
  const lockMs = Date.now() - f0;
  redis.disconnect();
  const faultEnd = Date.now();
  const c2 = calls();
  await sleep(size.tailMs);
  abusing = false;
  await abuse;
  await stopTicking();
  const sent = await load.stop();
  const extra = Math.max(0, Math.round(c2 - c1 - ((c1 - c0) / size.baselineMs) * (faultEnd - f0)));
  const row = tally(name, cmd, sent, faultEnd, extra);
  row.recoveryMs = Math.max(row.recoveryMs, lockMs);
  Object.assign(row, { startedAt, faultStart: f0, faultEnd });
  for (const b of blocks) stage.world.unwatch(`block:${b}`);
  const heads = await stage.judgeSubscribers(subs);
  await Promise.all(subs.map((s) => s.close()));
  row.notes.push(
    `the live lock held again ${lockMs} ms after the fault began (bound ${LOCK_BOUND_MS} ms)`,
    `over-budget client (budget ${BUDGET} CUs a minute): ${spent} answered, then ${refusal}; budget left on its first answers ${budgetSeen.join(', ')}; then ${through} of ${asked} answered before its budget came back, during and after the fault`,
    `${subs.length} subscribers: ${heads.length ? heads.join('; ') : 'no head lost or repeated'}`,
    `${row.requests - (row.unjudged ?? 0)} answers judged by the oracle's judge (${row.unjudged ?? 0} without a reference)`,
  );
  if (settled) row.notes.push(settled);
  if (row.errors > 0)
    row.failures.push(`${row.errors} user-visible errors: ${JSON.stringify(row.codes)}`);
  if (through > 0) row.failures.push(`an over-budget client got ${through} answers`);
  if (lockMs > LOCK_BOUND_MS)
    row.failures.push(`the live lock took ${lockMs} ms (bound ${LOCK_BOUND_MS})`);
  if (extra > EXTRA_BOUND)
    row.failures.push(`${extra} extra upstream calls (bound ${EXTRA_BOUND})`);
  row.headProblems = heads;
  row.endedAt = Date.now();
  return row;
}

export async function redisFailover(
  size: Size,
  cmd: string,
  planted: { entry?: string; env?: Record<string, string> } = {},
): Promise<Row[]> {
  const cluster = await startRedisCluster({ replicas: 1 });
  const stage = await startStage({
    redisUrl: cluster.seedUrl,
    cluster: true,
    entry: planted.entry,
    env: { CLIENT_CU_PER_MINUTE: String(BUDGET), TRUSTED_PROXIES: 'loopback', ...planted.env },
  });
  const rows: Row[] = [];
  try {
    const any = cluster.ports[0]!;
    const budgetSlot = keyslot(any, `gw:budget:${ABUSER}`);
    rows.push(
      await oneFailover(
        stage,
        cluster,
        size,
        'Redis Cluster: CLUSTER FAILOVER of the budget key’s primary',
        cmd,
        async () => {
          const primary = primaryOf(cluster, budgetSlot);
          const replica = cluster.roles().find((r) => r.masterPort === primary)!.port;
          spawnSync('redis-cli', ['-p', String(replica), 'cluster', 'failover']);
          await until(
            'the replica promoted',
            () => primaryOf(cluster, budgetSlot) === replica,
            15_000,
          );
        },
      ),
    );
    const lockSlot = keyslot(any, 'gw:live:{43114}:lock');
    rows.push(
      await oneFailover(
        stage,
        cluster,
        size,
        'Redis Cluster: the live lock’s primary killed (SIGKILL)',
        cmd,
        async () => {
          const primary = primaryOf(cluster, lockSlot);
          await cluster.kill(primary);
          await until(
            'its replica promoted',
            () => primaryOf(cluster, lockSlot) !== primary,
            20_000,
          );
        },
      ),
    );
  } finally {
    await stage.stop();
    await cluster.stop();
  }
  return rows;
}
