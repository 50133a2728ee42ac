import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { beforeEach, describe, expect, it } from 'vitest';
import { testClock } from '../support/clock.js';
import { codes, createTestGateway, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet, startTestSimulator } from '../support/sim.js';

/**
 * Issue 12, item 3 (in compute units since issue 33): each client has a budget in CUs per minute, shared
 * by replicas through Redis; over it, RATE_LIMITED with retryAfterSec before any upstream call. And per
 * upstream: a circuit breaker that fails fast, and pacing on the upstream's own `ratelimit-remaining`.
 */
let sim: RunningSimulator;
let head: number;
const redisUrl = await allocateRedisDb();
/** Each block query below makes one `getBlock` call: Small, 10 CUs. */
const BLOCK_CU = 10;
const QUERIES = 20;
const BUDGET = QUERIES * BLOCK_CU;
const budgetEnv = { CLIENT_CU_PER_MINUTE: String(BUDGET), TRUSTED_PROXIES: 'loopback' };

const { gateway } = useSimulator({}, async (s) => {
  sim = s;
  head = Number(
    (await simGet(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 })).blocks[0]
      .blockNumber,
  );
});
beforeEach(async () => {
  await flushRedisDb(redisUrl);
});

const blockQuery = (i: number) => `{ block(chainId: "43114", id: "${head - i}") { number } }`;

describe('per-client budgets', () => {
  it('two gateway processes over one Redis: the sum of their upstream calls for one client stays within the budget', async () => {
    // Two gateways that share nothing but Redis (each its own cache store, own connections).
    const a = gateway({ redisUrl, env: budgetEnv });
    const b = gateway({ redisUrl, env: budgetEnv });
    await Promise.all([a.ready(), b.ready()]);
    const client = { 'x-forwarded-for': '203.0.113.7' };
    const results = [];
    for (let i = 0; i < 2 * QUERIES; i++)
      results.push(await (i % 2 ? a : b).query(blockQuery(i), undefined, client));
    const served = results.filter((r) => !r.errors);
    const limited = results.filter((r) => codes(r).includes('RATE_LIMITED'));
    expect(served.length).toBe(QUERIES);
    expect(limited.length).toBe(QUERIES);
    expect(sim.stats().total * BLOCK_CU).toBeLessThanOrEqual(BUDGET);
    const e = limited[0]!.errors![0]!;
    expect(e.extensions!.retryAfterSec).toBeGreaterThanOrEqual(1);
    expect(e.extensions!.retryAfterSec).toBeLessThanOrEqual(60);
    // another client is not affected; an API key is a client of its own
    expect(
      (await a.query(blockQuery(40), undefined, { 'x-forwarded-for': '198.51.100.1' })).errors,
    ).toBeUndefined();
    expect(
      (await b.query(blockQuery(41), undefined, { 'x-glacier-api-key': 'client-key-1' })).errors,
    ).toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  });

  it('a refused request answers HTTP 429 with retry-after, and makes no upstream call', async () => {
    const g = gateway({
      env: { ...budgetEnv, CLIENT_CU_PER_MINUTE: String(2 * BLOCK_CU) },
    });
    const send = (i: number) =>
      g.yoga.fetch('http://gw/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
        body: JSON.stringify({ query: blockQuery(50 + i) }),
      });
    expect((await send(0)).status).toBe(200);
    expect((await send(1)).status).toBe(200);
    const before = sim.stats().total;
    const res = await send(2);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await res.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0]!.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    expect(sim.stats().total).toBe(before);
    await g.close();
  });

  it('a new unverified API key on each request never brings a fresh budget (issue 32, finding 9)', async () => {
    const g = gateway({
      env: { ...budgetEnv, CLIENT_CU_PER_MINUTE: String(5 * BLOCK_CU) },
    });
    const results = [];
    for (let i = 0; i < 15; i++)
      results.push(
        await g.query(blockQuery(200 + i), undefined, {
          'x-forwarded-for': '203.0.113.77',
          'x-glacier-api-key': `random-key-${i}-${Math.random()}`,
        }),
      );
    expect(results.filter((r) => !r.errors).length).toBe(5);
    expect(results.filter((r) => codes(r).includes('RATE_LIMITED')).length).toBe(10);
    expect(sim.stats().total).toBe(5);
    // Another address is another client.
    expect(
      (await g.query(blockQuery(230), undefined, { 'x-forwarded-for': '203.0.113.78' })).errors,
    ).toBeUndefined();
    await g.close();
  });

  it('a query dearer than a fresh budget is refused as too complex, never admitted to be RATE_LIMITED for ever (issue 33)', async () => {
    const g = gateway({ env: { CLIENT_CU_PER_MINUTE: String(2 * BLOCK_CU) } });
    const three = `{ a: block(chainId: "43114", id: "${head - 70}") { number } b: block(chainId: "43114", id: "${head - 71}") { number } c: block(chainId: "43114", id: "${head - 72}") { number } }`;
    const r = await g.query(three);
    expect(r.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'QUERY_TOO_COMPLEX',
    });
    expect(sim.stats().total).toBe(0);
    // What a fresh budget can pay is served.
    expect((await g.query(blockQuery(73))).errors).toBeUndefined();
    await g.close();
  });

  it('x-forwarded-for is not believed from an untrusted peer', async () => {
    const g = gateway({ env: { CLIENT_CU_PER_MINUTE: String(2 * BLOCK_CU) } });
    expect(
      (await g.query(blockQuery(60), undefined, { 'x-forwarded-for': '1.1.1.1' })).errors,
    ).toBeUndefined();
    expect(
      (await g.query(blockQuery(61), undefined, { 'x-forwarded-for': '2.2.2.2' })).errors,
    ).toBeUndefined();
    // a third "client" is the same peer, whatever it claims
    expect(
      codes(await g.query(blockQuery(62), undefined, { 'x-forwarded-for': '3.3.3.3' })),
    ).toEqual(['RATE_LIMITED']);
    await g.close();
  });
});

describe('per-upstream protection', () => {
  const BLOCK_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId';

  it('the circuit breaker opens after consecutive failures and then fails fast, making no call', async () => {
    const g = gateway({
      env: {
        UPSTREAM_RETRIES: '0',
        CIRCUIT_BREAKER_FAILURES: '3',
        CIRCUIT_BREAKER_COOLDOWN_MS: '60000',
      },
    });
    sim.addFault({
      route: BLOCK_ROUTE,
      status: 503,
      body: { message: 'down', statusCode: 503, error: 'Service Unavailable' },
    });
    for (let i = 0; i < 3; i++)
      expect(codes(await g.query(blockQuery(70 + i)))).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(sim.stats().total).toBe(3);
    const fast = await g.query(blockQuery(79));
    expect(codes(fast)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(fast.errors![0]!.message).toMatch(/circuit breaker/);
    expect(sim.stats().total).toBe(3);
    sim.clearFaults();
    await g.close();
  });

  it('an open circuit still lets the cache serve stale answers', async () => {
    const clock = testClock();
    const g = gateway({
      env: {
        UPSTREAM_RETRIES: '0',
        CIRCUIT_BREAKER_FAILURES: '2',
        CIRCUIT_BREAKER_COOLDOWN_MS: '60000',
      },
      ttlOverrides: { head: 1 },
      staleOverrides: { head: { swr: 0, ifError: 600_000 } },
      now: clock.now,
    });
    const latest = `{ chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }`;
    const fresh = await g.query(latest);
    expect(fresh.errors).toBeUndefined();
    sim.addFault({
      route: 'data-api GET /v1/chains/:chainId/blocks',
      status: 503,
      body: { message: 'down', statusCode: 503, error: 'Service Unavailable' },
    });
    clock.advance(5);
    for (let i = 0; i < 4; i++) {
      const r = await g.query(latest);
      expect(r.data).toEqual(fresh.data);
      expect((r.extensions as { cache?: { stale?: boolean } }).cache?.stale).toBe(true);
    }
    // two failures opened the circuit; the other answers came from the cache without a call
    expect(sim.stats().byRoute['data-api GET /v1/chains/:chainId/blocks']).toBeLessThanOrEqual(3);
    sim.clearFaults();
    await g.close();
  });

  it("slows down when the upstream's ratelimit-remaining runs low", async () => {
    const limited = await startTestSimulator({ rateLimitPerMinute: 11 });
    const g = createTestGateway(limited, { env: { UPSTREAM_SLOWDOWN_BELOW: '10' } });
    const started = Date.now();
    // remaining 10, then 9 (below 10: the next call waits a tenth of the window, at most 2 s)
    for (let i = 0; i < 3; i++) {
      const r = await g.query(blockQuery(90 + i));
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(limited.stats().total).toBe(3);
    await g.close();
    await limited.close();
  });
});
