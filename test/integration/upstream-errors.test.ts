import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { codes, createTestGateway, useSimulator } from '../support/gateway.js';
import { simGet } from '../support/sim.js';

const BLOCK_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId';
let sim: RunningSimulator;
/** Block numbers that exist: the simulator's chain starts far from genesis, like the real one. */
let n: (back: number) => string;

const { gateway } = useSimulator({}, async (s) => {
  sim = s;
  const head = Number(
    (await simGet(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 })).blocks[0]
      .blockNumber,
  );
  n = (back) => String(head - back);
});

const calls = (route: string) => sim.stats().byRoute[route] ?? 0;

describe('upstream failures become typed GraphQL errors', () => {
  it('404 gives NOT_FOUND for that field while its siblings still answer', async () => {
    const gw = gateway();
    const r = await gw.query(
      `{ missing: block(chainId: "43114", id: "999999999") { number } present: block(chainId: "43114", id: "${n(1)}") { number } }`,
    );
    expect(r.data).toEqual({ missing: null, present: { number: n(1) } });
    expect(codes(r)).toEqual(['NOT_FOUND']);
    expect(r.errors![0]!.path).toEqual(['missing']);
    expect(r.errors![0]!.extensions).toMatchObject({ upstream: 'data-api', upstreamStatus: 404 });
  });

  it('503 gives UPSTREAM_UNAVAILABLE after a bounded number of retries', async () => {
    const gw = gateway({ env: { UPSTREAM_RETRIES: '2' } });
    sim.addFault({
      route: BLOCK_ROUTE,
      status: 503,
      body: { message: 'node down', statusCode: 503, error: 'Service Unavailable' },
    });
    const r = await gw.query(`{ block(chainId: "43114", id: "${n(2)}") { number } }`);
    expect(r.data).toEqual({ block: null });
    expect(codes(r)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(calls(BLOCK_ROUTE)).toBe(3);
    sim.clearFaults();
  });

  it('429 with retry-after is honoured: the retry waits, then succeeds', async () => {
    const gw = gateway();
    sim.addFault({
      route: BLOCK_ROUTE,
      status: 429,
      headers: { 'retry-after': '1' },
      count: 1,
      body: { message: 'Too many', statusCode: 429, error: 'Too Many Requests' },
    });
    const started = Date.now();
    const r = await gw.query(`{ block(chainId: "43114", id: "${n(3)}") { number } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ block: { number: n(3) } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(calls(BLOCK_ROUTE)).toBe(2);
  });

  it('a retry-after longer than we will wait gives RATE_LIMITED at once, with the wait in extensions', async () => {
    const gw = gateway({ env: { MAX_RETRY_AFTER_MS: '1000' } });
    sim.addFault({
      route: BLOCK_ROUTE,
      status: 429,
      headers: { 'retry-after': '30' },
      count: 1,
      body: { message: 'Too many', statusCode: 429, error: 'Too Many Requests' },
    });
    const r = await gw.query(`{ block(chainId: "43114", id: "${n(4)}") { number } }`);
    expect(codes(r)).toEqual(['RATE_LIMITED']);
    expect(r.errors![0]!.extensions!.retryAfterSec).toBe(30);
    expect(calls(BLOCK_ROUTE)).toBe(1);
  });

  it('a malformed upstream body is UPSTREAM_ERROR, never a crash', async () => {
    const gw = gateway();
    sim.addFault({ route: BLOCK_ROUTE, malformed: true, count: 1 });
    const r = await gw.query(`{ block(chainId: "43114", id: "${n(5)}") { number } }`);
    expect(codes(r)).toEqual(['UPSTREAM_ERROR']);
  });

  it('an upstream answer that breaks the contract is UPSTREAM_ERROR naming the field', async () => {
    const gw = gateway();
    sim.addFault({
      route: BLOCK_ROUTE,
      status: 200,
      body: { blockNumber: 6, blockHash: '0x' },
      count: 1,
    });
    const r = await gw.query(`{ block(chainId: "43114", id: "${n(6)}") { number } }`);
    expect(codes(r)).toEqual(['UPSTREAM_ERROR']);
    expect(r.errors![0]!.message).toMatch(/does not fit its contract/);
  });

  it("an upstream's own text never reaches the client: our message, its code and status; the text goes to the log", async () => {
    const logged: string[] = [];
    const { createLogger } = await import('../../src/telemetry/logger.js');
    const logger = createLogger({
      level: 'warn',
      destination: { write: (l: string) => void logged.push(l) },
    });
    const gw = gateway({ logger, env: { LOG_LEVEL: 'warn' } });
    const secret =
      'see http://10.0.0.7:8080/internal?key=sk_live_abc123 at Object.<anonymous> (/srv/app/x.js:1:2)';
    sim.addFault({
      route: BLOCK_ROUTE,
      status: 400,
      count: 1,
      body: { message: secret, statusCode: 400, error: 'Bad Request' },
    });
    const a = await gw.query(`{ block(chainId: "43114", id: "${n(8)}") { number } }`);
    sim.addFault({
      route: BLOCK_ROUTE,
      status: 404,
      count: 1,
      body: `<html><body>${secret}</body></html>`,
    });
    const b = await gw.query(`{ block(chainId: "43114", id: "${n(9)}") { number } }`);
    sim.clearFaults();
    for (const r of [a, b]) {
      expect(JSON.stringify(r)).not.toMatch(/10\.0\.0\.7|sk_live|anonymous|html/);
      expect(r.errors![0]!.extensions).toMatchObject({ upstream: 'data-api' });
    }
    expect(codes(a)).toEqual(['BAD_USER_INPUT']);
    expect(a.errors![0]!.extensions!.upstreamStatus).toBe(400);
    expect(codes(b)).toEqual(['NOT_FOUND']);
    expect(logged.join('')).toMatch(/sk_live_abc123/);
  });

  it("an upstream error carries the upstream's status and request id in extensions, and the log line the same id", async () => {
    const logged: string[] = [];
    const { createLogger } = await import('../../src/telemetry/logger.js');
    const logger = createLogger({
      level: 'warn',
      destination: { write: (l: string) => void logged.push(l) },
    });
    const gw = gateway({
      logger,
      env: { LOG_LEVEL: 'warn', UPSTREAM_RETRIES: '0' },
    });
    // The simulator's own id on every answer (x-request-id, as a load balancer adds it).
    sim.addFault({
      route: BLOCK_ROUTE,
      status: 500,
      count: 1,
      body: { message: 'db pool exhausted at 10.1.2.3', statusCode: 500, error: 'Internal' },
    });
    const a = await gw.query(`{ block(chainId: "43114", id: "${n(10)}") { number } }`);
    const idA = a.errors![0]!.extensions!.upstreamRequestId;
    expect(a.errors![0]!.extensions).toMatchObject({ upstream: 'data-api', upstreamStatus: 500 });
    expect(idA).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(a)).not.toMatch(/10\.1\.2\.3/);
    const line = logged.map((l) => JSON.parse(l)).find((l) => l.msg === 'upstream error');
    expect(line).toMatchObject({ requestId: idA, status: 500 });
    expect(line.upstreamMessage).toMatch(/10\.1\.2\.3/);
    // An id header that does not look like an id is not shown; AWS's header is read next.
    sim.addFault({
      route: BLOCK_ROUTE,
      status: 404,
      count: 1,
      headers: { 'x-request-id': '<b>not an id</b>', 'x-amzn-requestid': 'c0ffee-42' },
      body: { message: 'Not found', statusCode: 404, error: 'Not Found' },
    });
    const b = await gw.query(`{ block(chainId: "43114", id: "${n(11)}") { number } }`);
    sim.clearFaults();
    expect(codes(b)).toEqual(['NOT_FOUND']);
    expect(b.errors![0]!.extensions).toMatchObject({
      upstreamStatus: 404,
      upstreamRequestId: 'c0ffee-42',
    });
  });

  it('a connection reset is retried, then UPSTREAM_UNAVAILABLE', async () => {
    const gw = gateway({ env: { UPSTREAM_RETRIES: '1' } });
    sim.addFault({ route: BLOCK_ROUTE, reset: true, count: 2 });
    const r = await gw.query(`{ block(chainId: "43114", id: "${n(7)}") { number } }`);
    expect(codes(r)).toEqual(['UPSTREAM_UNAVAILABLE']);
  });

  it('bad input is refused before any upstream call, naming the argument', async () => {
    const gw = gateway();
    const r = await gw.query(
      `{ a: block(chainId: "x43114", id: "${n(1)}") { number } b: block(chainId: "43114", id: "0xzz") { number } c: chain(id: "") { name } }`,
    );
    expect(codes(r)).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT', 'BAD_USER_INPUT']);
    expect(r.errors!.map((e) => e.extensions!.argument).sort()).toEqual(['chainId', 'id', 'id']);
    expect(sim.stats().total).toBe(0);
  });

  it('variables of the wrong type and unknown enum values are BAD_USER_INPUT too', async () => {
    const gw = gateway();
    const wrongType = await gw.query(
      `query($f: Int) { chain(id: "43114") { blocks(first: $f) { edges { cursor } } } }`,
      { f: 'ten' },
    );
    const badEnum = await gw.query(
      `query($s: TransactionStatus) { chain(id: "43114") { transactions(first: 1, status: $s) { edges { cursor } } } }`,
      { s: 'MAYBE' },
    );
    expect(codes(wrongType)).toEqual(['BAD_USER_INPUT']);
    expect(codes(badEnum)).toEqual(['BAD_USER_INPUT']);
    expect(sim.stats().total).toBe(0);
  });

  it('a query that would fan out into hundreds of upstream calls is refused before any of them', async () => {
    const gw = gateway();
    const huge = await gw.query(
      `{ chain(id: "43114") { blocks(first: 500) { edges { node { transactions(first: 500) { edges { node { hash } } } } } } } }`,
    );
    expect(huge.data).toBeUndefined();
    expect(huge.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'QUERY_TOO_COMPLEX',
      limit: 6_000,
    });
    const deep = await gateway({ env: { MAX_QUERY_DEPTH: '4' } }).query(
      `{ block(chainId: "43114", id: "${n(1)}") { parent { parent { parent { number } } } } }`,
    );
    expect(deep.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'QUERY_TOO_COMPLEX',
    });
    expect(sim.stats().total).toBe(0);
    // the foundation's own query (20 blocks, 5 transactions each) is far below the limit
    const ok = await gw.query(
      `{ chain(id: "43114") { blocks(first: 20) { edges { node { number transactions(first: 5) { edges { node { hash } } } } } } } }`,
    );
    expect(ok.errors).toBeUndefined();
  });

  it('unknown chains are NOT_FOUND from the upstream', async () => {
    const gw = gateway();
    const r = await gw.query(`{ chain(id: "999999") { name } }`);
    expect(codes(r)).toEqual(['NOT_FOUND']);
  });
});

describe('npm start against unreachable public endpoints', () => {
  it('answers a clear error per field instead of failing the request', async () => {
    const gw = createTestGateway(
      {
        dataApiUrl: 'http://127.0.0.1:9/data-api',
        metricsApiUrl: 'http://127.0.0.1:9/m',
        nodeUrl: 'http://127.0.0.1:9',
      },
      { env: { UPSTREAM_RETRIES: '0' } },
    );
    const r = await gw.query(
      `{ chain(id: "43114") { name } block(chainId: "43114", id: "${n(1)}") { number } }`,
    );
    expect(r.data).toEqual({ chain: null, block: null });
    expect(codes(r)).toEqual(['UPSTREAM_UNAVAILABLE', 'UPSTREAM_UNAVAILABLE']);
  });
});
