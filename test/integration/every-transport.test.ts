import { request as httpRequest } from 'node:http';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningHttpServer, startHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createTestGateway, PRODUCTION_ENV, useSimulator } from '../support/gateway.js';
import { sendVia, TRANSPORTS, type TransportName, wsOn, wsRaw } from '../support/transports.js';

/**
 * Issue 32: one hostile operation through every way in (POST, GET, APQ, SSE, graphql-ws, and a plain
 * `fetch` with its default `accept: *\/*`) gets the same refusal and code, and makes no upstream call.
 */
const PROD = PRODUCTION_ENV;
const logger = createLogger({ level: 'silent' });

let sim: RunningSimulator;
let open: RunningHttpServer;
let only: RunningHttpServer;
let tight: RunningHttpServer;
const urlOf = (s: RunningHttpServer) => `http://127.0.0.1:${s.port}/graphql`;

const serve = async (
  env: Record<string, string>,
  ws?: Parameters<typeof startHttpServer>[0]['ws'],
) => {
  const gw = createTestGateway(sim, { env: { ...PROD, ...env } });
  await gw.ready();
  return startHttpServer({ gateway: gw, port: 0, host: '127.0.0.1', graceMs: 100, logger, ws });
};

useSimulator({}, (s) => {
  sim = s;
});
beforeAll(async () => {
  open = await serve({});
  only = await serve({ PERSISTED_OPERATIONS: 'only' });
  tight = await serve({}, { initTimeoutMs: 300, idleTimeoutMs: 400, maxPerClient: 2 });
});
afterAll(async () => {
  await Promise.all([open, only, tight].map((s) => s?.shutdown('test')));
});

const list = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const simCalls = async () =>
  ((await (await fetch(`${sim.url}/_sim/stats`)).json()) as { total: number }).total;

interface Case {
  name: string;
  query: string;
  rawVariables?: string;
  code: string;
  /** Transports this case cannot take, and why. */
  not?: Partial<Record<TransportName, string>>;
}
const TOO_LONG_FOR_A_URL = 'the URL would pass the request-line limit (431 before GraphQL)';

const CASES: Case[] = [
  {
    name: 'a list literal nested 1,000 deep',
    query: `{ chain(id: ${list(1_000)}) { name } }`,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'a list literal nested 3,900 deep (the parser would overflow)',
    query: `{ chain(id: ${list(3_900)}) { name } }`,
    code: 'BAD_USER_INPUT',
    not: { GET: TOO_LONG_FOR_A_URL },
  },
  { name: 'a missing brace', query: '{ chain(id: "43114") { name }', code: 'GRAPHQL_PARSE_FAILED' },
  {
    name: 'introspection in production',
    query: '{ __schema { types { name } } }',
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: '99 aliased introspections',
    query: `{ ${Array.from({ length: 99 }, (_, i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }`,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'variables nested 5,000 deep',
    query: 'query($v: String) { __typename }',
    rawVariables: `{"v":${list(5_000)}}`,
    code: 'BAD_USER_INPUT',
    not: { GET: TOO_LONG_FOR_A_URL },
  },
  {
    name: 'a selection over the cost limit',
    query:
      '{ chain(id: "43114") { blocks(first: 500) { edges { node { transactions(first: 100) { edges { node { hash } } } } } } } }',
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'an unknown field',
    query: '{ nope }',
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
];

describe('the same hostile operation through every transport', () => {
  for (const c of CASES)
    for (const t of TRANSPORTS) {
      const skip = c.not?.[t];
      it.skipIf(skip !== undefined)(`${c.name} · ${t}`, async () => {
        await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
        const a = await sendVia(t, urlOf(open), { query: c.query, rawVariables: c.rawVariables });
        expect(a.errors[0]?.extensions?.code, JSON.stringify(a).slice(0, 400)).toBe(c.code);
        for (const e of a.errors) {
          expect(typeof e.extensions?.code, e.message).toBe('string');
          expect(e.extensions?.code).not.toBe('INTERNAL');
        }
        expect(a.data ?? null).toBeNull();
        expect(await simCalls()).toBe(0);
      });
    }

  for (const t of TRANSPORTS)
    it(`PERSISTED_OPERATIONS=only refuses a free query · ${t}`, async () => {
      const a = await sendVia(t, urlOf(only), { query: '{ chain(id: "43114") { name } }' });
      expect(a.errors[0]?.extensions?.code, JSON.stringify(a).slice(0, 300)).toBe(
        'PERSISTED_QUERY_ONLY',
      );
      expect(a.data ?? null).toBeNull();
    });
});

describe('a persisted id from the client (documentId, doc_id) under PERSISTED_OPERATIONS=only', () => {
  // The allowlist is a Map: a client's id never reaches a prototype, is never echoed at length, and an id
  // of the wrong type is refused with a code (issue 45's manifest ids; issue 42's client-keyed maps).
  const ids: [string, unknown][] = [
    ['documentId', 'constructor'],
    ['documentId', '__proto__'],
    ['doc_id', 'hasOwnProperty'],
    ['documentId', 'x'.repeat(10_000)],
    ['documentId', { toString: 'constructor' }],
    ['doc_id', ['constructor']],
  ];
  for (const [param, id] of ids)
    it(`${param}: ${JSON.stringify(id).slice(0, 40)} → a coded refusal, no call`, async () => {
      const before = await simCalls();
      const res = await fetch(urlOf(only), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ [param]: id }),
      });
      const a = (await res.json()) as {
        data?: unknown;
        errors?: { extensions?: { code?: string } }[];
      };
      expect(a.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      expect(a.data ?? null).toBeNull();
      expect(await simCalls()).toBe(before);
    });
});

describe('graphql-ws is held like HTTP', () => {
  const raw = (url: string) => new WebSocket(url.replace(/^http/, 'ws'), 'graphql-transport-ws');
  const closed = (s: WebSocket) =>
    new Promise<number>((resolve) => s.once('close', (code) => resolve(code)));

  it('a parse error is an error on that operation; the socket and its other operations go on', async () => {
    const client = createClient({
      url: urlOf(open).replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    let closes = 0;
    client.on('closed', () => void closes++);
    try {
      const bad = await wsOn(client, { query: '{ chain(id: "43114") { name }' });
      expect(bad.errors[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
      const deep = await wsOn(client, { query: `{ chain(id: ${list(3_900)}) { name } }` });
      expect(deep.errors[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      const good = await wsOn(client, { query: '{ __typename }' });
      expect(good).toMatchObject({ errors: [], data: { __typename: 'Query' } });
      expect(closes).toBe(0);
    } finally {
      await client.dispose();
    }
  });

  it('a socket that never sends connection_init is closed (4408)', async () => {
    const s = raw(urlOf(tight));
    expect(await closed(s)).toBe(4408);
  });

  it('an idle socket after connection_init is closed', async () => {
    const s = raw(urlOf(tight));
    s.once('open', () => s.send(JSON.stringify({ type: 'connection_init' })));
    const t0 = Date.now();
    expect(await closed(s)).toBe(4000);
    expect(Date.now() - t0).toBeLessThan(3_000);
  });

  it('one client holds at most its share of sockets, and /health still answers', async () => {
    const sockets = [raw(urlOf(tight)), raw(urlOf(tight)), raw(urlOf(tight))];
    const codes = sockets.map((s) => closed(s));
    const first = await Promise.race(codes);
    expect(first).toBe(4429);
    const health = await fetch(urlOf(tight).replace('/graphql', '/health'));
    expect(health.status).toBe(200);
    for (const s of sockets) s.terminate();
  });
});

describe('graphql-ws and the Origin (cross-site websocket hijacking)', () => {
  const upgrade = (url: string, origin?: string) =>
    wsRaw(url, { query: '{ __typename }', headers: origin ? { origin } : undefined });

  it('a page of another site is refused with 403 before the upgrade, with no CORS origins (production)', async () => {
    const a = await upgrade(urlOf(open), 'https://evil.example');
    expect(a.errors).toEqual([{ message: expect.stringMatching(/403/) }]);
  });

  it('no Origin (not a browser) and the gateway’s own origin are let in', async () => {
    expect(await upgrade(urlOf(open))).toMatchObject({ errors: [], data: { __typename: 'Query' } });
    const own = `http://127.0.0.1:${open.port}`;
    expect(await upgrade(urlOf(open), own)).toMatchObject({ data: { __typename: 'Query' } });
  });

  it('CORS_ORIGINS lets its origins in and keeps the others out; `*` lets any in', async () => {
    const listed = await serve({ CORS_ORIGINS: 'https://app.example' });
    const any = await serve({ CORS_ORIGINS: '*' });
    try {
      expect(await upgrade(urlOf(listed), 'https://app.example')).toMatchObject({
        data: { __typename: 'Query' },
      });
      const other = await upgrade(urlOf(listed), 'https://app.example.evil.example');
      expect(other.errors[0]?.message).toMatch(/403/);
      expect(await upgrade(urlOf(any), 'https://elsewhere.example')).toMatchObject({
        data: { __typename: 'Query' },
      });
    } finally {
      await Promise.all([listed.shutdown('test'), any.shutdown('test')]);
    }
  });
});

describe('graphql-ws behind a trusted proxy', () => {
  it('the per-client socket cap counts the forwarded client, not the balancer', async () => {
    const gw = createTestGateway(sim, { env: { ...PROD, TRUSTED_PROXIES: 'loopback' } });
    await gw.ready();
    const server = await startHttpServer({
      gateway: gw,
      port: 0,
      host: '127.0.0.1',
      graceMs: 100,
      logger,
      ws: { maxPerClient: 2, clientOf: gw.wsClientOf },
    });
    const url = `ws://127.0.0.1:${server.port}/graphql`;
    const from = (ip: string) =>
      new WebSocket(url, 'graphql-transport-ws', { headers: { 'x-forwarded-for': ip } });
    const outcome = (s: WebSocket) =>
      new Promise<string>((resolve) => {
        s.once('close', (code) => resolve(String(code)));
        s.once('open', () => setTimeout(() => resolve('open'), 300));
      });
    // Two clients behind one balancer address: each has its own two places.
    const four = ['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2'].map(from);
    expect(await Promise.all(four.map(outcome))).toEqual(['open', 'open', 'open', 'open']);
    const third = from('203.0.113.1');
    expect(await outcome(third)).toBe('4429');
    for (const s of [...four, third]) s.terminate();
    await server.shutdown('test');
  });
});

describe('paths', () => {
  const status = (url: string, path: string) =>
    new Promise<number>((resolve, reject) => {
      const { port } = new URL(url);
      const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
  it.each(['/graphql/', '//graphql', '/graphql/../health', '/./health', '/health/'])(
    '%s is 404',
    async (path) => {
      expect(await status(urlOf(open), path)).toBe(404);
    },
  );
  it('the documented routes are served', async () => {
    expect(await status(urlOf(open), '/health')).toBe(200);
  });
});

describe('@defer', () => {
  it("an incremental answer to Node's fetch with its default accept is well-formed HTTP", async () => {
    const query =
      'query Q($n: Int = 3) { chain(id: "43114") { name ... @defer { blocks(first: $n) { edges { node { number } } } } } }';
    const res = await fetch(urlOf(open), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(res.status).toBe(200);
    expect(
      res.headers.get('content-length') !== null && res.headers.get('transfer-encoding') !== null,
    ).toBe(false);
    const text = await res.text();
    expect(text).toMatch(/"number"/);
  });
});
