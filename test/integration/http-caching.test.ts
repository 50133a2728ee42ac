import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestGateway, type TestGateway, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet } from '../support/sim.js';

/**
 * The HTTP caching contract: what CDNs and browsers may keep, for how long, and when they may not.
 * `max-age` is the freshness the gateway itself gives the answer (never longer than its freshest-expiring
 * upstream part); credentialed, errored, mutating and stale answers are never publicly cacheable.
 */
// The gateway's clock, moved past a TTL instead of waiting for it.
let clock = Date.now();
const now = () => clock;
const C = '43114';
const BLOCKS_ROUTE = 'data-api GET /v1/chains/:chainId/blocks';
const redisUrl = await allocateRedisDb();
let sim: RunningSimulator;
let head: number;

useSimulator({}, (s) => {
  sim = s;
});
beforeAll(async () => {
  head = Number(
    (await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 })).blocks[0].blockNumber,
  );
});
beforeEach(async () => {
  await flushRedisDb(redisUrl);
});

const BLOCK = `query Block($id: String!) { block(chainId: "${C}", id: $id) { number hash } }`;
const LATEST = `{ chain(id: "${C}") { blocks(first: 2) { edges { node { number } } } } }`;
const BOTH = `query Both($id: String!) { block(chainId: "${C}", id: $id) { number } chain(id: "${C}") { blocks(first: 2) { edges { node { number } } } } }`;

const get = (
  gw: TestGateway,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => {
  const qs = new URLSearchParams({ query, variables: JSON.stringify(variables) });
  return gw.yoga.fetch(`http://gateway.test/graphql?${qs}`, {
    headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1', ...headers },
  });
};
const post = (
  gw: TestGateway,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) =>
  gw.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
const maxAge = (res: Response) =>
  Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]);

describe('Cache-Control, ETag and 304', () => {
  let gw: TestGateway;
  beforeAll(() => {
    gw = createTestGateway(sim, {
      redisUrl,
      now,
      env: { RESPONSE_CACHE_MAX_TTL_MS: '60000', HTTP_MAX_AGE_MS: '60000' },
    });
  });
  afterAll(() => gw.close());

  it('a final block is public for the cap; beside the latest blocks, max-age is the head part’s freshness', async () => {
    const final = await get(gw, BLOCK, { id: String(head - 50) });
    expect(final.status).toBe(200);
    expect(final.headers.get('cache-control')).toMatch(
      /^public, max-age=\d+, stale-while-revalidate=\d+$/,
    );
    expect(maxAge(final)).toBeGreaterThan(50);
    expect(maxAge(final)).toBeLessThanOrEqual(60);
    expect(final.headers.get('vary')).toMatch(/accept/);
    expect(final.headers.get('vary')).toMatch(/x-glacier-api-key/);

    const latest = await post(gw, LATEST);
    expect(latest.headers.get('cache-control')).toMatch(/^public, /);
    expect(maxAge(latest)).toBeLessThanOrEqual(2); // the head class lives 2 s

    const both = await get(gw, BOTH, { id: String(head - 51) });
    expect(maxAge(both)).toBeLessThanOrEqual(2);
  });

  it('a matching If-None-Match gets 304 with no body and no upstream call; a hit says its Age', async () => {
    const vars = { id: String(head - 60) };
    const first = await get(gw, BLOCK, vars);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const body = await first.text();
    sim.reset();
    clock += 1100;
    const again = await get(gw, BLOCK, vars, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(Number(again.headers.get('age'))).toBeGreaterThanOrEqual(1);
    expect(maxAge(again)).toBeLessThanOrEqual(60 - 1);
    expect(sim.stats().total).toBe(0);
    // Another tag: the full answer, same body and tag.
    const other = await get(gw, BLOCK, vars, { 'if-none-match': '"nope"' });
    expect(other.status).toBe(200);
    expect(((await other.json()) as { data: unknown }).data).toEqual(
      (JSON.parse(body) as { data: unknown }).data,
    );
    expect(other.headers.get('etag')).toBe(etag);
  });

  it('no public caching of a credentialed, errored, mutating or refused answer', async () => {
    const keyed = await get(
      gw,
      BLOCK,
      { id: String(head - 70) },
      { 'x-glacier-api-key': 'my-own-key' },
    );
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('cache-control')).toBe('private, no-store');

    const missing = await get(gw, BLOCK, { id: '999999999' });
    expect(((await missing.json()) as { errors?: unknown[] }).errors?.length).toBeGreaterThan(0);
    expect(missing.headers.get('cache-control')).toBe('no-store');

    const bad = await get(gw, BLOCK, { id: 'x' });
    expect(bad.headers.get('cache-control')).toBe('no-store');

    const mutation = await post(gw, 'mutation { __typename }');
    expect(mutation.headers.get('cache-control')).toBe('no-store');

    const invalid = await get(gw, '{ nope }');
    expect(invalid.headers.get('cache-control')).toBe('no-store');
  });
});

describe('a stale answer is never publicly cacheable', () => {
  it('stale-if-error during an injected 503: the answer is served, with no-store', async () => {
    const gw = createTestGateway(sim, {
      redisUrl,
      now,
      env: { UPSTREAM_RETRIES: '0', HTTP_MAX_AGE_MS: '60000' },
      ttlOverrides: { head: 50 },
      staleOverrides: { head: { swr: 0, ifError: 60_000 } },
    });
    const ok = await post(gw, LATEST);
    expect(ok.headers.get('cache-control')).toMatch(/^public, max-age=0/);
    clock += 100;
    sim.addFault({
      route: BLOCKS_ROUTE,
      status: 503,
      body: { message: 'down', statusCode: 503, error: 'Service Unavailable' },
    });
    const stale = await post(gw, LATEST);
    const body = (await stale.json()) as {
      errors?: unknown[];
      extensions?: { cache?: { stale?: boolean } };
    };
    expect(body.errors).toBeUndefined();
    expect(body.extensions?.cache?.stale).toBe(true);
    expect(stale.headers.get('cache-control')).toBe('no-store');
    sim.clearFaults();
    await gw.close();
  });

  it('HTTP_MAX_AGE_MS=0 makes every answer no-store', async () => {
    const gw = createTestGateway(sim, { redisUrl, env: { HTTP_MAX_AGE_MS: '0' } });
    const res = await get(gw, BLOCK, { id: String(head - 80) });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    await gw.close();
  });
});
