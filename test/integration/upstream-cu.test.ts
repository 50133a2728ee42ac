import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { cuPrice } from '../../src/upstream/compute-units.js';
import { testClock } from '../support/clock.js';
import { codes, createTestGateway, type TestGateway, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet, startTestSimulator } from '../support/sim.js';

/**
 * Issue 33, items 1 and 3: every upstream call is priced in compute units and counted
 * (`extensions.cost.spentCu`, `gateway_upstream_cu_total`), and one governor shared by every replica
 * keeps the operator's credential within the plan: against a simulator that charges CUs like the real
 * API, many concurrent clients never draw a 429; what the plan cannot pay is refused before any call
 * (RATE_LIMITED, `retryAfterSec`, the budget's name) or served stale where a stale answer exists.
 */
let head: number;
const C = '43114';
const redisUrl = await allocateRedisDb();
const BLOCK_CU = cuPrice('data', 'GET /v1/chains/:chainId/blocks/:blockId');
const blockQuery = (i: number) => `{ block(chainId: "${C}", id: "${head - i}") { number } }`;
const latest = `{ chain(id: "${C}") { blocks(first: 1) { edges { node { number } } } } }`;
type Cost = { spentCu?: number };

let sim: RunningSimulator;
const { gateway } = useSimulator({}, async (s) => {
  sim = s;
  head = Number(
    (await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 })).blocks[0].blockNumber,
  );
});
beforeEach(async () => {
  await flushRedisDb(redisUrl);
});

describe('compute units spent', () => {
  it('reports what each request spent (0 from the caches) and counts it by route', async () => {
    const g = gateway();
    const cold = await g.query(blockQuery(1));
    expect(cold.errors).toBeUndefined();
    expect(BLOCK_CU).toBe(10);
    expect((cold.extensions as { cost: Cost }).cost.spentCu).toBe(BLOCK_CU);
    const warm = await g.query(blockQuery(1));
    expect((warm.extensions as { cost: Cost }).cost.spentCu).toBe(0);
    const text = await g.metrics.registry.metrics();
    expect(text).toMatch(
      /gateway_upstream_cu_total\{upstream="data-api",route="\/v1\/chains\/:id\/blocks\/:id"\} 10\b/,
    );
    await g.close();
  });
});

/** Two gateways sharing only Redis, governed to the simulator's plan. */
const replicas = (s: RunningSimulator, env: Record<string, string>): TestGateway[] =>
  [0, 1].map(() => createTestGateway(s, { redisUrl, env }));

describe('the plan-wide governor', () => {
  it('many concurrent clients on two replicas never drive the upstream into 429', async () => {
    const PLAN = 300;
    const charging = await startTestSimulator({
      computeUnits: { perMinute: PLAN, perDay: 10_000 },
    });
    const gws = replicas(charging, {
      UPSTREAM_CU_PER_MINUTE: String(PLAN),
      UPSTREAM_CU_PER_DAY: '10000',
      // 40 clients, each its forwarded address, and each within its fair share of the plan.
      TRUSTED_PROXIES: 'loopback',
    });
    await Promise.all(gws.map((g) => g.ready()));
    // 40 clients at once, 3 distinct cold blocks each: 1,200 CUs asked of a 300-CU minute.
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        (gws[i % 2] as TestGateway).query(blockQuery(100 + i), undefined, {
          'x-forwarded-for': `198.51.100.${i % 40}`,
        }),
      ),
    );
    expect(charging.charges().refused).toBe(0);
    expect(charging.charges().spentCu).toBeLessThanOrEqual(PLAN);
    const served = results.filter((r) => !r.errors);
    const refused = results.filter((r) => codes(r).includes('RATE_LIMITED'));
    // The plan, but for the place the fair share keeps for a next client (C / (n + 1) < 10 at n = 30).
    expect(served.length).toBeGreaterThanOrEqual(PLAN / BLOCK_CU - 1);
    expect(served.length).toBeLessThanOrEqual(PLAN / BLOCK_CU);
    expect(served.length + refused.length).toBe(results.length);
    const e = refused[0]?.errors?.[0]?.extensions ?? {};
    expect(['upstream-per-minute', 'fair-share-per-minute']).toContain(e.budget);
    expect(e.retryAfterSec).toBeGreaterThanOrEqual(1);
    expect(e.retryAfterSec).toBeLessThanOrEqual(61);
    expect(e.upstreamStatus).toBeUndefined();
    await Promise.all(gws.map((g) => g.close()));
    await charging.close();
  });

  it('when the plan runs short, an answer that exists stale is served stale and flagged', async () => {
    const g = gateway({
      redisUrl,
      env: { UPSTREAM_CU_PER_MINUTE: String(5 * BLOCK_CU) },
      ttlOverrides: { head: 1 },
      staleOverrides: { head: { swr: 0, ifError: 600_000 } },
    });
    const fresh = await g.query(latest);
    expect(fresh.errors).toBeUndefined();
    // Spend the rest of the minute.
    for (let i = 0; i < 6; i++) await g.query(blockQuery(300 + i));
    const before = sim.stats().total;
    const res = await g.yoga.fetch('http://gw/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: latest }),
    });
    const body = (await res.json()) as { data: unknown; extensions: Record<string, any> };
    expect(body.data).toEqual(fresh.data);
    expect(body.extensions.cache.stale).toBe(true);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    expect(sim.stats().total).toBe(before);
    await g.close();
  });

  it('a revalidation nobody waits for yields first; requests still have the rest', async () => {
    const clock = testClock();
    const g = gateway({
      redisUrl,
      // One client here: no fair share, the plan's caps alone.
      env: { UPSTREAM_CU_PER_MINUTE: String(10 * BLOCK_CU), FAIR_SHARE_CONTENTION: '1' },
      ttlOverrides: { head: 1 },
      staleOverrides: { head: { swr: 600_000, ifError: 600_000 } },
      now: clock.now,
    });
    const first = await g.query(latest);
    expect(first.errors).toBeUndefined();
    // 80 % of the minute spent.
    for (let i = 0; i < 7; i++) expect((await g.query(blockQuery(230 + i))).errors).toBeUndefined();
    const before = sim.stats().total;
    // Past its freshness: served at once, its refresh left to the background, which may not spend now.
    clock.advance(5);
    const again = await g.query(latest);
    expect(again.data).toEqual(first.data);
    await g.settled(); // the refresh has run (and been refused)
    expect(sim.stats().total).toBe(before);
    const refused = await g.metrics.registry.getSingleMetricAsString(
      'gateway_upstream_cu_refused_total',
    );
    expect(refused).toMatch(/budget="upstream-per-minute",work="system"\} 1\b/);
    // A request that waits for its answer still gets the last fifth.
    expect((await g.query(blockQuery(240))).errors).toBeUndefined();
    expect(sim.stats().total).toBe(before + 1);
    await g.close();
  });

  it("follows the upstream's own ratelimit-limit when the plan is smaller than configured (down to half of it)", async () => {
    const charging = await startTestSimulator({ computeUnits: { perMinute: 100 } });
    // Configured for 200 a minute; the upstream's answers say 100 (UPSTREAM_LIMIT_FLOOR: no lower than 100).
    const g = createTestGateway(charging, {
      env: { UPSTREAM_CU_PER_MINUTE: '200', FAIR_SHARE_CONTENTION: '1' },
    });
    for (let i = 0; i < 20; i++) await g.query(blockQuery(260 + i));
    expect(charging.charges().refused).toBe(0);
    expect(charging.charges().spentCu).toBe(100);
    await g.close();
    await charging.close();
  });

  it('an upstream 429 stops all spending until its retry-after', async () => {
    const g = gateway({
      env: { UPSTREAM_CU_PER_MINUTE: '6000', UPSTREAM_RETRIES: '0' },
    });
    sim.addFault({
      route: 'data-api GET /v1/chains/:chainId/blocks/:blockId',
      status: 429,
      count: 1,
      headers: { 'retry-after': '30' },
      body: { message: 'slow down', statusCode: 429, error: 'Too Many Requests' },
    });
    expect(codes(await g.query(blockQuery(290)))).toEqual(['RATE_LIMITED']);
    const after = sim.stats().total;
    const next = await g.query(blockQuery(291));
    expect(codes(next)).toEqual(['RATE_LIMITED']);
    expect(next.errors?.[0]?.extensions?.budget).toBe('upstream-rate-limit');
    expect(sim.stats().total).toBe(after);
    await g.close();
  });

  it('a 429 saying retry-after 999999999 holds the Data API back a minute at most, and /health says so (issue 42)', async () => {
    const g = gateway({ redisUrl, env: { UPSTREAM_CU_PER_MINUTE: '6000', UPSTREAM_RETRIES: '0' } });
    sim.addFault({
      route: 'data-api GET /v1/chains/:chainId/blocks/:blockId',
      status: 429,
      count: 1,
      headers: { 'retry-after': '999999999' },
      body: { message: 'slow down', statusCode: 429, error: 'Too Many Requests' },
    });
    expect(codes(await g.query(blockQuery(320)))).toEqual(['RATE_LIMITED']);
    const next = await g.query(blockQuery(321));
    expect(next.errors?.[0]?.extensions).toMatchObject({ budget: 'upstream-rate-limit' });
    expect(next.errors?.[0]?.extensions?.retryAfterSec).toBeLessThanOrEqual(60);
    const redis = new Redis(redisUrl);
    const pttl = await redis.pttl('{gw:cu}:block');
    redis.disconnect();
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(60_000);
    const health = (await (await g.yoga.fetch('http://gw/health')).json()) as {
      status: string;
      heldBack?: { upstream: string; reason: string; until: string }[];
    };
    expect(health.status).toBe('degraded');
    expect(health.heldBack?.[0]).toMatchObject({ upstream: 'data-api', reason: 'rate-limited' });
    expect(Date.parse(health.heldBack![0]!.until) - Date.now()).toBeLessThanOrEqual(60_000);
    await g.close();
  });
});
