import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEntry } from '../../src/cache/entry.js';
import { readExpiry } from '../../src/cache/expiry.js';
import { KEY_PREFIX } from '../../src/cache/keys.js';
import { createTestGateway, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { eventually } from '../support/live-clients.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * Heads drive freshness without growing the caches: a head-following entry (data cache and whole-response
 * cache) keeps one key per resource and records the head it was answered at, so each new head replaces
 * entries instead of adding one per head (which grew a 5-minute soak by 240 MB).
 */
let sim: RunningSimulator;
let gw: TestGateway;
let redis: Redis;
let redisUrl: string;
const Q = '{ chain(id: "43114") { blocks(first: 1) { edges { node { number hash } } } } }';

useSimAndGateway(
  {
    redis: true,
    gateway: (s) => ({
      env: { LIVE_WS: `43114=${s.wsUrl}`, RESPONSE_CACHE_MAX_TTL_MS: '60000' },
    }),
  },
  (s, g, r) => {
    sim = s;
    gw = g;
    redisUrl = r;
    redis = new Redis(redisUrl);
  },
);
beforeAll(async () => {
  const current = String(sim.world.chain('43114')!.head().number);
  await eventually(() => expect(gw.live!.head('43114')?.number).toBe(current));
});
afterAll(async () => {
  redis?.disconnect();
});

const advance = async () =>
  (
    (await (
      await fetch(`${sim.url}/_sim/advance`, {
        method: 'POST',
        body: JSON.stringify({ chainId: '43114', blocks: 1 }),
      })
    ).json()) as { head: { number: number } }
  ).head.number;

const keysLike = async (part: string) =>
  (await redis.keys(`${KEY_PREFIX}:*`)).filter((k) => k.includes(part) && !k.endsWith(':lease'));

describe('head-following entries', () => {
  it('each new head replaces the data-cache and response-cache entries of the last one', async () => {
    for (let i = 0; i < 6; i++) {
      const n = String(await advance());
      // Once the gateway has the head, the answer shows it (the response cache may not answer with the
      // previous head's page).
      await eventually(() => expect(gw.live!.head('43114')?.number).toBe(n));
      await eventually(
        async () => expect((await gw.query(Q)).data?.chain.blocks.edges[0].node.number).toBe(n),
        2_000,
        5,
      );
      // Between heads, a repeat is a response-cache hit: nothing upstream.
      sim.reset();
      const again = await gw.query(Q);
      expect(again.data?.chain.blocks.edges[0].node.number).toBe(n);
      expect(sim.stats().byRoute).toEqual({});
    }
    expect(await keysLike('/v1/chains/43114/blocks?')).toHaveLength(1);
    expect(await keysLike(':response:')).toHaveLength(1);
  });

  it('the entry records the head it was answered at', async () => {
    const n = String(await advance());
    await eventually(
      async () => expect((await gw.query(Q)).data?.chain.blocks.edges[0].node.number).toBe(n),
      2_000,
      5,
    );
    const [key] = await keysLike('/v1/chains/43114/blocks?');
    const entry = decodeEntry(readExpiry((await redis.get(key!))!).value);
    expect(entry?.version).toBe(`h${n}`);
  });

  it('the fast path (before Yoga) never serves a response of an older head', async () => {
    const http = await serveOnLoopback(gw);
    const fastHits = async () =>
      (
        await gw.metrics.registry.getSingleMetric('gateway_response_cache_total')!.get()
      ).values.find((v) => v.labels.event === 'fast-hit')?.value ?? 0;
    const viaHttp = async () =>
      (
        (await (
          await fetch(`http://127.0.0.1:${http.port}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({ query: Q }),
          })
        ).json()) as any
      ).data.chain.blocks.edges[0].node.number as string;
    try {
      const n = String(await advance());
      await eventually(() => expect(gw.live!.head('43114')?.number).toBe(n));
      await eventually(async () => expect(await viaHttp()).toBe(n), 2_000, 5);
      const before = await fastHits();
      expect(await viaHttp()).toBe(n);
      expect(await fastHits()).toBe(before + 1);
      const next = String(await advance());
      await eventually(() => expect(gw.live!.head('43114')?.number).toBe(next));
      expect(await viaHttp()).toBe(next);
      expect(await fastHits()).toBe(before + 1);
    } finally {
      await http.server.close();
    }
  });

  it('a replica whose local copy is of an older head takes the newer one another replica stored', async () => {
    const other = createTestGateway(sim, {
      redisUrl,
      env: { LIVE_WS: `43114=${sim.wsUrl}`, RESPONSE_CACHE_MAX_TTL_MS: '0' },
    });
    await other.ready();
    try {
      const shown = async (g: TestGateway) =>
        (await g.query(Q)).data?.chain.blocks.edges[0].node.number as string;
      const n = String(await advance());
      for (const g of [gw, other])
        await eventually(() => expect(g.live!.head('43114')?.number).toBe(n));
      // The other replica's in-process tier now holds this head's page.
      expect(await shown(other)).toBe(n);
      const next = String(await advance());
      for (const g of [gw, other])
        await eventually(() => expect(g.live!.head('43114')?.number).toBe(next));
      expect(await shown(gw)).toBe(next); // loads it once, into the shared tier
      sim.reset();
      expect(await shown(other)).toBe(next);
      expect(sim.stats().byRoute).toEqual({});
    } finally {
      await other.close();
    }
  });
});
