import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaTypeFor } from '../../src/http/request-read.js';
import type { RunningHttpServer } from '../../src/http/server.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * Response-cache hits answered before Yoga (src/http/fast-path.ts): the same bytes and headers the
 * pipeline gives a hit, every rule of the response cache kept, and anything else left to Yoga.
 */
let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let url: string;
let Q: string;

useSimAndGateway(
  { redis: true, gateway: { env: { RESPONSE_CACHE_MAX_TTL_MS: '60000' } } },
  (s, g) => {
    sim = s;
    gw = g;
  },
);
beforeAll(async () => {
  http = await serveOnLoopback(gw);
  url = `http://127.0.0.1:${http.port}/graphql`;
  Q = `query B($id: String!) { block(chainId: "43114", id: $id) { hash number } }`;
});
afterAll(async () => {
  await http?.shutdown('test');
});

const fastHits = async () =>
  (await gw.metrics.registry.getSingleMetric('gateway_response_cache_total')!.get()).values.find(
    (v) => v.labels.event === 'fast-hit',
  )?.value ?? 0;

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
/** Through Yoga's pipeline only (no HTTP server, so no fast path). */
const viaYoga = (body: unknown, headers: Record<string, string> = {}) =>
  gw.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The headers that say what the answer is (not the connection's or the request's own). */
const meaning = (r: Response) => {
  // Header names are case-insensitive (Yoga's in-process headers keep `Content-Type`'s case).
  const h = Object.fromEntries([...r.headers].map(([k, v]) => [k.toLowerCase(), v]));
  for (const k of ['date', 'connection', 'keep-alive', 'x-request-id', 'transfer-encoding'])
    delete h[k];
  // Seconds tick between the two requests: compare the freshness left within one second.
  const cc = h['cache-control']!;
  const maxAge = Number(/max-age=(\d+)/.exec(cc)?.[1]);
  h['cache-control'] = cc.replace(/max-age=\d+/, 'max-age=N');
  return { headers: h, maxAge, age: Number(h.age) };
};

describe('fast path', () => {
  it('answers a hit with the bytes and headers the pipeline gives it, with no upstream call', async () => {
    const body = { query: Q, variables: { id: String(sim.world.fixtures.blockNumber) } };
    const first = await post(body);
    expect(first.status).toBe(200);
    await first.text();
    sim.reset();
    const before = await fastHits();
    const yoga = await viaYoga(body);
    const fast = await post(body, { 'x-request-id': 'req-fast-1' });
    expect(await fastHits()).toBe(before + 1);
    expect(sim.stats().byRoute).toEqual({});
    expect(fast.status).toBe(200);
    expect(await fast.text()).toBe(await yoga.text());
    const [y, f] = [meaning(yoga), meaning(fast)];
    expect(f.headers).toEqual(y.headers);
    expect(Math.abs(f.maxAge - y.maxAge)).toBeLessThanOrEqual(1);
    expect(f.maxAge).toBeGreaterThan(0);
    expect(fast.headers.get('x-request-id')).toBe('req-fast-1');
    expect(fast.headers.get('cache-control')).toMatch(
      /^public, max-age=\d+, stale-while-revalidate=\d+$/,
    );
  });

  it('If-None-Match with the ETag: 304 with no body, like the pipeline', async () => {
    const body = { query: Q, variables: { id: String(sim.world.fixtures.blockNumber) } };
    const etag = (await post(body)).headers.get('etag')!;
    const before = await fastHits();
    const fast = await post(body, { 'if-none-match': etag });
    const yoga = await viaYoga(body, { 'if-none-match': etag });
    expect(await fastHits()).toBe(before + 1);
    expect(fast.status).toBe(304);
    expect(yoga.status).toBe(304);
    expect(await fast.text()).toBe('');
    expect(fast.headers.get('etag')).toBe(etag);
  });

  it('chooses the content type by accept as Yoga does', async () => {
    const body = { query: Q, variables: { id: String(sim.world.fixtures.blockNumber) } };
    await (await post(body)).text();
    for (const accept of [
      'application/graphql-response+json',
      '*/*',
      'application/json, application/graphql-response+json',
      'application/graphql-response+json, application/json',
      'text/event-stream, application/json',
    ]) {
      const before = await fastHits();
      const fast = await post(body, { accept });
      const yoga = await viaYoga(body, { accept });
      expect(await fastHits(), accept).toBe(before + 1);
      expect(fast.headers.get('content-type'), accept).toBe(yoga.headers.get('content-type'));
      expect(await fast.text()).toBe(await yoga.text());
    }
    expect(mediaTypeFor('text/event-stream')).toBeUndefined();
    expect(mediaTypeFor('multipart/mixed')).toBeUndefined();
    expect(mediaTypeFor(undefined)).toBe('application/json');
  });

  it('a GET is served only with a CSRF-prevention header, as Yoga requires', async () => {
    const vars = JSON.stringify({ id: String(sim.world.fixtures.blockNumber) });
    await (await post({ query: Q, variables: JSON.parse(vars) })).text();
    const get = `${url}?query=${encodeURIComponent(Q)}&variables=${encodeURIComponent(vars)}`;
    const before = await fastHits();
    const bare = await fetch(get, { headers: { accept: 'application/json' } });
    expect(bare.status).toBe(403);
    expect(await fastHits()).toBe(before);
    const ok = await fetch(get, {
      headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' },
    });
    expect(ok.status).toBe(200);
    expect(await fastHits()).toBe(before + 1);
    expect(((await ok.json()) as any).data.block.number).toBe(
      String(sim.world.fixtures.blockNumber),
    );
  });

  it('never serves a caller with credentials, a browser origin, or persisted-query extensions', async () => {
    const body = { query: Q, variables: { id: String(sim.world.fixtures.blockNumber) } };
    await (await post(body)).text();
    const before = await fastHits();
    const keyed = await post(body, { 'x-glacier-api-key': 'caller-key-1' });
    expect(keyed.headers.get('cache-control')).toBe('private, no-store');
    const browser = await post(body, { origin: 'http://example.test' });
    expect(browser.status).toBe(200);
    await browser.text();
    const ext = await post({ ...body, extensions: {} });
    await ext.text();
    expect(await fastHits()).toBe(before);
  });

  it('a miss goes on to Yoga with the body the fast path read; an answer with errors is never served', async () => {
    const other = {
      query: Q,
      variables: { id: String(Number(sim.world.fixtures.blockNumber) - 3) },
    };
    sim.reset();
    const before = await fastHits();
    const miss = (await (await post(other)).json()) as any;
    expect(miss.data.block.number).toBe(String(Number(sim.world.fixtures.blockNumber) - 3));
    expect(sim.stats().byRoute['data-api GET /v1/chains/:chainId/blocks/:blockId']).toBe(1);
    const bad = { query: Q, variables: { id: 'not-a-block' } };
    for (let i = 0; i < 2; i++) {
      const r = (await (await post(bad)).json()) as any;
      expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    // An empty or broken body still gets Yoga's coded answer, not a hang.
    const broken = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"query": ',
    });
    expect(broken.status).toBe(400);
    expect(await fastHits()).toBe(before);
  });
});
