import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * Issue 42: execution went on after the client disconnected (5,060 CU spent after an abort at 700 ms).
 * A request whose connection closes before its answer is out makes no further upstream call: its scope
 * is marked and its allowance goes to 0 (src/edge/use-query-cost.ts, src/upstream/allowance.ts).
 */
let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
useSimAndGateway({}, (s, g) => {
  sim = s;
  gw = g;
});
beforeAll(async () => {
  http = await serveOnLoopback(gw);
});
afterAll(async () => {
  await http?.shutdown('test');
});

const calls = () => sim.stats().total;

describe('a client that goes away stops its spending', () => {
  it('a slow chain of block look-ups aborted midway makes no call after the abort', async () => {
    const head = sim.world.chain('43114')!.head().number;
    // Ten look-ups, one after another (each parent needs the block before it), 300 ms each.
    const query = `{ block(chainId: "43114", id: "${head - 50}") { number ${'parent { number '.repeat(9)}${'} '.repeat(9)}} }`;
    sim.addFault({ route: 'data-api GET /v1/chains/:chainId/blocks/', latencyMs: 300 });
    const abort = new AbortController();
    const sent = fetch(`http://127.0.0.1:${http.port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query }),
      signal: abort.signal,
    }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 700));
    abort.abort();
    await sent;
    // The call in flight at the abort may still be answered; none is sent after it.
    const atAbort = calls();
    expect(atAbort).toBeGreaterThan(0);
    expect(atAbort).toBeLessThan(10);
    await new Promise((r) => setTimeout(r, 3_000));
    expect(calls()).toBeLessThanOrEqual(atAbort + 1);
    await gw.settled();
  }, 20_000);
});
