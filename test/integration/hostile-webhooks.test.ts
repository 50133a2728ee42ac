import { randomBytes } from 'node:crypto';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { signBody } from '../../src/live/webhook-payload.js';
import {
  createTestGateway,
  productionWithLive,
  type TestGateway,
  useSimAndGateway,
} from '../support/gateway.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * The hostile table of the webhook route (`/webhooks/data-api`, issue 36), as test/integration/hostile.test.ts
 * holds it for `/graphql`: a production gateway served as the process serves it, each request with the
 * status and `extensions.code` it must get and no upstream call (the shared-secret read aside). Nothing
 * reaching this route executes GraphQL or answers 5xx.
 */
interface Row {
  name: string;
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Sign the body with the simulator's shared secret. */
  signed?: boolean;
  /** Send the body as a stream (no content-length). */
  chunked?: boolean;
  status: number;
  code: string;
}

const PATH = '/webhooks/data-api';
const delivery = (o: Record<string, unknown> = {}) =>
  JSON.stringify({
    webhookId: 'not-one-of-ours',
    eventType: 'address_activity',
    messageId: 'm-1',
    event: {
      transaction: {
        blockHash: `0x${'11'.repeat(32)}`,
        blockNumber: '5',
        from: `0x${'22'.repeat(20)}`,
        to: `0x${'33'.repeat(20)}`,
        txHash: `0x${'44'.repeat(32)}`,
        transactionIndex: 0,
        value: '1',
        blockTimestamp: 1,
        erc20Transfers: [],
        erc721Transfers: [],
        erc1155Transfers: [],
      },
    },
    ...o,
  });
const json = { 'content-type': 'application/json' };
const big = 'x'.repeat(1_100_000);

const rows: Row[] = [
  { name: 'GET', method: 'GET', status: 405, code: 'METHOD_NOT_ALLOWED' },
  { name: 'HEAD-like DELETE', method: 'DELETE', status: 405, code: 'METHOD_NOT_ALLOWED' },
  {
    name: 'PUT',
    method: 'PUT',
    body: delivery(),
    headers: json,
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
  },
  { name: 'OPTIONS', method: 'OPTIONS', status: 405, code: 'METHOD_NOT_ALLOWED' },
  {
    name: 'text/plain',
    body: delivery(),
    headers: { 'content-type': 'text/plain' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'form body',
    body: 'a=1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'unsigned delivery',
    body: delivery(),
    headers: json,
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'empty signature',
    body: delivery(),
    headers: { ...json, 'x-signature': '' },
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'a random signature',
    body: delivery(),
    headers: { ...json, 'x-signature': randomBytes(32).toString('base64') },
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'a signature not base64',
    body: delivery(),
    headers: { ...json, 'x-signature': '!!!***' },
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'an 8 KB signature',
    body: delivery(),
    headers: { ...json, 'x-signature': 'A'.repeat(8_000) },
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'a hex signature of the right HMAC length',
    body: delivery(),
    headers: { ...json, 'x-signature': 'ab'.repeat(32) },
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'a GraphQL operation, unsigned: never executed',
    body: JSON.stringify({ query: '{ chains { chainId } }' }),
    headers: json,
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'body over MAX_BODY_BYTES (content-length)',
    body: big,
    headers: json,
    status: 413,
    code: 'REQUEST_ENTITY_TOO_LARGE',
  },
  {
    name: 'body over MAX_BODY_BYTES (chunked)',
    body: big,
    chunked: true,
    headers: json,
    status: 413,
    code: 'REQUEST_ENTITY_TOO_LARGE',
  },
  {
    name: 'trailing slash',
    path: `${PATH}/`,
    body: delivery(),
    headers: json,
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'double slash',
    path: `/webhooks//data-api`,
    body: delivery(),
    headers: json,
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'encoded slash',
    path: '/webhooks%2Fdata-api',
    body: delivery(),
    headers: json,
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: 'a query string is ignored (still unsigned)',
    path: `${PATH}?signed=1`,
    body: delivery(),
    headers: json,
    status: 401,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'signed, not JSON',
    body: '{"webhookId":',
    signed: true,
    headers: json,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'signed, a JSON array',
    body: '[1,2]',
    signed: true,
    headers: json,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'signed, another event type',
    body: delivery({ eventType: 'validator_activity' }),
    signed: true,
    headers: json,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'signed, a malformed tx hash',
    body: delivery({ event: { transaction: { txHash: 'x' } } }),
    signed: true,
    headers: json,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'signed, deeply nested',
    body: `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
    signed: true,
    headers: json,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'signed, 2,000 transfers',
    body: delivery({ event: { transaction: { erc20Transfers: Array(2_000).fill({}) } } }),
    signed: true,
    headers: json,
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'signed, a webhook id that is not ours',
    body: delivery(),
    signed: true,
    headers: json,
    status: 404,
    code: 'NOT_FOUND',
  },
];

let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let base: string;
let redisUrl: string;

useSimAndGateway(
  {
    redis: true,
    gateway: (s) => ({
      env: productionWithLive(s),
    }),
  },
  (s, g, r) => {
    sim = s;
    gw = g;
    redisUrl = r;
  },
);
beforeAll(async () => {
  http = await serveOnLoopback(gw);
  base = `http://127.0.0.1:${http.port}`;
  // The shared secret is read at start; a delivery before it is answered 503 (the Data API retries).
  await vi.waitFor(
    async () => {
      const r = await fetch(`${base}${PATH}`, {
        method: 'POST',
        headers: { ...json, 'x-signature': 'x' },
        body: '{}',
      });
      expect(r.status).toBe(401);
    },
    { timeout: 5_000, interval: 50 },
  );
}, 60_000);
afterAll(async () => {
  await http?.shutdown('test');
});

/** Data API and Metrics API calls (the node's websocket and the secret read are the live source's own). */
const upstreamCalls = () =>
  Object.entries(sim.stats().byRoute)
    .filter(([k]) => !k.startsWith('node ') && !k.includes('getSharedSecret'))
    .reduce((n, [, v]) => n + v, 0);

describe('hostile requests to the webhook route', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    sim.reset();
    const headers = { ...row.headers };
    if (row.signed && row.body !== undefined)
      headers['x-signature'] = signBody(sim.webhooks.secret, row.body);
    const body =
      row.chunked && row.body !== undefined
        ? new ReadableStream({
            start(c) {
              c.enqueue(new TextEncoder().encode(row.body));
              c.close();
            },
          })
        : row.body;
    const res = await fetch(`${base}${row.path ?? PATH}`, {
      method: row.method ?? 'POST',
      headers,
      body,
      ...(row.chunked ? { duplex: 'half' } : {}),
    } as RequestInit);
    const text = await res.text();
    const errors =
      (JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] }).errors ?? [];
    expect({ status: res.status, code: errors[0]?.extensions?.code }, text.slice(0, 300)).toEqual({
      status: row.status,
      code: row.code,
    });
    expect(upstreamCalls()).toBe(0);
  });

  it('the gateway is still alive and answers GraphQL afterwards', async () => {
    expect((await fetch(`${base}/health`)).status).toBe(200);
    const r = await gw.query('{ chain(id: "43114") { chainId } }');
    expect(r.data).toEqual({ chain: { chainId: '43114' } });
  });
});

describe('while the shared secret cannot be read (issue 42, item 5)', () => {
  const SECRET_ROUTE = 'data-api GET /v1/webhooks:getSharedSecret';
  const secretReads = () => sim.stats().byRoute[SECRET_ROUTE] ?? 0;

  it('junk-signed POSTs are refused 503 without a secret read each; the read stays background work', async () => {
    sim.addFault({
      route: SECRET_ROUTE,
      status: 503,
      body: { message: 'Service Unavailable', statusCode: 503, error: 'Service Unavailable' },
    });
    // One HTTP attempt per read, so the simulator's count is the reads' count.
    const blind = createTestGateway(sim, {
      env: { ...productionWithLive(sim), UPSTREAM_RETRIES: '0' },
      redisUrl,
    });
    await blind.ready();
    const server = await serveOnLoopback(blind);
    try {
      const url = `http://127.0.0.1:${server.port}${PATH}`;
      // The read at start has failed: no secret is known.
      await vi.waitFor(() => expect(secretReads()).toBeGreaterThanOrEqual(1), { timeout: 3_000 });
      const before = secretReads();
      const started = Date.now();
      const statuses = new Map<string, number>();
      // Eight waves of 50 (before the fix each wave waited on a read of its own: 8 reads or more).
      for (let wave = 0; wave < 8; wave++) {
        const answers = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            fetch(url, {
              method: 'POST',
              headers: { ...json, 'x-signature': `junk-${wave}-${i}` },
              body: delivery({ messageId: `junk-${wave}-${i}` }),
            }).then(async (r) => {
              const body = (await r.json()) as { errors: { extensions: { code: string } }[] };
              return `${r.status} ${body.errors[0]!.extensions.code}`;
            }),
          ),
        );
        for (const a of answers) statuses.set(a, (statuses.get(a) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ '503 UNAVAILABLE': 400 });
      // Only the reader's own retries (5 s after the first failure, then 10 s, 20 s…) fell into the flood.
      expect(secretReads() - before).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 5_000));
      // Once the Data API answers again, the background reader picks the secret up on its own.
      sim.clearFaults();
      const body = delivery({ messageId: 'after-recovery' });
      await vi.waitFor(
        async () => {
          const r = await fetch(url, {
            method: 'POST',
            headers: { ...json, 'x-signature': signBody(sim.webhooks.secret, body) },
            body,
          });
          expect(r.status).toBe(404); // signed and checked: a webhook id that is not ours
        },
        { timeout: 20_000, interval: 500 },
      );
    } finally {
      sim.clearFaults();
      await server.shutdown('test');
      await blind.close();
    }
  }, 40_000);
});
