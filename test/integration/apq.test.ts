import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { apqKey, sha256Hex } from '../../src/plugins/use-apq.js';
import { createTestGateway, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/**
 * Automatic persisted queries (Apollo's protocol) over GET and POST, kept in the shared store: after one
 * registration a hash-only GET answers (a short URL a CDN can cache); an unknown hash answers
 * PERSISTED_QUERY_NOT_FOUND; a hash that does not match its query is refused.
 */
const C = '43114';
let sim: RunningSimulator;
let gw: TestGateway;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, g, url) => {
  sim = s;
  gw = g;
  redisUrl = url;
});

const ext = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const getHash = (g: TestGateway, hash: string, variables: Record<string, unknown>) =>
  g.yoga.fetch(
    `http://gateway.test/graphql?${new URLSearchParams({ variables: JSON.stringify(variables), extensions: JSON.stringify(ext(hash)) })}`,
    {
      headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' },
    },
  );
const post = (g: TestGateway, body: unknown) =>
  g.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
type Body = { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };

describe('APQ', () => {
  it('stores only documents that parse and validate, each within the byte cap', async () => {
    const store = gw.store;
    const junk = `{ chain(id: "${'x'.repeat(50)}") { name }`;
    const invalid = '{ nope }';
    const tooLarge = `{ __typename ${' '.repeat(70_000)}}`;
    for (const query of [junk, invalid, tooLarge]) {
      const r = (await (
        await post(gw, { query, extensions: ext(sha256Hex(query)) })
      ).json()) as Body;
      expect(r.errors?.[0]?.extensions?.code).toMatch(
        /GRAPHQL_PARSE_FAILED|GRAPHQL_VALIDATION_FAILED|BAD_USER_INPUT/,
      );
      await gw.settled();
      expect(await store.getMany([apqKey(sha256Hex(query))])).toEqual([undefined]);
    }
    const good = `{ chain(id: "${C}") { name } }`;
    await post(gw, { query: good, extensions: ext(sha256Hex(good)) });
    await gw.settled();
    expect(await store.getMany([apqKey(sha256Hex(good))])).toEqual([good]);
  });

  it('unknown hash → PERSISTED_QUERY_NOT_FOUND with no upstream call; register once; then hash-only GETs answer, on another replica too', async () => {
    const { blocks } = await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 });
    const id = String(Number(blocks[0].blockNumber) - 3);
    const query = `query ApqBlock($id: String!) { block(chainId: "${C}", id: $id) { number hash } }`;
    const hash = sha256Hex(query);
    sim.reset();

    const miss = (await (await getHash(gw, hash, { id })).json()) as Body;
    expect(miss.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([
      ['PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND'],
    ]);
    expect(sim.stats().total).toBe(0);

    const registered = (await (
      await post(gw, { query, variables: { id }, extensions: ext(hash) })
    ).json()) as Body;
    expect(registered.errors).toBeUndefined();
    expect(registered.data.block.number).toBe(id);

    const hit = await getHash(gw, hash, { id });
    expect(hit.status).toBe(200);
    const hitBody = (await hit.json()) as Body;
    expect(hitBody.errors).toBeUndefined();
    expect(hitBody.data).toEqual(registered.data);
    expect(hit.headers.get('cache-control')).toMatch(/^public, max-age=/);

    // A second gateway on the same Redis knows the hash without registering it again.
    const other = createTestGateway(sim, { redisUrl });
    await other.ready();
    const otherBody = (await (await getHash(other, hash, { id })).json()) as Body;
    expect(otherBody.errors).toBeUndefined();
    expect(otherBody.data).toEqual(registered.data);
    await other.close();
  });

  it('registers a query whose answer the response cache already holds: GET the query, POST it with its hash, GET by hash (issue 44)', async () => {
    const { blocks } = await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 });
    const id = String(Number(blocks[0].blockNumber) - 5);
    const query = `query ApqCached($id: String!) { block(chainId: "${C}", id: $id) { number } }`;
    const hash = sha256Hex(query);
    // A gateway with its whole-response cache on, as production runs it.
    const cached = createTestGateway(sim, {
      redisUrl,
      env: { RESPONSE_CACHE_MAX_TTL_MS: '60000' },
    });
    await cached.ready();
    try {
      // The plain query first: its answer goes into the response cache.
      const plain = await cached.yoga.fetch(
        `http://gateway.test/graphql?${new URLSearchParams({ query, variables: JSON.stringify({ id }) })}`,
        { headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' } },
      );
      expect(((await plain.json()) as Body).data.block.number).toBe(id);
      await cached.settled();
      sim.reset();
      // The registration is answered from that cache (no validation runs, no upstream call)...
      const registered = (await (
        await post(cached, { query, variables: { id }, extensions: ext(hash) })
      ).json()) as Body;
      expect(registered.data.block.number).toBe(id);
      expect(sim.stats().total).toBe(0);
      await cached.settled();
      // ...and still registers: before, the hash-only GET got PERSISTED_QUERY_NOT_FOUND for ever.
      const byHash = (await (await getHash(cached, hash, { id })).json()) as Body;
      expect(byHash.errors).toBeUndefined();
      expect(byHash.data.block.number).toBe(id);
    } finally {
      await cached.close();
    }
  });

  it('a hash that does not match its query, or a malformed persistedQuery, is refused with a code and no call', async () => {
    const query = `{ chain(id: "${C}") { name } }`;
    const wrong = (await (
      await post(gw, { query, extensions: ext(sha256Hex('something else')) })
    ).json()) as Body;
    expect(wrong.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
    const malformed = (await (
      await post(gw, { extensions: { persistedQuery: { version: 2, sha256Hash: 'zz' } } })
    ).json()) as Body;
    expect(malformed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(sim.stats().total).toBe(0);
  });
});

describe('APQ and the build-time manifest', () => {
  it('PERSISTED_OPERATIONS=allow: a manifest hash answers with no registration; `only`: registration is refused', async () => {
    const { buildPersistedManifest, persistedHash } = await import('../../src/edge/persisted.js');
    const [hash, text] = Object.entries(buildPersistedManifest()).find(([, t]) =>
      t.startsWith('query Chains'),
    )!;
    expect(hash).toBe(persistedHash(text));
    const allow = createTestGateway(sim, { redisUrl, env: { PERSISTED_OPERATIONS: 'allow' } });
    const known = (await (await getHash(allow, hash, {})).json()) as Body;
    expect(known.errors).toBeUndefined();
    expect(known.data.chains.length).toBeGreaterThan(0);
    await allow.close();

    const only = createTestGateway(sim, { redisUrl, env: { PERSISTED_OPERATIONS: 'only' } });
    const query = '{ __typename }';
    const register = (await (
      await post(only, { query, extensions: ext(sha256Hex(query)) })
    ).json()) as Body;
    expect(register.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
    expect(
      ((await (await getHash(only, sha256Hex(query), {})).json()) as Body).errors?.[0]?.extensions
        ?.code,
    ).toBe('PERSISTED_QUERY_NOT_FOUND');
    await only.close();
  });
});
