import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestGateway, type TestGateway, useSimulator } from '../support/gateway.js';
import { eventually } from '../support/live-clients.js';
import { startRedisServer, type TestRedis } from '../support/redis.js';

/**
 * The gauges the dashboard and the alert rules read (deploy/monitoring/) that say what a replica holds:
 * which replica follows a chain's heads (gateway_live_lock_held: the no-holder alert sums it), the head
 * it delivered, the plan's limits, and the open circuit breakers by upstream.
 */
let sim: RunningSimulator;
let redis: TestRedis;
const gateways: TestGateway[] = [];
useSimulator({}, (s) => {
  sim = s;
});
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await redis?.stop();
});

const metric = async (g: TestGateway, line: RegExp): Promise<number | undefined> => {
  const text = await (await g.yoga.fetch('http://gw/metrics')).text();
  const m = new RegExp(`^${line.source} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
};
const held = (g: TestGateway) => metric(g, /gateway_live_lock_held\{chain="43114"\}/);

describe('monitoring gauges', () => {
  it('exactly one replica reports the live lock per chain; when it stops, another does', async () => {
    const start = () => {
      const g = createTestGateway(sim, {
        redisUrl: redis.url,
        env: { LIVE_WS: `43114=${sim.wsUrl}`, LIVE_LOCK_TTL_MS: '1000' },
      });
      gateways.push(g);
      return g;
    };
    const [a, b] = [start(), start()];
    await Promise.all([a.ready(), b.ready()]);
    await eventually(async () => {
      expect([await held(a), await held(b)].sort()).toEqual([0, 1]);
    }, 15_000);
    const head = String(sim.world.chain('43114')!.head().number);
    await eventually(async () => {
      for (const g of [a, b])
        expect(await metric(g, /gateway_live_head_block\{chain="43114"\}/)).toBe(Number(head));
    }, 15_000);
    const [holder, other] = (await held(a)) === 1 ? [a, b] : [b, a];
    await holder.close();
    gateways.splice(gateways.indexOf(holder), 1);
    await eventually(async () => expect(await held(other)).toBe(1), 15_000);
  }, 60_000);

  it("the plan's limits, and open breakers by upstream (0 while closed)", async () => {
    const g = createTestGateway(sim, {
      env: {
        UPSTREAM_CU_PER_MINUTE: '7000',
        UPSTREAM_CU_PER_DAY: '900000',
        UPSTREAM_RETRIES: '0',
        CIRCUIT_BREAKER_FAILURES: '2',
        CIRCUIT_BREAKER_COOLDOWN_MS: '60000',
      },
    });
    gateways.push(g);
    const limit = (w: string) =>
      metric(
        g,
        new RegExp(`gateway_upstream_plan_cu_limit\\{upstream="data-api",window="${w}"\\}`),
      );
    expect(await limit('minute')).toBe(7000);
    expect(await limit('day')).toBe(900000);
    const open = (u: string) =>
      metric(g, new RegExp(`gateway_upstream_breakers_open\\{upstream="${u}"\\}`));
    expect([await open('data-api'), await open('metrics-api'), await open('node')]).toEqual([
      0, 0, 0,
    ]);
    sim.addFault({ status: 500, body: { message: 'boom', statusCode: 500, error: 'Internal' } });
    try {
      for (let i = 0; i < 3; i++)
        await g.query(`{ block(chainId: "43114", id: "${100 + i}") { number } }`);
    } finally {
      sim.clearFaults();
    }
    expect(await open('data-api')).toBeGreaterThanOrEqual(1);
    expect(await open('node')).toBe(0);
  }, 30_000);

  it('a breaker whose cooldown is over is not reported open, though nobody called its route since', async () => {
    const g = createTestGateway(sim, {
      env: {
        UPSTREAM_RETRIES: '0',
        CIRCUIT_BREAKER_FAILURES: '2',
        CIRCUIT_BREAKER_COOLDOWN_MS: '300',
      },
    });
    gateways.push(g);
    sim.addFault({ status: 503, body: { message: 'down', statusCode: 503, error: 'Unavailable' } });
    try {
      for (let i = 0; i < 3; i++)
        await g.query(`{ block(chainId: "43114", id: "${200 + i}") { number } }`);
    } finally {
      sim.clearFaults();
    }
    const open = () => metric(g, /gateway_upstream_breakers_open\{upstream="data-api"\}/);
    const health = async () =>
      ((await (await g.yoga.fetch('http://gw/health')).json()) as { status: string }).status;
    expect(await open()).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await open()).toBe(0);
    expect(await health()).toBe('ok');
  }, 30_000);

  it('cache reads by tier: the LRU first, Redis for its misses', async () => {
    const start = () => {
      const g = createTestGateway(sim, { redisUrl: redis.url });
      gateways.push(g);
      return g;
    };
    const [a, b] = [start(), start()];
    await Promise.all([a.ready(), b.ready()]);
    const reads = (g: TestGateway, tier: string, result: string) =>
      metric(
        g,
        new RegExp(`gateway_cache_tier_reads_total\\{tier="${tier}",result="${result}"\\}`),
      ).then((n) => n ?? 0);
    const q = `{ block(chainId: "43114", id: "${sim.world.chain('43114')!.head().number - 3}") { number hash } }`;
    expect((await a.query(q)).errors).toBeUndefined();
    await a.store.settled?.();
    const lruHits = await reads(a, 'lru', 'hit');
    expect((await a.query(q)).errors).toBeUndefined();
    expect(await reads(a, 'lru', 'hit')).toBeGreaterThan(lruHits);
    // Another replica's LRU has nothing: Redis has what the first stored.
    expect((await b.query(q)).errors).toBeUndefined();
    expect(await reads(b, 'lru', 'miss')).toBeGreaterThan(0);
    expect(await reads(b, 'redis', 'hit')).toBeGreaterThan(0);
  }, 30_000);
});
