import { AsyncLocalStorage } from 'node:async_hooks';
import { Writable } from 'node:stream';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/telemetry/logger.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { blockFailingOnce } from '../support/sim.js';

/**
 * The request log (one JSON line per GraphQL request, with the request id the response echoes) and the
 * Prometheus metrics added for observability: upstream latency by route and status, request duration,
 * and the optional bearer token on /metrics.
 */
const SERVER_KEY = 'server-data-api-key-0001';
const CALLER_KEY = 'caller-data-api-key-0002';
const METRICS_TOKEN = 'metrics-token-0123456789';
const lines: Record<string, any>[] = [];
let sim: RunningSimulator;
let gw: TestGateway;
const destination = new Writable({
  write(chunk, _enc, done) {
    for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
    done();
  },
});

useSimAndGateway(
  {
    redis: true,
    gateway: {
      env: { DATA_API_KEY: SERVER_KEY, METRICS_TOKEN, UPSTREAM_RETRIES: '2' },
      logger: createLogger({ level: 'info', destination }),
    },
  },
  (s, g) => {
    sim = s;
    gw = g;
  },
);
beforeEach(() => {
  lines.length = 0;
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  gw.yoga.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const requestLines = () => lines.filter((l) => l.msg === 'request');

describe('the request log', () => {
  it('one info line per GraphQL request: id, operation, status, duration, upstream calls; the id is echoed', async () => {
    const res = await post(
      {
        query:
          'query TwoBlocks { chain(id: "43114") { blocks(first: 2) { edges { node { number } } } } }',
        operationName: 'TwoBlocks',
      },
      {
        'x-request-id': 'req-abc-123',
        'x-glacier-api-key': CALLER_KEY,
        authorization: 'Bearer not-a-real-admin-token',
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('req-abc-123');
    expect(((await res.json()) as any).errors).toBeUndefined();
    expect(requestLines()).toHaveLength(1);
    const [line] = requestLines();
    expect(line).toMatchObject({
      level: 'info',
      requestId: 'req-abc-123',
      method: 'POST',
      path: '/graphql',
      status: 200,
      operationName: 'TwoBlocks',
      operationType: 'query',
      upstreamCalls: sim.stats().total,
      service: 'avalanche-graphql-gateway',
    });
    expect(line!.upstreamCalls).toBeGreaterThan(0);
    // Every call here is one block (Small, 10 compute units).
    expect(line!.upstreamCu).toBe(10 * sim.stats().total);
    expect(typeof line!.durationMs).toBe('number');
    expect(line!.traceId).toBeUndefined(); // tracing is off here
    // Neither key, nor the authorization header, nor the query text is logged.
    const text = JSON.stringify(lines);
    for (const secret of [SERVER_KEY, CALLER_KEY, 'not-a-real-admin-token', 'blocks(first'])
      expect(text).not.toContain(secret);
  });

  it('a missing or unusable x-request-id is replaced by a fresh UUID, different for each request', async () => {
    const a = await post({ query: '{ __typename }' });
    const b = await post(
      { query: '{ __typename }' },
      { 'x-request-id': 'has spaces and "quotes"' },
    );
    const ids = [a.headers.get('x-request-id'), b.headers.get('x-request-id')];
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(requestLines().map((l) => l.requestId)).toEqual(ids);
    expect(requestLines().map((l) => l.upstreamCalls)).toEqual([0, 0]);
  });

  it('names the error codes of the answer, and counts retries', async () => {
    const failingOnce = await blockFailingOnce(sim, 2);
    await post({
      query: `{ a: block(chainId: "43114", id: "${failingOnce}") { number } b: block(chainId: "43114", id: "999999999999") { number } }`,
    });
    const [line] = requestLines();
    expect(line).toMatchObject({
      status: 200,
      errorCodes: ['NOT_FOUND'],
      upstreamCalls: sim.stats().total,
      upstreamRetries: 1,
    });
    expect(line!.upstreamCalls).toBe(3);
  });

  it('a request is served without AsyncLocalStorage (its promise hooks would run for every promise), its calls still counted', async () => {
    // Each way into an AsyncLocalStorage context, watched while one cold query (with a retry, and a
    // JSON-RPC batch to the node) is served.
    const proto = AsyncLocalStorage.prototype as unknown as Record<
      string,
      (...a: unknown[]) => unknown
    >;
    const entered: string[] = [];
    const originals = Object.fromEntries(
      (['run', 'enterWith'] as const).map((name) => [name, proto[name]!]),
    );
    for (const [name, original] of Object.entries(originals))
      proto[name] = function (this: unknown, ...a: unknown[]) {
        entered.push(name);
        return original.apply(this, a);
      };
    try {
      const failingOnce = await blockFailingOnce(sim, 1);
      const res = await post({
        query: `{ block(chainId: "43114", id: "${failingOnce}") { number } networkNode { cChain { chainId blockNumber gasPrice } } }`,
      });
      expect(((await res.json()) as any).errors).toBeUndefined();
    } finally {
      Object.assign(proto, originals);
    }
    expect(entered).toEqual([]);
    const [line] = requestLines();
    expect(line).toMatchObject({ upstreamCalls: sim.stats().total, upstreamRetries: 1 });
    expect(line!.upstreamCalls).toBeGreaterThanOrEqual(3);
  });

  it('probes log at debug only, yet still get a request id', async () => {
    const res = await gw.yoga.fetch('http://gateway.test/live');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(requestLines()).toEqual([]);
  });
});

describe('metrics', () => {
  const metrics = (headers: Record<string, string> = {}) =>
    gw.yoga.fetch('http://gateway.test/metrics', { headers });

  it('/metrics needs the bearer token when METRICS_TOKEN is set', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-0123456789' },
      { authorization: METRICS_TOKEN },
    ];
    for (const headers of attempts) {
      const res = await metrics(headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      expect(await res.text()).not.toContain('gateway_');
    }
    expect((await metrics({ authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
  });

  it('upstream latency is a histogram by upstream, method, route template and status; requests by status', async () => {
    const before = await (await metrics({ authorization: `Bearer ${METRICS_TOKEN}` })).text();
    const count = (text: string, series: string) =>
      Number(
        new RegExp(`^${series.replace(/[{}()[\]/.*+?^$|\\]/g, '\\$&')} (\\d+)$`, 'm').exec(
          text,
        )?.[1] ?? 0,
      );
    const okSeries =
      'gateway_upstream_request_duration_seconds_count{upstream="data-api",method="GET",route="/v1/chains/:id/transactions",status="200"}';
    const failSeries =
      'gateway_upstream_request_duration_seconds_count{upstream="data-api",method="GET",route="/v1/chains/:id/transactions",status="503"}';
    // An anonymous operation: one label value for all of them (per-operation names: operation-metrics.test.ts).
    const requests =
      'gateway_graphql_request_duration_seconds_count{status="200",operation="other"}';

    sim.addFault({
      route: 'data-api GET /v1/chains/:chainId/transactions',
      status: 503,
      body: { message: 'down', statusCode: 503, error: 'Service Unavailable' },
      count: 1,
    });
    const r = await gw.query(
      '{ chain(id: "43114") { transactions(first: 1) { edges { node { hash } } } } }',
    );
    expect(r.errors).toBeUndefined();
    const after = await (await metrics({ authorization: `Bearer ${METRICS_TOKEN}` })).text();
    expect(count(after, failSeries) - count(before, failSeries)).toBe(1);
    expect(count(after, okSeries) - count(before, okSeries)).toBe(1);
    expect(count(after, requests) - count(before, requests)).toBe(1);
    expect(after).toContain(
      'gateway_upstream_request_duration_seconds_bucket{le="0.005",upstream="data-api",method="GET",route="/v1/chains/:id/transactions",status="200"}',
    );
    // Route labels are templates: no concrete chain id, address or hash ever becomes a label value.
    const routes = [...after.matchAll(/route="([^"]*)"/g)].map((m) => m[1]!);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) expect(route).not.toMatch(/\d{3,}|0x/);
  });
});
