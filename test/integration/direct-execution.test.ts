import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { createTestGateway, type TestGateway, useSimulator } from '../support/gateway.js';

/**
 * Direct execution (src/http/direct.ts): a plain query POST is executed by Yoga's GraphQL layer without
 * its HTTP layer. Every request of the corpus below is sent to two gateways on one simulator, with the
 * same clock and cold caches: one answers it directly, the other through Yoga's whole pipeline
 * (`DIRECT_EXECUTION=false`). Status, headers and body must be the same: success, resolver errors,
 * refusals of every layer (parse, validation, introspection off, limits, cost, variables), credentials,
 * `If-None-Match`, media types, operation names.
 */
let sim: RunningSimulator;
const NOW = Date.parse('2026-11-26T12:00:00Z');
const ENV = {
  NODE_ENV: 'production',
  CURSOR_SECRET: 'test-cursor-secret-0123456789-abcdef',
  MAX_QUERY_COST: '40',
};
let direct: TestGateway;
let viaYoga: TestGateway;

useSimulator({}, (s) => {
  sim = s;
});
beforeAll(async () => {
  direct = createTestGateway(sim, { env: ENV, now: () => NOW });
  viaYoga = createTestGateway(sim, { env: { ...ENV, DIRECT_EXECUTION: 'false' }, now: () => NOW });
  await direct.ready();
  await viaYoga.ready();
});
afterAll(async () => {
  await direct?.close();
  await viaYoga?.close();
});

interface Sent {
  body: unknown;
  headers?: Record<string, string>;
}

const BASE = {
  'content-type': 'application/json',
  accept: 'application/json',
  'x-request-id': 'parity-1',
};

/** The direct answer (undefined when the fast path leaves the request to Yoga). */
async function directly(s: Sent) {
  const text = JSON.stringify(s.body);
  const headers: Record<string, string> = { host: 'gateway.test', ...BASE };
  for (const [k, v] of Object.entries(s.headers ?? {})) headers[k.toLowerCase()] = v;
  headers['content-length'] = String(Buffer.byteLength(text));
  const a = await direct.fastPath?.answer({
    method: 'POST',
    url: '/graphql',
    headers,
    body: Buffer.from(text),
  });
  if (!a) return undefined;
  return { status: a.status, headers: a.headers, body: a.body ?? '' };
}

async function throughYoga(s: Sent) {
  expect(viaYoga.fastPath).toBeUndefined();
  const res = await viaYoga.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { ...BASE, ...s.headers },
    body: JSON.stringify(s.body),
  });
  const headers = Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v]));
  return { status: res.status, headers, body: await res.text() };
}

const block = () => String(sim.world.fixtures.blockNumber);
const BLOCK = `query B($id: String!) { block(chainId: "43114", id: $id) { hash number
  transactions(first: 3) { edges { node { hash value } } } } }`;

const corpus: [string, () => Sent][] = [
  ['a block with its transactions', () => ({ body: { query: BLOCK, variables: { id: block() } } })],
  [
    'a missing block (a resolver error, data null)',
    () => ({ body: { query: BLOCK, variables: { id: '999999999' } } }),
  ],
  ['a syntax error', () => ({ body: { query: '{ block(' } })],
  ['an unknown field', () => ({ body: { query: '{ nope }' } })],
  [
    'introspection, off in production',
    () => ({ body: { query: '{ __schema { queryType { name } } }' } }),
  ],
  ['a variable of the wrong type', () => ({ body: { query: BLOCK, variables: { id: 12 } } })],
  ['a missing variable', () => ({ body: { query: BLOCK } })],
  [
    'a malformed argument (argument checks)',
    () => ({ body: { query: '{ block(chainId: "not-a-chain", id: "1") { hash } }' } }),
  ],
  [
    'over the cost limit',
    () => ({
      body: {
        query: `{ chain(id: "43114") { blocks(first: 50) { edges { node { transactions(first: 50) { edges { node { hash } } } } } } } }`,
      },
    }),
  ],
  [
    'deeper than the nesting limit',
    () => ({ body: { query: `{${'a {'.repeat(200)}${'}'.repeat(200)}}` } }),
  ],
  [
    'a caller key (private, no-store)',
    () => ({
      body: { query: BLOCK, variables: { id: block() } },
      headers: { 'x-glacier-api-key': 'caller-key' },
    }),
  ],
  [
    'graphql-response+json with a validation error',
    () => ({
      body: { query: '{ nope }' },
      headers: { accept: 'application/graphql-response+json' },
    }),
  ],
  [
    'an operation chosen by name',
    () => ({
      body: {
        query: `${BLOCK} query Other { __typename }`,
        operationName: 'Other',
      },
    }),
  ],
  [
    'an operation name that is not in the document',
    () => ({ body: { query: `${BLOCK} query Other { __typename }`, operationName: 'Missing' } }),
  ],
  [
    'a mutation (the upstream refuses its message)',
    () => ({
      body: {
        query:
          'mutation { aggregateSignatures(network: "mainnet", message: "0x00") { signedMessage } }',
      },
    }),
  ],
  ['a subscription over plain JSON', () => ({ body: { query: 'subscription { __typename }' } })],
  [
    '@defer asked of a JSON-only client',
    () => ({
      body: {
        query: `query B($id: String!) { block(chainId: "43114", id: $id) { hash ... @defer { number } } }`,
        variables: { id: block() },
      },
    }),
  ],
  [
    'null variables and operation name',
    () => ({ body: { query: '{ __typename }', variables: null, operationName: null } }),
  ],
];

describe('direct execution answers as Yoga does', () => {
  it.each(corpus)('%s', async (_name, make) => {
    const s = make();
    const d = await directly(s);
    expect(d, 'the fast path took the request').toBeDefined();
    const y = await throughYoga(s);
    expect(d!.status).toBe(y.status);
    // Each upstream answer carries its own request id; everything else must be the same bytes.
    const sameId = (body: string) =>
      body.replace(/"upstreamRequestId":"[^"]*"/g, '"upstreamRequestId":"<id>"');
    expect(sameId(d!.body)).toBe(sameId(y.body));
    // …and the ETag of those bytes differs with the id too.
    const idFree = (h: Record<string, string>) =>
      /"upstreamRequestId"/.test(d!.body) ? { ...h, etag: '<etag of the body>' } : h;
    expect(idFree(d!.headers)).toEqual(idFree(y.headers));
  });

  it('answers If-None-Match with the same 304', async () => {
    const s = { body: { query: BLOCK, variables: { id: block() } } };
    const first = await directly(s);
    const etag = first!.headers.etag!;
    const again = { ...s, headers: { 'if-none-match': etag } };
    const d = await directly(again);
    const y = await throughYoga(again);
    expect(d!.status).toBe(304);
    expect(y.status).toBe(304);
    // Each upstream answer carries its own request id; everything else must be the same bytes.
    const sameId = (body: string) =>
      body.replace(/"upstreamRequestId":"[^"]*"/g, '"upstreamRequestId":"<id>"');
    expect(sameId(d!.body)).toBe(sameId(y.body));
    expect(d!.headers).toEqual(y.headers);
  });

  it('leaves to Yoga what it does not take: extensions, unknown parameters, an Origin, a query string', async () => {
    const take = (body: unknown, headers: Record<string, string> = {}) =>
      directly({ body, headers });
    expect(await take({ query: '{ __typename }', extensions: {} })).toBeUndefined();
    expect(await take({ query: '{ __typename }', extra: 1 })).toBeUndefined();
    expect(await take({ query: '{ __typename }', variables: [1] })).toBeUndefined();
    expect(await take({ query: '' })).toBeUndefined();
    expect(
      await take({ query: '{ __typename }' }, { origin: 'https://app.example' }),
    ).toBeUndefined();
    expect(
      await take({ query: '{ __typename }' }, { accept: 'text/event-stream' }),
    ).toBeUndefined();
    // A query string: Yoga's route plugins match the end of the whole URL.
    const text = JSON.stringify({ query: '{ __typename }' });
    const withQueryString = await direct.fastPath?.answer({
      method: 'POST',
      url: '/graphql?x=/live',
      headers: { ...BASE, 'content-length': String(text.length) },
      body: Buffer.from(text),
    });
    expect(withQueryString).toBeUndefined();
  });
});

/** The gateway on a loopback HTTP server, as `npm start` serves it (fast path, then Yoga). */
const serve = (gateway: Parameters<typeof startHttpServer>[0]['gateway']) =>
  startHttpServer({
    gateway,
    websockets: false,
    port: 0,
    host: '127.0.0.1',
    graceMs: 100,
    logger: createLogger({ level: 'silent' }),
  });

describe('over HTTP', () => {
  let http: RunningHttpServer;
  let yogaCalls = 0;
  beforeAll(async () => {
    // Yoga wrapped, to count the requests the server hands it.
    const yoga = Object.assign(
      (...a: Parameters<TestGateway['yoga']>) => {
        yogaCalls++;
        return direct.yoga(...a);
      },
      { graphqlEndpoint: direct.yoga.graphqlEndpoint },
    ) as unknown as TestGateway['yoga'];
    http = await serve({ yoga, fastPath: direct.fastPath, close: async () => {} });
  });
  afterAll(() => http?.shutdown('test'));

  it('a plain query POST never reaches Yoga; a GET does', async () => {
    const url = `http://127.0.0.1:${http.port}/graphql`;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: BLOCK, variables: { id: block() } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { block: { hash: string } } }).data.block.hash).toMatch(
      /^0x/,
    );
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('etag')).toMatch(/^W\//);
    expect(yogaCalls).toBe(0);
    const get = await fetch(`${url}?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' },
    });
    expect(get.status).toBe(200);
    await get.text();
    expect(yogaCalls).toBe(1);
  });
});

describe('a request that ran is answered where it ran', () => {
  let http: RunningHttpServer;
  let gw: TestGateway;
  beforeAll(async () => {
    // A logger that fails as the answer is logged: after the request ran, before it is answered.
    const logger = createLogger({ level: 'silent' });
    logger.info = (() => {
      throw new Error('the log is down');
    }) as typeof logger.info;
    gw = createTestGateway(sim, { env: ENV, now: () => NOW, logger });
    http = await serve(gw);
  });
  afterAll(() => http?.shutdown('test'));

  it('a mutation whose answer fails is answered 500, and reaches the upstream once (never run again by Yoga)', async () => {
    const route = 'data-api POST /v1/signatureAggregator/:network/aggregateSignatures';
    const before = sim.stats().byRoute[route] ?? 0;
    const res = await fetch(`http://127.0.0.1:${http.port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        query: `mutation { aggregateSignatures(network: "mainnet", justification: "0001abcdabcfff") { signedMessage } }`,
      }),
    });
    expect(res.status).toBe(500);
    expect(
      ((await res.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions
        .code,
    ).toBe('INTERNAL');
    expect((sim.stats().byRoute[route] ?? 0) - before).toBe(1);
  });
});
