import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { ChainBlocksDocument } from '../__generated__/graphql.js';
import { createTestGateway, useSimAndGateway } from '../support/gateway.js';

/**
 * Faster stale (issue 12): with a stale entry at hand, a failed attempt, a slow attempt or a garbage answer
 * serves the stale answer at once (flagged), and the load refreshes the entry behind it.
 */
const C = '43114';
const ROUTE = 'data-api GET /v1/chains/:chainId/blocks';
let sim: RunningSimulator;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, _gw, r) => {
  sim = s;
  redisUrl = r;
});
const q = { chainId: C, first: 2, txFirst: 0 };
const head = (r: any) => r.data!.chain!.blocks!.edges[0]!.node.number as string;
const staleWindows = {
  ttlOverrides: { head: 50 },
  staleOverrides: { head: { swr: 0, ifError: 60_000 } },
};

// The gateway's clock, moved past the head TTL: on a busy machine a real wait could also expire the
// refreshed entry while the test polls for it, and a third call would be a timing artefact.
let clock = Date.now();
const now = () => clock;

async function warm(env: Record<string, string>) {
  const gw = createTestGateway(sim, { redisUrl, env, ...staleWindows, now });
  const first = await gw.exec(ChainBlocksDocument, q);
  expect(first.errors).toBeUndefined();
  sim.world.advance(C, 1);
  clock += 100; // past the head TTL: the entry is stale, within its stale-if-error window
  sim.reset();
  return { gw, first };
}

describe('faster stale', () => {
  it('a first attempt that fails (retries to follow) serves the stale answer; the retry refreshes the entry', async () => {
    const { gw, first } = await warm({ STALE_AFTER_MS: '60000', UPSTREAM_RETRIES: '2' });
    sim.addFault({ route: ROUTE, status: 503, count: 1 });
    const stale = await gw.exec(ChainBlocksDocument, q);
    expect(stale.errors).toBeUndefined();
    expect(stale.data).toEqual(first.data);
    expect(stale.extensions).toMatchObject({
      cache: { stale: true, staleResources: ['data.latestBlocks'] },
    });
    // the retry succeeded behind the answer and refreshed the entry
    await gw.settled(); // the load behind the answer, its retry and its write
    expect(sim.stats().byRoute[ROUTE]).toBe(2); // the failed attempt and its retry, behind the answer
    // The stored answer shows at once, and never upstream again.
    const fresh = await gw.exec(ChainBlocksDocument, q);
    expect(BigInt(head(fresh))).toBe(BigInt(head(first)) + 1n);
    expect(fresh.extensions?.cache).toBeUndefined();
    expect(sim.stats().byRoute[ROUTE]).toBe(2);
    const text = await (await gw.yoga.fetch('http://gateway.test/metrics')).text();
    expect(text).toMatch(
      /gateway_cache_events_total\{resource="data.latestBlocks",event="stale-if-slow"\} [1-9]/,
    );
    await gw.close();
  });

  it('an attempt slower than STALE_AFTER_MS serves the stale answer without waiting for it', async () => {
    const { gw, first } = await warm({ STALE_AFTER_MS: '100', UPSTREAM_TIMEOUT_MS: '10000' });
    sim.addFault({ route: ROUTE, latencyMs: 3_000, count: 1 });
    const stale = await gw.exec(ChainBlocksDocument, q);
    expect(stale.data).toEqual(first.data);
    expect(stale.extensions).toMatchObject({ cache: { stale: true } });
    await gw.close();
  });

  it('a garbage answer (not JSON) falls back to the stale entry', async () => {
    const { gw, first } = await warm({ STALE_AFTER_MS: '60000', UPSTREAM_RETRIES: '0' });
    sim.addFault({ route: ROUTE, malformed: true, count: 1 });
    const stale = await gw.exec(ChainBlocksDocument, q);
    expect(stale.errors).toBeUndefined();
    expect(stale.data).toEqual(first.data);
    expect(stale.extensions).toMatchObject({ cache: { stale: true } });
    await gw.close();
  });

  it('a contract-breaking answer falls back to the stale entry', async () => {
    const { gw, first } = await warm({ STALE_AFTER_MS: '60000', UPSTREAM_RETRIES: '0' });
    sim.addFault({
      route: ROUTE,
      status: 200,
      body: { blocks: [{ blockNumber: 'not a number' }] },
      count: 1,
    });
    const stale = await gw.exec(ChainBlocksDocument, q);
    expect(stale.errors).toBeUndefined();
    expect(stale.data).toEqual(first.data);
    await gw.close();
  });
});
