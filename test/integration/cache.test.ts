import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BlockDocument, ChainBlocksDocument } from '../__generated__/graphql.js';
import { testClock } from '../support/clock.js';
import { codes, useSimulator } from '../support/gateway.js';
import { startRedisCluster, type TestRedisCluster } from '../support/redis-cluster.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet } from '../support/sim.js';

const C = '43114';
const BLOCKS_ROUTE = 'data-api GET /v1/chains/:chainId/blocks';
const BLOCK_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId';
const redisUrl = await allocateRedisDb();
let sim: RunningSimulator;
let n: (back: number) => string;

const { gateway } = useSimulator({}, async (s) => {
  sim = s;
  const head = Number(
    (await simGet(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 })).blocks[0]
      .blockNumber,
  );
  n = (back) => String(head - back);
});
beforeEach(async () => {
  await flushRedisDb(redisUrl);
});

const calls = (route: string) => sim.stats().byRoute[route] ?? 0;
const untilHealthy = (gw: { store: { health(): string } }) =>
  vi.waitFor(() => expect(gw.store.health()).toBe('ok'), { timeout: 20_000, interval: 100 });

describe('read-through cache against the real Redis', () => {
  it('expiry refetches exactly once', async () => {
    // The gateway's clock is moved, not waited for: a loaded machine cannot make the TTL pass early.
    const clock = testClock();
    const gw = gateway({
      redisUrl,
      now: clock.now,
      ttlOverrides: { head: 1_000 },
      staleOverrides: { head: { swr: 0, ifError: 0 } },
    });
    await gw.ready();
    const q = { chainId: C, first: 3, txFirst: 0 };
    await gw.exec(ChainBlocksDocument, q);
    clock.advance(999);
    await gw.exec(ChainBlocksDocument, q);
    expect(calls(BLOCKS_ROUTE)).toBe(1);
    clock.advance(2);
    await Promise.all([gw.exec(ChainBlocksDocument, q), gw.exec(ChainBlocksDocument, q)]);
    expect(calls(BLOCKS_ROUTE)).toBe(2);
    await gw.close();
  });

  it('clients asking different `first` values share the same fixed-size upstream pages', async () => {
    // A clock that does not move: a loaded machine cannot let the head page's 2 s pass mid-test.
    const gw = gateway({ redisUrl, now: testClock().now });
    for (const first of [1, 5, 20, 60, 100]) {
      const r = await gw.exec(ChainBlocksDocument, { chainId: C, first, txFirst: 0 });
      expect(r.data!.chain!.blocks!.edges).toHaveLength(first);
    }
    expect(calls(BLOCKS_ROUTE)).toBe(1);
    await gw.close();
  });

  it('50 identical concurrent cold queries make 1 upstream call', async () => {
    const gw = gateway({ redisUrl });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => gw.exec(BlockDocument, { chainId: C, id: n(42) })),
    );
    expect(results.every((r) => r.data?.block?.number === n(42))).toBe(true);
    expect(calls(BLOCK_ROUTE)).toBe(2); // the block, and its parent by hash — once each
    await gw.close();
  });

  it('stale-while-revalidate serves the stale entry at once and refreshes exactly once', async () => {
    const clock = testClock();
    const gw = gateway({
      redisUrl,
      now: clock.now,
      ttlOverrides: { head: 100 },
      staleOverrides: { head: { swr: 60_000, ifError: 0 } },
    });
    const q = { chainId: C, first: 2, txFirst: 0 };
    const first = await gw.exec(ChainBlocksDocument, q);
    sim.world.advance(C, 1);
    clock.advance(150);
    sim.reset();
    const stale = await Promise.all(
      Array.from({ length: 5 }, () => gw.exec(ChainBlocksDocument, q)),
    );
    for (const r of stale) expect(r.data).toEqual(first.data); // served stale, not waiting
    await vi.waitFor(() => expect(calls(BLOCKS_ROUTE)).toBe(1)); // one refresh for all five
    // The refresh lands behind the stale answers: wait for it (not for a fixed time: a loaded machine
    // can take longer than any guess). Until it lands, asking again is served stale and starts none.
    await vi.waitFor(async () => {
      const fresh = await gw.exec(ChainBlocksDocument, q);
      expect(fresh.data!.chain!.blocks!.edges[0]!.node.number).not.toBe(
        first.data!.chain!.blocks!.edges[0]!.node.number,
      );
    });
    expect(calls(BLOCKS_ROUTE)).toBe(1); // and none for the asks while it was landing
    await gw.close();
  });

  it('stale-if-error serves the last answer during an injected 503, marked stale; a typed error when nothing is cached', async () => {
    const clock = testClock();
    const gw = gateway({
      redisUrl,
      now: clock.now,
      env: { UPSTREAM_RETRIES: '0' },
      ttlOverrides: { head: 50 },
      staleOverrides: { head: { swr: 0, ifError: 60_000 } },
    });
    const q = { chainId: C, first: 2, txFirst: 0 };
    const ok = await gw.exec(ChainBlocksDocument, q);
    clock.advance(100);
    sim.addFault({
      route: BLOCKS_ROUTE,
      status: 503,
      body: { message: 'down', statusCode: 503, error: 'Service Unavailable' },
    });
    const stale = await gw.exec(ChainBlocksDocument, q);
    expect(stale.errors).toBeUndefined();
    expect(stale.data).toEqual(ok.data);
    expect(stale.extensions).toMatchObject({
      cache: { stale: true, staleResources: ['data.latestBlocks'] },
    });
    const nothing = await gw.exec(ChainBlocksDocument, { chainId: '43113', first: 2, txFirst: 0 });
    expect(codes(nothing)).toEqual(['UPSTREAM_UNAVAILABLE']);
    sim.clearFaults();
    await gw.close();
  });

  it('the whole-response cache answers identical anonymous queries without execution, never responses with errors', async () => {
    const gw = gateway({ redisUrl, env: { RESPONSE_CACHE_MAX_TTL_MS: '60000' } });
    const q = { chainId: C, id: n(77) };
    const a = await gw.exec(BlockDocument, q);
    const event = async (name: string) =>
      (await gw.metrics.responseCache.get()).values.find((v) => v.labels.event === name)?.value ??
      0;
    // Answered from the whole-response cache: by Yoga's plugin, or before Yoga by the fast path (the
    // helpers send as the HTTP server does: src/http/fast-path.ts).
    const served = async () => (await event('hit')) + (await event('fast-hit'));
    const hitsBefore = await served();
    const b = await gw.exec(BlockDocument, q);
    // the same data; the hit made no upstream call, so it carries no cost estimate
    expect(b).toEqual({ data: a.data });
    expect(await served()).toBe(hitsBefore + 1);
    // responses with errors are never stored; requests with credentials bypass the cache
    const missing = { chainId: C, id: '999999999' };
    expect(codes(await gw.exec(BlockDocument, missing))).toEqual(['NOT_FOUND']);
    const hitsNow = await served();
    expect(codes(await gw.exec(BlockDocument, missing))).toEqual(['NOT_FOUND']);
    expect(await served()).toBe(hitsNow);
    const skips = await event('skip');
    await gw.exec(BlockDocument, q, { 'x-glacier-api-key': 'caller-key' });
    expect(await event('skip')).toBe(skips + 1);
    expect(await served()).toBe(hitsNow);
    await gw.close();
  });

  it('exposes hits, misses, coalesced waits, stale serves and Redis errors on /metrics', async () => {
    const gw = gateway({ redisUrl });
    await Promise.all([
      gw.exec(BlockDocument, { chainId: C, id: n(50) }),
      gw.exec(BlockDocument, { chainId: C, id: n(50) }),
    ]);
    await gw.exec(BlockDocument, { chainId: C, id: n(50) });
    const text = await (await gw.yoga.fetch('http://gateway.test/metrics')).text();
    expect(text).toMatch(/gateway_cache_events_total\{resource="data.block",event="miss"\} \d+/);
    expect(text).toMatch(/gateway_cache_events_total\{resource="data.block",event="hit"\} \d+/);
    expect(text).toMatch(/gateway_upstream_calls_total\{upstream="data-api",outcome="ok"\} \d+/);
    expect(text).toContain('gateway_redis_errors_total');
    expect(text).toMatch(/gateway_cache_healthy 1/);
    await gw.close();
  });
});

describe('Redis Cluster', () => {
  let cluster: TestRedisCluster;
  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 30_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  // Three redis-server processes on a loaded 2-core CI machine, beside other suites that start and kill
  // their own Redis on free ports: one retry absorbs a cluster that came up late; the behaviour asserted
  // (0 upstream calls across processes) is the same on every attempt.
  it('a three-node cluster on loopback serves warm queries with 0 upstream calls, across gateway processes', {
    retry: 1,
    timeout: 60_000,
  }, async () => {
    const env = { REDIS_CLUSTER: 'true' };
    const ttlOverrides = { head: 60_000 };
    const gw = gateway({ redisUrl: cluster.seedUrl, env, ttlOverrides });
    await untilHealthy(gw);
    const q = { chainId: C, first: 10, txFirst: 3 };
    const cold = await gw.exec(ChainBlocksDocument, q);
    expect(cold.errors).toBeUndefined();
    await gw.settled();
    await gw.close();
    sim.reset();
    const other = gateway({ redisUrl: cluster.seedUrl, env, ttlOverrides });
    await untilHealthy(other);
    const warm = await other.exec(ChainBlocksDocument, q);
    expect(warm.data).toEqual(cold.data);
    expect(sim.stats().total).toBe(0);
    await other.close();
  });
});
