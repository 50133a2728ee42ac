import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { createTestGateway, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * The surrogate keys a CDN purges by (docs/cdn.md): a served gateway, over HTTP on loopback, names the
 * entities each publicly cacheable answer holds in `Surrogate-Key` and `Cache-Tag`, on GET and POST, and
 * a response-cache hit names the same tags as the answer it was stored from.
 */
const C = '43114';
let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let url: string;

useSimAndGateway(
  {
    redis: true,
    gateway: {
      env: {
        RESPONSE_CACHE_MAX_TTL_MS: '60000',
        HTTP_MAX_AGE_MS: '60000',
        SURROGATE_KEY_HEADER: 'both',
      },
    },
  },
  (s, g) => {
    sim = s;
    gw = g;
  },
);
beforeAll(async () => {
  http = await serveOnLoopback(gw);
  url = `http://127.0.0.1:${http.port}/graphql`;
});
afterAll(async () => {
  await http?.shutdown('test');
});

const post = (query: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
const get = (query: string) =>
  fetch(`${url}?${new URLSearchParams({ query })}`, {
    headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' },
  });

/** The answer's tags from each header, checked to name the same set. */
async function tagsOf(res: Response): Promise<string[] | undefined> {
  expect(res.status).toBe(200);
  const body = (await res.json()) as { errors?: unknown };
  expect(body.errors).toBeUndefined();
  const surrogate = res.headers.get('surrogate-key');
  const cacheTag = res.headers.get('cache-tag');
  expect(surrogate?.split(' ')).toEqual(cacheTag?.split(','));
  return surrogate?.split(' ');
}
/** Response-cache hits, before Yoga (the fast path) or in its pipeline. */
const hits = async () =>
  (await gw.metrics.registry.getSingleMetric('gateway_response_cache_total')!.get()).values
    .filter((v) => v.labels.event === 'fast-hit' || v.labels.event === 'hit')
    .reduce((n, v) => n + v.value, 0);

describe('surrogate keys over HTTP', () => {
  it('a block names itself, on POST and GET, and a response-cache hit names the same', async () => {
    const n = String(sim.world.fixtures.blockNumber);
    const q = `{ block(chainId: "${C}", id: "${n}") { number hash } }`;
    const first = await post(q);
    expect(first.headers.get('cache-control')).toMatch(/^public, /);
    expect(await tagsOf(first)).toEqual([`block:${C}:${n}`]);
    const before = await hits();
    const hit = await post(q);
    expect(hit.headers.has('age')).toBe(true);
    expect(await tagsOf(hit)).toEqual([`block:${C}:${n}`]);
    expect(await hits()).toBeGreaterThan(before);
    expect(await tagsOf(await get(q))).toEqual([`block:${C}:${n}`]);
  });

  it("an address's balance and transactions name the address (and the blocks its transactions are in)", async () => {
    const address = sim.world.fixtures.busyAddress;
    const a = address.toLowerCase();
    const q = `{ address(chainId: "${C}", address: "${address}") {
      balance { balance }
      transactions(first: 3) { edges { node { hash block { number } } } }
    } }`;
    const first = await tagsOf(await post(q));
    expect(first).toContain(`address:${C}:${a}`);
    // The blocks of the transactions: final, named too.
    const blocks = (first ?? []).filter((t) => t.startsWith(`block:${C}:`));
    expect(blocks.length).toBeGreaterThan(0);
    expect(first?.every((t) => t === `address:${C}:${a}` || t.startsWith(`block:${C}:`))).toBe(
      true,
    );
    expect(first).toEqual([...(first ?? [])].sort());
    const hit = await post(q);
    expect(hit.headers.has('age')).toBe(true);
    expect(await tagsOf(hit)).toEqual(first);
    expect(await tagsOf(await get(q))).toEqual(first);
  });

  it("the latest blocks name the chain's head, and keep naming it from the response cache", async () => {
    const q = `{ chain(id: "${C}") { blocks(first: 2) { edges { node { number } } } } }`;
    const first = await tagsOf(await post(q));
    expect(first).toContain(`chain:${C}:head`);
    const hit = await post(q);
    expect(hit.headers.has('age')).toBe(true);
    expect(await tagsOf(hit)).toEqual(first);
  });

  it('an answer no shared cache keeps (a credential, an error) names nothing', async () => {
    const n = String(sim.world.fixtures.blockNumber);
    const keyed = await post(`{ block(chainId: "${C}", id: "${n}") { number } }`, {
      'x-glacier-api-key': 'caller-key-0123456789',
    });
    expect(keyed.headers.get('cache-control')).toBe('private, no-store');
    expect(keyed.headers.has('surrogate-key')).toBe(false);
    const failed = await post(`{ block(chainId: "${C}", id: "not-a-block") { number } }`);
    expect(failed.headers.get('cache-control')).toBe('no-store');
    expect(failed.headers.has('surrogate-key')).toBe(false);
    expect(failed.headers.has('cache-tag')).toBe(false);
  });
});

describe('SURROGATE_KEY_HEADER', () => {
  it('Surrogate-Key alone by default; off names nothing', async () => {
    const n = String(sim.world.fixtures.blockNumber);
    const q = `{ block(chainId: "${C}", id: "${n}") { number } }`;
    const send = (g: TestGateway) =>
      g.yoga.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: q }),
      });
    const byDefault = createTestGateway(sim, {});
    const off = createTestGateway(sim, { env: { SURROGATE_KEY_HEADER: 'off' } });
    try {
      const d = await send(byDefault);
      expect(d.headers.get('surrogate-key')).toBe(`block:${C}:${n}`);
      expect(d.headers.has('cache-tag')).toBe(false);
      const o = await send(off);
      expect(o.headers.get('cache-control')).toMatch(/^public, /);
      expect(o.headers.has('surrogate-key')).toBe(false);
    } finally {
      await byDefault.close();
      await off.close();
    }
  });
});
