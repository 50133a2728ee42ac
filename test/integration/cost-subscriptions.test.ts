import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { eventually, sseSubscribe, wsSubscribe } from '../support/live-clients.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * Issue 32, item 3: a subscription is priced when it starts (refused over MAX_QUERY_COST like the same
 * selection as a query), charged to the client's budget then and per delivered event, and every event
 * carries `extensions.cost`; over SSE and graphql-ws alike.
 */
let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let url: string;
/** Six events' worth: a block (10 CU) and its transactions' first page (20 CU) each. */
const EVENT_CU = 30;
const BUDGET = 6 * EVENT_CU;

useSimAndGateway(
  {
    redis: true,
    live: { CLIENT_BUDGET_PER_MINUTE: String(BUDGET) },
  },
  (s, g) => {
    sim = s;
    gw = g;
  },
);
beforeAll(async () => {
  http = await serveOnLoopback(gw);
  url = `http://127.0.0.1:${http.port}/graphql`;
  await eventually(() => expect(sim.socketStats().subscriptions).toBe(1));
  const current = String(sim.world.chain('43114')!.head().number);
  await eventually(() => expect(gw.live!.head('43114')?.number).toBe(current));
});
afterAll(async () => {
  await http?.shutdown('test');
});

const advance = () =>
  fetch(`${sim.url}/_sim/advance`, {
    method: 'POST',
    body: JSON.stringify({ chainId: '43114', blocks: 1 }),
  });
const times = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i)).join(' ');
const FAN_OUT = `subscription { newBlocks(chainId: "43114") { ${times(
  6,
  (i) => `t${i}: transactions(first: 100) { edges { node { block { number } } } }`,
)} } }`;
const codesOf = (events: any[]) =>
  events
    .flatMap((e) => e.errors ?? (Array.isArray(e.error) ? e.error : []))
    .map((e: any) => e.extensions?.code);

describe('subscriptions are priced and charged', () => {
  it('a selection refused as a query is refused as a subscription, over SSE and graphql-ws', async () => {
    const asQuery = await gw.query(
      FAN_OUT.replace('subscription', 'query').replace(
        'newBlocks(chainId: "43114")',
        'block(chainId: "43114", id: "1")',
      ),
    );
    expect(asQuery.errors?.[0]?.extensions?.reason).toBe('QUERY_TOO_COMPLEX');
    const sse = sseSubscribe(url, FAN_OUT);
    const ws = wsSubscribe(url, FAN_OUT);
    await eventually(() => {
      expect(codesOf(sse.events)).toEqual(['BAD_USER_INPUT']);
      expect(codesOf(ws.events)).toEqual(['BAD_USER_INPUT']);
    });
    expect(sse.events[0].errors[0].extensions.reason).toBe('QUERY_TOO_COMPLEX');
    expect(gw.live!.subscriberCount()).toBe(0);
    sse.close();
    await ws.close();
  });

  it('every event carries extensions.cost and is charged; the event that finds the budget spent ends it', async () => {
    const q =
      'subscription { newBlocks(chainId: "43114") { number transactions(first: 1) { edges { node { hash } } } } }';
    const sse = sseSubscribe(url, q);
    await eventually(() => expect(gw.live!.subscriberCount()).toBe(1));
    // Each event's estimate is charged before it runs (the charge at subscribe pays for the first) and
    // settled to what it spent: EVENT_CU an event, so the budget pays for six.
    for (let i = 0; i < 8; i++) await advance();
    await eventually(() => expect(codesOf(sse.events)).toContain('RATE_LIMITED'), 20_000);
    const delivered = sse.events.filter((e) => e.data?.newBlocks);
    expect(delivered.length).toBe(BUDGET / EVENT_CU);
    for (const e of delivered) expect(typeof e.extensions.cost.spentCu).toBe('number');
    const remaining = delivered.map((e) => e.extensions.cost.budget.remaining);
    expect(remaining).toEqual([...remaining].sort((a, b) => b - a));
    for (const e of delivered) expect(e.extensions.cost.estimatedCU).toBe(EVENT_CU);
    await eventually(() => expect(gw.live!.subscriberCount()).toBe(0));
    sse.close();
  });
});
