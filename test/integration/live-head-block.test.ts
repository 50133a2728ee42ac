import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { eventually, sseSubscribe } from '../support/live-clients.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * newBlocks while the Data API has no answer for the head's block (it fails, or has not indexed it):
 * what the node's header holds is served, what only the Data API holds is an error with its code,
 * never a made-up zero.
 */
const HEADER = 'subscription { newBlocks(chainId: "43114") { number hash parentHash gasUsed } }';
const INDEXED =
  'subscription { newBlocks(chainId: "43114") { number gasCost feesSpent cumulativeTransactions } }';

let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let url: string;

useSimAndGateway(
  {
    redis: true,
    gateway: (s) => ({
      env: { LIVE_WS: `43114=${s.wsUrl}`, CIRCUIT_BREAKER_FAILURES: '0', UPSTREAM_RETRIES: '0' },
    }),
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

const advance = async () =>
  (
    (await (
      await fetch(`${sim.url}/_sim/advance`, {
        method: 'POST',
        body: JSON.stringify({ chainId: '43114', blocks: 1 }),
      })
    ).json()) as { head: { number: number; hash: string } }
  ).head;

describe('newBlocks without the Data API’s block', () => {
  for (const [status, code] of [
    [503, 'UPSTREAM_UNAVAILABLE'],
    [404, 'NOT_FOUND'],
  ] as const) {
    it(`Data API ${status}: the header's fields are served; gasCost, feesSpent and cumulativeTransactions are ${code}, not zero`, async () => {
      const header = sseSubscribe(url, HEADER);
      const indexed = sseSubscribe(url, INDEXED);
      await eventually(() => expect(gw.live!.subscriberCount()).toBe(2));
      sim.addFault({ route: 'data-api GET /v1/chains/:chainId/blocks/:blockId', status });
      try {
        const head = await advance();
        await eventually(() => {
          expect(header.events).toHaveLength(1);
          expect(indexed.events).toHaveLength(1);
        }, 10_000);
        expect(header.events[0].errors).toBeUndefined();
        expect(header.events[0].data.newBlocks).toMatchObject({
          number: String(head.number),
          hash: head.hash,
        });
        // The fields are non-null: their error nulls the block, and says why.
        expect(indexed.events[0].data?.newBlocks ?? null).toBeNull();
        const codes = (indexed.events[0].errors ?? []).map((e: any) => e.extensions?.code);
        expect(codes.length).toBeGreaterThan(0);
        expect(new Set(codes)).toEqual(new Set([code]));
      } finally {
        sim.clearFaults();
        header.close();
        indexed.close();
      }
      await eventually(() => expect(gw.live!.subscriberCount()).toBe(0));
    });
  }

  it('once indexed, the same fields are the Data API’s', async () => {
    const indexed = sseSubscribe(url, INDEXED);
    await eventually(() => expect(gw.live!.subscriberCount()).toBe(1));
    const head = await advance();
    await eventually(() => expect(indexed.events).toHaveLength(1), 10_000);
    indexed.close();
    const b = sim.world.chain('43114')!.block(head.number)!;
    expect(indexed.events[0].errors).toBeUndefined();
    expect(indexed.events[0].data.newBlocks).toEqual({
      number: String(head.number),
      gasCost: String(b.gasCost),
      feesSpent: String(b.feesSpent),
      cumulativeTransactions: String(b.cumulativeTransactions),
    });
  });
});
