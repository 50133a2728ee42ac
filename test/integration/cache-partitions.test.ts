import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BlockDocument } from '../__generated__/graphql.js';
import { codes, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet, startTestSimulator } from '../support/sim.js';

/**
 * Cache partitions (docs/caching.md, "Cache policy"): a caller's own key never shares a cache entry or an in-flight
 * load with the operator's partition, and gateways configured with other upstreams never share entries.
 */
const C = '43114';
const REVOKED = 'revoked-caller-key';
const LIMITED = 'rate-limited-caller-key';
const BLOCK_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId';
const redisUrl = await allocateRedisDb();
let sim: RunningSimulator;
let head: number;

const { gateway } = useSimulator({ apiKeys: { revoked: [REVOKED] } }, (s) => {
  sim = s;
});
beforeAll(async () => {
  head = Number(
    (await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 })).blocks[0].blockNumber,
  );
});
beforeEach(async () => {
  sim.clearFaults();
  await flushRedisDb(redisUrl);
});

const calls = (route: string) => sim.stats().byRoute[route] ?? 0;

describe('credential partitions', () => {
  it("a revoked caller key's 401 never reaches a concurrent anonymous request (no shared in-flight load)", async () => {
    const gw = gateway({ redisUrl });
    sim.addFault({ route: 'data-api GET /v1/chains/:chainId/blocks/:blockId', latencyMs: 300 });
    const q = { chainId: C, id: String(head - 10) };
    const revoked = gw.exec(BlockDocument, q, { 'x-glacier-api-key': REVOKED });
    await vi.waitFor(() => expect(calls(BLOCK_ROUTE)).toBe(1)); // its load is at the upstream
    const anonymous = gw.exec(BlockDocument, q);
    const [r, a] = await Promise.all([revoked, anonymous]);
    expect(codes(r)).toContain('UNAUTHENTICATED');
    expect(a.errors).toBeUndefined();
    expect(a.data!.block!.number).toBe(String(head - 10));
    await gw.close();
  });

  it("a rate-limited caller key's 429 never reaches a concurrent anonymous request", async () => {
    const gw = gateway({ redisUrl, env: { UPSTREAM_RETRIES: '0' } });
    // The caller's key is limited: the fault answers 429 to the first matching request only, which is its.
    sim.addFault({
      route: 'data-api GET /v1/chains/:chainId/blocks/:blockId',
      status: 429,
      latencyMs: 300,
      count: 1,
    });
    const q = { chainId: C, id: String(head - 11) };
    const limited = gw.exec(BlockDocument, q, { 'x-glacier-api-key': LIMITED });
    await vi.waitFor(() => expect(calls(BLOCK_ROUTE)).toBe(1)); // its load is at the upstream
    const anonymous = gw.exec(BlockDocument, q);
    const [l, a] = await Promise.all([limited, anonymous]);
    expect(codes(l)).toContain('RATE_LIMITED');
    expect(a.errors).toBeUndefined();
    expect(a.data!.block!.number).toBe(String(head - 11));
    await gw.close();
  });

  it('a revoked caller key gets its own 401, not the data cached for anonymous callers', async () => {
    const gw = gateway({ redisUrl });
    const q = { chainId: C, id: String(head - 12) };
    const a = await gw.exec(BlockDocument, q);
    expect(a.errors).toBeUndefined();
    const r = await gw.exec(BlockDocument, q, { 'x-glacier-api-key': REVOKED });
    expect(codes(r)).toContain('UNAUTHENTICATED');
    expect(r.data?.block ?? null).toBeNull();
    // anonymous callers still share the operator partition: a second anonymous read is a hit
    sim.reset();
    expect((await gw.exec(BlockDocument, q)).data).toEqual(a.data);
    expect(calls(BLOCK_ROUTE)).toBe(0);
    await gw.close();
  });

  it('no cache key holds the caller key itself', async () => {
    const gw = gateway({ redisUrl });
    await gw.ready();
    await gw.exec(
      BlockDocument,
      { chainId: C, id: String(head - 13) },
      { 'x-glacier-api-key': 'a-secret-caller-key' },
    );
    await gw.settled();
    const { Redis } = await import('ioredis');
    const r = new Redis(redisUrl);
    const all = await r.keys('*');
    r.disconnect();
    expect(all.length).toBeGreaterThan(0);
    expect(all.some((k) => k.includes('a-secret-caller-key'))).toBe(false);
    await gw.close();
  });
});

describe('upstream configuration partitions', () => {
  let other: RunningSimulator;
  beforeAll(async () => {
    other = await startTestSimulator();
    other.world.advance(C, 50);
  });
  afterAll(async () => {
    await other.close();
  });

  it("two gateways over one Redis with different nodes never answer each other's node data from the response cache", async () => {
    const env = { RESPONSE_CACHE_MAX_TTL_MS: '60000' };
    const ttlOverrides = { head: 30_000 };
    const a = gateway({ redisUrl, env, ttlOverrides });
    const b = gateway({
      redisUrl,
      env: { ...env, NODE_RPC_URL: other.nodeUrl },
      ttlOverrides,
    });
    await Promise.all([a.ready(), b.ready()]);
    const q = '{ networkNode { cChain { blockNumber } } }';
    const ra = await a.query(q);
    expect(ra.errors).toBeUndefined();
    await a.settled();
    other.reset();
    const rb = await b.query(q);
    expect(rb.errors).toBeUndefined();
    expect(Number(rb.data!.networkNode.cChain.blockNumber)).toBe(
      Number(ra.data!.networkNode.cChain.blockNumber) + 50,
    );
    expect(other.stats().total).toBeGreaterThan(0);
    await a.close();
    await b.close();
  });

  it('two gateways over one Redis with different Data API bases never share data entries', async () => {
    const a = gateway({ redisUrl });
    const b = gateway({ redisUrl, env: { DATA_API_URL: other.dataApiUrl } });
    await Promise.all([a.ready(), b.ready()]);
    const q = '{ chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }';
    const ra = await a.query(q);
    await a.settled();
    other.reset();
    const rb = await b.query(q);
    expect(Number(rb.data!.chain.blocks.edges[0].node.number)).toBe(
      Number(ra.data!.chain.blocks.edges[0].node.number) + 50,
    );
    expect(other.stats().total).toBeGreaterThan(0);
    await a.close();
    await b.close();
  });
});
