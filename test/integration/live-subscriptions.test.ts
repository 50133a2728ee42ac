import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { eventually, sseSubscribe, wsSubscribe } from '../support/live-clients.js';
import { serveOnLoopback } from '../support/served.js';

/** Subscriptions against the simulator's C-Chain websocket: SSE and graphql-ws, across a dropped socket. */
const NEW_BLOCKS =
  'subscription($c: String!) { newBlocks(chainId: $c) { number hash parentHash txCount transactions(first: 1) { edges { node { hash } } } } }';

let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let url: string;

useSimAndGateway(
  {
    redis: true,
    live: {},
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
  // The feed publishes the node's current head when its socket first connects: wait for it, so a
  // client that subscribes next sees only the heads of its own advances.
  const current = String(sim.world.chain('43114')!.head().number);
  await eventually(() => expect(gw.live!.head('43114')?.number).toBe(current));
});
afterAll(async () => {
  await http?.shutdown('test');
});

const advance = async () =>
  (await (
    await fetch(`${sim.url}/_sim/advance`, {
      method: 'POST',
      body: JSON.stringify({ chainId: '43114', blocks: 1 }),
    })
  ).json()) as { head: { number: number; hash: string } };

describe('newBlocks', () => {
  it('SSE and graphql-ws clients each get every block of 20 advances, in order, once, across a dropped upstream socket', async () => {
    const sse = sseSubscribe(url, NEW_BLOCKS, { c: '43114' });
    const ws = wsSubscribe(url, NEW_BLOCKS, { c: '43114' });
    await eventually(() => expect(gw.live!.subscriberCount()).toBe(2));
    const expected: { number: string; hash: string }[] = [];
    for (let i = 0; i < 20; i++) {
      if (i === 8) {
        // The fault: the node drops the socket and refuses the next two reconnects; blocks land meanwhile.
        await fetch(`${sim.url}/_sim/ws/drop`, {
          method: 'POST',
          body: JSON.stringify({ refuse: 2 }),
        });
      }
      const { head } = await advance();
      expected.push({ number: String(head.number), hash: head.hash });
    }
    const got = (events: any[]) =>
      events
        .map((e) => e.data?.newBlocks)
        .filter(Boolean)
        .map((b: any) => ({ number: b.number, hash: b.hash }));
    await eventually(() => {
      expect(got(sse.events)).toEqual(expected);
      expect(got(ws.events)).toEqual(expected);
    }, 20_000);
    // Nested fields resolve as in a query; no event carries an error.
    for (const e of [...sse.events, ...ws.events]) expect(e.errors).toBeUndefined();
    expect(sim.socketStats().opened).toBeGreaterThanOrEqual(2);
    expect(sim.socketStats().open).toBe(1);
    sse.close();
    await ws.close();
  });

  it('a subscriber that leaves is uncounted at once, not at the next block (SSE and graphql-ws)', async () => {
    const NEW_TXS = 'subscription($c: String!) { newTransactions(chainId: $c) { hash } }';
    const subs = [
      sseSubscribe(url, NEW_BLOCKS, { c: '43114' }),
      sseSubscribe(url, NEW_TXS, { c: '43114' }),
    ];
    const ws = wsSubscribe(url, NEW_BLOCKS, { c: '43114' });
    await eventually(() => expect(gw.live!.subscriberCount()).toBe(3));
    for (const s of subs) s.close();
    await ws.close();
    // No block comes meanwhile: the count drops on the disconnect alone.
    await eventually(() => expect(gw.live!.subscriberCount()).toBe(0), 2_000);
  });

  it('an unknown or unfollowed chain is a coded error, over SSE and graphql-ws', async () => {
    const sse = sseSubscribe(url, NEW_BLOCKS, { c: '1' });
    const ws = wsSubscribe(url, NEW_BLOCKS, { c: 'x' });
    await eventually(() => {
      expect(sse.events.flatMap((e) => e.errors ?? []).map((e: any) => e.extensions?.code)).toEqual(
        ['BAD_USER_INPUT'],
      );
      const wsErrors = ws.events.flatMap(
        (e) => e.errors ?? (Array.isArray(e.error) ? e.error : []),
      );
      expect(wsErrors.map((e: any) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    });
    sse.close();
    await ws.close();
  });
});

describe('heads drive freshness', () => {
  it('after a head lands, blocks(first: 1) shows it; repeated queries between heads cost 0 upstream calls', async () => {
    const q = '{ chain(id: "43114") { blocks(first: 1) { edges { node { number hash } } } } }';
    const { head } = await advance();
    await eventually(
      async () => {
        const r = await gw.query(q);
        expect(r.data?.chain.blocks.edges[0].node.number).toBe(String(head.number));
        expect((r.extensions as any)?.heads).toEqual([
          expect.objectContaining({ chainId: '43114', height: String(head.number) }),
        ]);
      },
      2_000,
      5,
    );
    sim.reset();
    for (let i = 0; i < 5; i++) await gw.query(q);
    expect(sim.stats().byRoute).toEqual({});
    // The next head makes the entry stale at once: one refetch shows it.
    const next = (await advance()).head;
    await eventually(
      async () =>
        expect((await gw.query(q)).data?.chain.blocks.edges[0].node.number).toBe(
          String(next.number),
        ),
      2_000,
      5,
    );
  });
});
