import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { buildPersistedManifest, persistedHash } from '../../src/edge/persisted.js';
import {
  createTestGateway,
  PRODUCTION_ENV,
  type TestGateway,
  useSimAndGateway,
} from '../support/gateway.js';

/** Issue 12, item 4: production defaults. */
let sim: RunningSimulator;
let dev: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  dev = g;
});

const prod = (env: Record<string, string> = {}) =>
  createTestGateway(sim, {
    env: { ...PRODUCTION_ENV, ...env },
  });
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const send = (gw: TestGateway, init: RequestInit, path = '/graphql') =>
  gw.yoga.fetch(`http://gateway.test${path}`, init);
const post = (gw: TestGateway, body: unknown, headers: Record<string, string> = {}) =>
  send(gw, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
const codeOf = async (res: Response) =>
  ((await res.json()) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions
    ?.code;
const MUTATION =
  'mutation { aggregateSignatures(network: "mainnet", message: "0x00") { signedMessage } }';

describe('NODE_ENV=production', () => {
  it('turns introspection and GraphiQL off unless INTROSPECTION / GRAPHIQL turn them on', async () => {
    const p = prod();
    const r = await p.query('{ __schema { queryType { name } } }');
    expect(r.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(r.errors?.[0]?.message).toMatch(/introspection has been disabled/);
    const page = await send(p, { method: 'GET', headers: { accept: 'text/html' } });
    expect(await page.text()).not.toMatch(/graphiql/i);
    // federation still works: `_service` is not introspection
    expect((await p.query('{ _service { sdl } }')).errors).toBeUndefined();
    const open = prod({ INTROSPECTION: 'true', GRAPHIQL: 'true' });
    expect((await open.query('{ __schema { queryType { name } } }')).errors).toBeUndefined();
    expect(
      await (await send(open, { method: 'GET', headers: { accept: 'text/html' } })).text(),
    ).toMatch(/graphiql/i);
    // development keeps both on
    expect((await dev.query('{ __schema { queryType { name } } }')).errors).toBeUndefined();
  });

  it('answers no CORS by default, an allowlisted origin with itself, and never reflects another origin with credentials', async () => {
    const preflight = (gw: TestGateway, origin: string) =>
      send(gw, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization, x-glacier-api-key',
        },
      });
    const none = await preflight(prod(), 'https://evil.example');
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
    expect(none.headers.get('access-control-allow-credentials')).toBeNull();
    const listed = prod({ CORS_ORIGINS: 'https://app.example,https://admin.example' });
    const ok = await preflight(listed, 'https://app.example');
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const evil = await preflight(listed, 'https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(evil.headers.get('access-control-allow-credentials')).toBeNull();
    // development: any origin, but never with credentials
    const any = await preflight(dev, 'https://evil.example');
    expect(any.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('refuses form and multipart mutations (CSRF prevention) before any upstream call', async () => {
    const p = prod();
    const form = await send(p, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `query=${encodeURIComponent(MUTATION)}`,
    });
    expect(form.status).toBe(403);
    expect(await codeOf(form)).toBe('CSRF_REJECTED');
    const fd = new FormData();
    fd.set('operations', JSON.stringify({ query: MUTATION }));
    fd.set('map', '{}');
    const multipart = await send(p, { method: 'POST', body: fd });
    expect([403, 415]).toContain(multipart.status);
    expect(await codeOf(multipart)).toMatch(/CSRF_REJECTED|UNSUPPORTED_MEDIA_TYPE/);
    const text = await send(p, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: MUTATION }),
    });
    expect(text.status).toBeGreaterThanOrEqual(400);
    // a GET needs the CSRF header too; with it, it runs
    const bare = await send(
      p,
      { method: 'GET', headers: { accept: 'application/json' } },
      `/graphql?query=${encodeURIComponent('{ __typename }')}`,
    );
    expect(bare.status).toBe(403);
    const withHeader = await send(
      p,
      { method: 'GET', headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' } },
      `/graphql?query=${encodeURIComponent('{ __typename }')}`,
    );
    expect(await withHeader.json()).toMatchObject({ data: { __typename: 'Query' } });
    expect(sim.stats().total).toBe(0);
  });

  it('limits the body to MAX_BODY_BYTES (1 MB), with a coded 413', async () => {
    const p = prod();
    const big = await post(p, {
      query: '{ __typename }',
      variables: { pad: 'x'.repeat(1_100_000) },
    });
    expect(big.status).toBe(413);
    expect(await codeOf(big)).toBe('REQUEST_ENTITY_TOO_LARGE');
    const small = prod({ MAX_BODY_BYTES: '2000' });
    expect(
      (await post(small, { query: '{ __typename }', variables: { pad: 'x'.repeat(3_000) } }))
        .status,
    ).toBe(413);
    expect((await post(small, { query: '{ __typename }' })).status).toBe(200);
  });

  it('answers 415 and subscriptions with a code', async () => {
    const p = prod();
    const xml = await send(p, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<q/>',
    });
    expect(xml.status).toBe(415);
    expect(await codeOf(xml)).toBe('UNSUPPORTED_MEDIA_TYPE');
    // A subscription needs SSE or graphql-ws: over plain JSON it is refused with a code (not Yoga's empty 406).
    const sub = await post(p, { query: 'subscription { newBlocks(chainId: "43114") { number } }' });
    expect(sub.status).toBe(406);
    expect(await codeOf(sub)).toBe('BAD_REQUEST');
  });

  it('PERSISTED_OPERATIONS=only runs the build-time manifest and nothing else', async () => {
    const manifest = buildPersistedManifest();
    const [hash, text] = Object.entries(manifest).find(([, t]) => t.startsWith('query Chains'))!;
    expect(hash).toBe(persistedHash(text));
    const p = prod({ PERSISTED_OPERATIONS: 'only' });
    const ok = await post(p, { extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    const body = (await ok.json()) as { data?: { chains?: unknown[] }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data?.chains?.length).toBeGreaterThan(0);
    const free = await post(p, { query: '{ chains { chainId } }' });
    expect(await codeOf(free)).toBe('PERSISTED_QUERY_ONLY');
    const unknown = await post(p, {
      extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } },
    });
    expect(await codeOf(unknown)).toBe('PERSISTED_QUERY_NOT_FOUND');
    // `allow`: persisted ids and free queries both
    const allow = prod({ PERSISTED_OPERATIONS: 'allow' });
    expect(
      ((await (await post(allow, { query: '{ __typename }' })).json()) as { data: unknown }).data,
    ).toEqual({ __typename: 'Query' });
  });
});

describe('NODE_ENV=production hides what names the schema or the process (issue 42, item 5)', () => {
  const ADMIN = 'Bearer admin-token-12345';
  const sdlOf = async (gw: TestGateway, headers: Record<string, string> = {}) => {
    const res = await post(gw, { query: '{ _service { sdl } }' }, headers);
    return ((await res.json()) as { data: { _service: { sdl: string } } }).data._service.sdl;
  };

  it('`_service` answers the SDL without the admin fields unless the admin token is sent; it still parses', async () => {
    const p = prod({ ADMIN_TOKEN: 'admin-token-12345' });
    const open = await sdlOf(p);
    const full = await sdlOf(p, { authorization: ADMIN });
    expect(open).not.toMatch(/nodeAdmin|IssueTx|NetworkNodeAdmin|NodeAdminPayload|\badmin: /);
    for (const name of ['nodeAdminAlias', 'xChainIssueTx', 'admin: NetworkNodeAdmin'])
      expect(full).toContain(name);
    // the public rest is all there: entities, the one public mutation, the federation link
    for (const name of ['@key(fields: "chainId")', 'aggregateSignatures', '@link', 'type Block'])
      expect(open).toContain(name);
    // a supergraph still composes from it, beside another subgraph (test/e2e/federation.test.ts's)
    const { parse } = await import('graphql');
    const { composeServices } = await import('@apollo/composition');
    const { LABELS_TYPE_DEFS } = await import('../e2e/labels-subgraph.js');
    const composed = composeServices([
      { name: 'avalanche', typeDefs: parse(open), url: 'http://127.0.0.1:1/graphql' },
      { name: 'labels', typeDefs: parse(LABELS_TYPE_DEFS), url: 'http://127.0.0.1:2/graphql' },
    ]);
    expect(composed.errors).toBeUndefined();
    expect(composed.supergraphSdl).toContain('aggregateSignatures');
    expect(composed.supergraphSdl).not.toContain('nodeAdmin');
    // development: whole
    expect(await sdlOf(dev)).toContain('nodeAdminAlias');
  });

  it('"Did you mean" suggestions are off unless FIELD_SUGGESTIONS=true', async () => {
    const misspelt = { query: '{ blok(chainId: "43114", id: "1") { number } }' };
    const off = await (await post(prod(), misspelt)).text();
    expect(off).toMatch(/Cannot query field \\"blok\\"/);
    expect(off).not.toMatch(/Did you mean/);
    const on = await (await post(prod({ FIELD_SUGGESTIONS: 'true' }), misspelt)).text();
    expect(on).toMatch(/Did you mean \\"block\\"/);
    expect(await (await post(dev, misspelt)).text()).toMatch(/Did you mean/);
  });

  it('/metrics on PORT needs METRICS_TOKEN; with METRICS_PORT it is served only there', async () => {
    const get = (gw: TestGateway, headers: Record<string, string> = {}) =>
      send(gw, { method: 'GET', headers }, '/metrics');
    expect((await get(prod())).status).toBe(401);
    const tokened = prod({ METRICS_TOKEN: 'metrics-token-0123456789' });
    expect((await get(tokened)).status).toBe(401);
    const ok = await get(tokened, { authorization: 'Bearer metrics-token-0123456789' });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/gateway_/);
    const split = prod({ METRICS_PORT: '9464' });
    expect((await get(split)).status).toBe(404);
    const { startMetricsServer } = await import('../../src/http/metrics-server.js');
    const server = await startMetricsServer({
      port: 0,
      host: '127.0.0.1',
      metrics: split.metrics,
      store: split.store,
    });
    try {
      const own = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(own.status).toBe(200);
      expect(await own.text()).toMatch(/gateway_/);
      expect((await fetch(`http://127.0.0.1:${server.port}/graphql`)).status).toBe(404);
    } finally {
      await server.close();
    }
    // development: open, as before
    expect((await get(dev)).status).toBe(200);
  });
});
