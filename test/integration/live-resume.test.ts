import { request } from 'node:http';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { eventually, wsSubscribe } from '../support/live-clients.js';

/**
 * newBlocks resumes where a subscriber left off: `after` (graphql-ws or SSE) or SSE's Last-Event-ID
 * (each SSE event carries `id: chainId:number`) first replays the heads the bus keeps above it, then
 * goes on live, each head once; a point older than what is kept is refused with RESUME_GAP.
 */
let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let base: string;

const advance = async () =>
  (
    (await (
      await fetch(`${sim.url}/_sim/advance`, {
        method: 'POST',
        body: JSON.stringify({ chainId: '43114', blocks: 1, evolve: false }),
      })
    ).json()) as { head: { number: number } }
  ).head.number;

/** An SSE subscription's raw events: `id:` and the parsed `data:` of each. */
function sse(body: unknown, headers: Record<string, string> = {}) {
  const events: { id?: string; data: any }[] = [];
  const req = request({
    host: '127.0.0.1',
    port: http.port,
    path: '/graphql',
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
  });
  req.on('response', (res) => {
    let buf = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      buf += d;
      for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
        const lines = buf.slice(0, i).split('\n');
        buf = buf.slice(i + 2);
        const data = lines.find((l) => l.startsWith('data: '));
        if (!data) continue;
        events.push({
          id: lines.find((l) => l.startsWith('id: '))?.slice(4),
          data: JSON.parse(data.slice(6)),
        });
      }
    });
  });
  req.on('error', () => {});
  req.end(JSON.stringify(body));
  return { events, close: () => req.destroy() };
}

const Q = 'subscription($a: String) { newBlocks(chainId: "43114", after: $a) { number } }';

useSimAndGateway(
  { redis: true, gateway: (s) => ({ env: { LIVE_WS: `43114=${s.wsUrl}` } }) },
  (s, g) => {
    sim = s;
    gw = g;
  },
);
beforeAll(async () => {
  http = await startHttpServer({
    gateway: gw,
    port: 0,
    host: '127.0.0.1',
    graceMs: 1_000,
    logger: createLogger({ level: 'silent' }),
  });
  base = `http://127.0.0.1:${http.port}`;
  await eventually(() => expect(sim.socketStats().subscriptions).toBe(1), 15_000);
  // Heads the bus keeps: five published through the gateway's own socket.
  for (let i = 0; i < 5; i++) await advance();
  await eventually(async () => {
    const r = await gw.query(
      '{ chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }',
    );
    expect(r.data?.chain.blocks.edges[0].node.number).toBe(
      String(sim.world.chain('43114')!.head().number),
    );
  }, 10_000);
  // The Data API answers from the node's world at once; the live feed publishes each head after reading
  // it over the socket, a moment later. A fresh subscriber must come after the last of them.
  const last = String(sim.world.chain('43114')!.head().number);
  await eventually(() => expect(gw.live!.head('43114')?.number).toBe(last), 15_000);
}, 60_000);
afterAll(async () => {
  await http?.shutdown('test');
});

describe('newBlocks resumption', () => {
  it('SSE: each event has id chainId:number; Last-Event-ID replays the kept heads after it, then live ones, once each', async () => {
    const head = sim.world.chain('43114')!.head().number;
    const subscribed = gw.live!.subscriberCount();
    const first = sse({ query: Q });
    await eventually(() => expect(gw.live!.subscriberCount()).toBe(subscribed + 1)); // it is open
    const next = await advance();
    await eventually(() => expect(first.events).toHaveLength(1));
    // The cost plugin adds extensions.cost to every event (test/integration/cost-subscriptions.test.ts).
    expect(first.events[0]).toMatchObject({
      id: `43114:${next}`,
      data: {
        data: { newBlocks: { number: String(next) } },
        extensions: { eventId: `43114:${next}` },
      },
    });
    first.close();
    // Reconnect as an EventSource does, from three heads back.
    const resumed = sse({ query: Q }, { 'last-event-id': `43114:${head - 2}` });
    await eventually(() => expect(resumed.events).toHaveLength(3));
    const later = await advance();
    await eventually(() => expect(resumed.events).toHaveLength(4));
    expect(resumed.events.map((e) => e.id)).toEqual(
      [head - 1, head, next, later].map((n) => `43114:${n}`),
    );
    resumed.close();
  });

  it('graphql-ws: after = a block number replays from the one above it, with no repeat when live heads catch up', async () => {
    const head = sim.world.chain('43114')!.head().number;
    const sub = wsSubscribe(`${base}/graphql`, Q, { a: String(head - 3) });
    await eventually(() => expect(sub.events).toHaveLength(3));
    const next = await advance();
    await eventually(() => expect(sub.events).toHaveLength(4));
    await new Promise((r) => setTimeout(r, 200));
    expect(sub.events.map((e) => e.data?.newBlocks.number)).toEqual(
      [head - 2, head - 1, head, next].map(String),
    );
    expect(sub.events.at(-1).extensions).toMatchObject({ eventId: `43114:${next}` });
    await sub.close();
  });

  it('a point older than the kept heads is RESUME_GAP; a malformed one is BAD_USER_INPUT', async () => {
    const old = sse({ query: Q, variables: { a: '1' } });
    await eventually(() => expect(old.events.length).toBeGreaterThan(0));
    expect(old.events[0]!.data.errors[0].extensions.code).toBe('RESUME_GAP');
    old.close();
    const bad = wsSubscribe(`${base}/graphql`, Q, { a: 'latest' });
    await eventually(() => expect(bad.events.length).toBeGreaterThan(0));
    expect(JSON.stringify(bad.events[0])).toContain('BAD_USER_INPUT');
    await bad.close();
  });
});
