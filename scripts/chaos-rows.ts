import { Redis } from 'ioredis';
import type { TestRedis } from '../test/support/redis.js';
import { type Row, sleep, startLoad, tally, until, watchLoad } from './chaos-kit.js';
import { metricsAuth, type Stage } from './chaos-stage.js';

/**
 * The rows over one Redis (scripts/chaos.ts runs them on one stage, in turn): each runs the load
 * through a quiet baseline, the fault, and a tail; the extra upstream calls are the fault window's
 * calls beyond the baseline's rate over the same time.
 */
export interface Size {
  rate: number;
  baselineMs: number;
  tailMs: number;
  subscribers: number;
  blockMs: number;
}

/**
 * A head answer's promise: while the chain is live it is keyed by the head the replica heard (beats may
 * stop for the live window, 3.5 s, before it falls back to the class TTL), then the head class's TTL
 * (2 s) and stale-while-revalidate (2 s); 1 s for the request itself.
 */
export const HEAD_BOUND_MS = 3_500 + 2_000 + 2_000 + 1_000;
const STALE_IF_ERROR_MS = 5 * 60_000;

/** Runs `fault` under load; returns the row with the load's judgement and the extra upstream calls. */
async function underLoad(
  stage: Stage,
  size: Size,
  name: string,
  command: string,
  fault: () => Promise<void>,
  o: { headBoundMs?: () => number; subscribers?: boolean } = {},
): Promise<Row> {
  // Every row starts from closed breakers and no fault of the row before.
  const settled = await stage.settle();
  const startedAt = Date.now();
  const h = stage.heads.top;
  const blocks = await watchLoad(stage.world, [h - 40, h - 30, h - 20, h - 12, h - 6]);
  const subs = o.subscribers === false ? [] : await stage.subscribe(size.subscribers);
  const w0 = stage.world.version;
  const stopTicking = stage.ticking(size.blockMs);
  const load = startLoad(
    stage.lb.url,
    size.rate,
    stage.world,
    blocks,
    o.headBoundMs ?? (() => HEAD_BOUND_MS),
  );
  const calls = () => stage.sim.stats().total;
  const c0 = calls();
  await sleep(size.baselineMs);
  const c1 = calls();
  const f0 = Date.now();
  await fault();
  const faultEnd = Date.now();
  const c2 = calls();
  await sleep(size.tailMs);
  await stopTicking();
  const sent = await load.stop();
  const extra = Math.max(0, Math.round(c2 - c1 - ((c1 - c0) / size.baselineMs) * (faultEnd - f0)));
  const row = tally(name, command, sent, faultEnd, extra);
  row.faultStart = f0;
  row.faultEnd = faultEnd;
  row.startedAt = startedAt;
  row.notes.push(
    `fault lasted ${faultEnd - f0} ms; baseline ${c1 - c0} upstream calls in ${size.baselineMs} ms; ${row.requests - (row.unjudged ?? 0)} answers judged by the oracle's judge over world versions ${w0}–${stage.world.version} (${row.unjudged ?? 0} without a reference)`,
  );
  if (settled) row.notes.push(settled);
  for (const b of blocks) stage.world.unwatch(`block:${b}`);
  if (subs.length) {
    const problems = await stage.judgeSubscribers(subs);
    row.notes.push(
      `${subs.length} subscribers: ${subs.reduce((a, s) => a + s.connects - 1, 0)} reconnects; ${problems.length ? problems.join('; ') : 'no head lost or repeated'}`,
    );
    row.headProblems = problems;
    await Promise.all(subs.map((s) => s.close()));
  }
  row.endedAt = Date.now();
  return row;
}

export async function rollingRestart(stage: Stage, size: Size, cmd: string): Promise<Row> {
  const restarts: string[] = [];
  const row = await underLoad(
    stage,
    size,
    'rolling restart (3 replicas, SIGTERM each in turn)',
    cmd,
    async () => {
      for (let i = 0; i < stage.replicas.length; i++) {
        const r = await stage.restart(i);
        restarts.push(`replica ${i + 1}: exit ${r.exitCode}, back in ${r.downMs} ms`);
      }
    },
  );
  row.notes.push(restarts.join('; '));
  // Must hold: no failed request, no head lost or repeated, every subscriber back.
  if (row.errors > 0)
    row.failures.push(`${row.errors} failed requests: ${JSON.stringify(row.codes)}`);
  row.failures.push(...(row.headProblems ?? []));
  if (restarts.some((r) => !r.includes('exit 0')))
    row.failures.push(`a replica did not exit 0: ${restarts.join('; ')}`);
  return row;
}

export async function redisFlushed(stage: Stage, size: Size, redisUrl: string, cmd: string) {
  const row = await underLoad(stage, size, 'Redis flushed (FLUSHALL)', cmd, async () => {
    const r = new Redis(redisUrl);
    await r.flushall();
    r.disconnect();
  });
  if (row.errors > 0) row.failures.push(`${row.errors} errors: ${JSON.stringify(row.codes)}`);
  return row;
}

export async function redisRestartedEmpty(stage: Stage, size: Size, redis: TestRedis, cmd: string) {
  const row = await underLoad(
    stage,
    size,
    'Redis restarted empty (SIGKILL, 2 s down)',
    cmd,
    async () => {
      await redis.stop();
      await sleep(2_000);
      await redis.restart();
      await until(
        'every replica reports its cache ok',
        async () => {
          for (const r of stage.replicas) {
            const h = (await (await fetch(`${r.url}/health`)).json()) as { status: string };
            if (h.status !== 'ok') return false;
          }
          return true;
        },
        30_000,
      );
    },
  );
  if (row.errors > 0) row.failures.push(`${row.errors} errors: ${JSON.stringify(row.codes)}`);
  return row;
}

export async function upstreamStatus(stage: Stage, size: Size, status: 429 | 503, cmd: string) {
  const row = await underLoad(
    stage,
    size,
    `upstream answers ${status} for 10 s (Data API and node)`,
    cmd,
    async () => {
      stage.sim.addFault({
        status,
        ...(status === 429 ? { headers: { 'retry-after': '1' } } : {}),
      });
      await sleep(10_000);
      stage.sim.clearFaults();
    },
    // Stale-if-error: a head-class answer may be as old as its window while the upstream fails.
    { headBoundMs: () => STALE_IF_ERROR_MS },
  );
  const uncoded = Object.keys(row.codes).filter(
    (c) => !['UPSTREAM_UNAVAILABLE', 'RATE_LIMITED'].includes(c),
  );
  if (uncoded.length) row.failures.push(`errors without an upstream code: ${uncoded.join(', ')}`);
  return row;
}

export async function websocketDropped(stage: Stage, size: Size, cmd: string) {
  const row = await underLoad(
    stage,
    size,
    'node websocket dropped (twice, 2 s apart)',
    cmd,
    async () => {
      for (let i = 0; i < 2; i++) {
        await fetch(`${stage.sim.url}/_sim/ws/drop`, { method: 'POST', body: '{}' });
        await sleep(2_000);
      }
      await until(
        'the upstream websocket is back',
        () => stage.sim.socketStats().subscriptions === 1,
        15_000,
      );
    },
  );
  if (row.errors > 0) row.failures.push(`${row.errors} errors: ${JSON.stringify(row.codes)}`);
  row.failures.push(...(row.headProblems ?? []));
  return row;
}

/** The load alone, no fault: what the alert rules must stay quiet in (`--prometheus`). */
export async function steady(stage: Stage, size: Size, cmd: string): Promise<Row> {
  const row = await underLoad(stage, size, 'steady load (no fault)', cmd, async () => {
    await sleep(Math.max(20_000, 3 * size.baselineMs));
  });
  row.faultStart = undefined;
  row.faultEnd = undefined;
  if (row.errors > 0) row.failures.push(`${row.errors} errors: ${JSON.stringify(row.codes)}`);
  row.failures.push(...(row.headProblems ?? []));
  return row;
}

/** Which replica follows the chain's node now (gateway_live_lock_held), or -1. */
async function lockHolder(stage: Stage): Promise<number> {
  const held = await Promise.all(
    stage.replicas.map(async (r) => {
      const text = await fetch(`${r.url}/metrics`, metricsAuth(stage.env))
        .then((res) => res.text())
        .catch(() => '');
      return /^gateway_live_lock_held\{chain="43114"\} 1$/m.test(text);
    }),
  );
  return held.indexOf(true);
}

/**
 * The replica holding the chain's live lock killed (SIGKILL: no unlock): no replica follows the node
 * until the lock's lifetime (LIVE_LOCK_TTL_MS) ends and another takes it; then the killed one comes back.
 */
export async function liveHolderKilled(stage: Stage, size: Size, cmd: string): Promise<Row> {
  let note = '';
  let takeover = 0;
  const row = await underLoad(
    stage,
    size,
    `the live lock's holder killed (SIGKILL; lock TTL ${stage.env.LIVE_LOCK_TTL_MS} ms)`,
    cmd,
    async () => {
      await until(
        'a replica holds the live lock',
        async () => (await lockHolder(stage)) >= 0,
        15_000,
      );
      const i = await lockHolder(stage);
      const t0 = Date.now();
      await stage.replicas[i]!.kill('SIGKILL');
      await until(
        'another replica holds the live lock',
        async () => (await lockHolder(stage)) >= 0,
        20_000,
      );
      takeover = Date.now() - t0;
      const r = await stage.restart(i);
      note = `replica ${i + 1} killed; the lock taken over in ${takeover} ms; the killed one back in ${r.downMs} ms`;
    },
  );
  row.notes.push(note);
  row.recoveryMs = Math.max(row.recoveryMs, takeover);
  // Must hold: the lock taken over within its lifetime and a margin; subscribers lose no head.
  const bound = Number(stage.env.LIVE_LOCK_TTL_MS) + 5_000;
  if (takeover > bound)
    row.failures.push(`the lock was taken over in ${takeover} ms (bound ${bound})`);
  row.failures.push(...(row.headProblems ?? []));
  return row;
}
