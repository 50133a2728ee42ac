import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_TABS } from '../../src/graphiql/examples.js';
import type { RunningHttpServer } from '../../src/http/server.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { eventually, sseSubscribe, wsSubscribe } from '../support/live-clients.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * `addressActivity` against the simulator's C-Chain websocket: events match what the simulated node's
 * blocks and logs hold, link into the graph through the Data API, resume from the log; hostile arguments
 * get their codes over SSE and graphql-ws alike, and a client's subscriptions are bounded.
 */
let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let url: string;
let redis: Redis;

useSimAndGateway(
  {
    redis: true,
    live: {
      ACTIVITY_MAX_ADDRESSES: '5',
      ACTIVITY_SUBSCRIPTIONS_PER_CLIENT: '3',
      ACTIVITY_LOG_BLOCKS: '16',
    },
  },
  (s, g, redisUrl) => {
    sim = s;
    gw = g;
    redis = new Redis(redisUrl);
  },
);
beforeAll(async () => {
  http = await serveOnLoopback(gw);
  url = `http://127.0.0.1:${http.port}/graphql`;
  const current = String(sim.world.chain('43114')!.head().number);
  await eventually(() => expect(gw.live!.head('43114')?.number).toBe(current), 15_000);
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await http?.shutdown('test');
});

const advance = async (blocks = 1) =>
  (await (
    await fetch(`${sim.url}/_sim/advance`, {
      method: 'POST',
      body: JSON.stringify({ chainId: '43114', blocks }),
    })
  ).json()) as { head: { number: number; hash: string } };

const Q = `subscription($c: String!, $a: [String!]!, $k: [ActivityKind!], $f: String) {
  addressActivity(chainId: $c, addresses: $a, kinds: $k, from: $f) {
    blockNumber transactionHash value transfers { kind value token { address } }
    transaction { hash blockNumber } block { hash } } }`;

/** Waits until the holder has read the activity of every block up to the world's head; returns it. */
async function settled(): Promise<number> {
  const head = sim.world.chain('43114')!.head().number;
  await eventually(async () => expect(await redis.get('gw:live:{43114}:act:n')).toBe(String(head)));
  return head;
}

/** SSE with request headers, keeping each event's `id:`. */
function rawSse(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const events: { id?: string; data: any }[] = [];
  const ctrl = new AbortController();
  void (async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ query, variables }),
      signal: ctrl.signal,
    });
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += dec.decode(value, { stream: true });
      for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
        const lines = buf.slice(0, i).split('\n');
        buf = buf.slice(i + 2);
        const id = lines.find((l) => l.startsWith('id: '))?.slice(4);
        const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
        if (data) events.push({ id, data: JSON.parse(data) });
      }
    }
  })().catch(() => {});
  return { events, close: () => ctrl.abort() };
}

/** What the simulated node's blocks say `address` did in blocks (after, to]: tx hashes in order. */
function expectedOf(address: string, after: number, to: number): string[] {
  const chain = sim.world.chain('43114')!;
  const out: string[] = [];
  for (let n = after + 1; n <= to; n++) {
    for (const tx of chain.blockTxs(chain.block(n)!)) {
      const a = address.toLowerCase();
      const touches =
        tx.from.toLowerCase() === a ||
        tx.to.toLowerCase() === a ||
        [...tx.erc20, ...tx.erc721, ...tx.erc1155].some(
          (t) => t.from.toLowerCase() === a || t.to.toLowerCase() === a,
        );
      if (touches) out.push(tx.hash.toLowerCase());
    }
  }
  return out;
}

describe('addressActivity on the simulator', () => {
  it("a busy address's transactions, in block order, linked to the Data API's transaction and block; then resumed from the log", async () => {
    const busy = sim.world.fixtures.busyAddresses[0]!;
    const start = await settled();
    const ws = wsSubscribe(url, Q, { c: '43114', a: [busy] });
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(1));
    // Counted before its addresses are claimed in Redis (what the holder reads per block): polled.
    await eventually(async () =>
      expect(
        (await redis.hvals('gw:live:{43114}:act:caddr')).flatMap((x) => x.toLowerCase().split(',')),
      ).toContain(busy.toLowerCase()),
    );
    const { head } = await advance(12);
    const expected = expectedOf(busy, start, head.number);
    expect(expected.length).toBeGreaterThan(0);
    const got = () => ws.events.map((e: any) => e.data?.addressActivity ?? e);
    await eventually(
      () => expect(got().map((a: any) => a.transactionHash)).toEqual(expected),
      20_000,
    );
    for (const a of got()) {
      expect(a.transaction).toEqual({ hash: a.transactionHash, blockNumber: a.blockNumber });
      expect(a.block.hash).toMatch(/^0x[0-9a-f]{64}$/);
    }
    await ws.close();
    // A client that saw up to the sixth block resumes after it: the rest, from the log, then live.
    const mid = start + 6;
    const sse = sseSubscribe(url, Q, { c: '43114', a: [busy], f: String(mid) });
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(1));
    const more = await advance(2);
    const rest = expectedOf(busy, mid, more.head.number);
    await eventually(
      () =>
        expect(sse.events.map((e: any) => e.data?.addressActivity?.transactionHash ?? e)).toEqual(
          rest,
        ),
      20_000,
    );
    sse.close();
  }, 60_000);

  it("GraphiQL's addressActivity tab runs on a followed chain", async () => {
    const tab = EXAMPLE_TABS.find((t) => t.query.includes('addressActivity'))!;
    const busy = sim.world.fixtures.busyAddresses[0]!;
    const sse = sseSubscribe(url, tab.query, { ...tab.variables, addresses: [busy] });
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(1));
    await eventually(async () => {
      await advance(1);
      expect(sse.events.length).toBeGreaterThan(0);
    }, 20_000);
    expect(sse.events[0].errors).toBeUndefined();
    expect(sse.events[0].data.addressActivity.transfers).toBeInstanceOf(Array);
    sse.close();
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(0));
  }, 30_000);

  it('SSE events carry ids; a client that reconnects with Last-Event-ID resumes after exactly that event', async () => {
    const busy = sim.world.fixtures.busyAddresses[0]!;
    const start = await settled();
    const first = rawSse(url, Q, { c: '43114', a: [busy] });
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(1));
    const { head } = await advance(10);
    const expected = expectedOf(busy, start, head.number);
    expect(expected.length).toBeGreaterThan(3);
    // Leave after the third event, mid-stream (it may share its block with the next).
    await eventually(() => expect(first.events.length).toBeGreaterThanOrEqual(3), 20_000);
    first.close();
    const third = first.events[2]!;
    expect(third.id).toMatch(/^\d+:\d+$/);
    expect(third.data.extensions.activityId).toBe(third.id);
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(0));
    const again = rawSse(url, Q, { c: '43114', a: [busy] }, { 'last-event-id': third.id! });
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(1));
    await eventually(
      () =>
        expect(
          [...first.events.slice(0, 3), ...again.events].map(
            (e) => e.data.data.addressActivity.transactionHash,
          ),
        ).toEqual(expected),
      20_000,
    );
    again.close();
    // A malformed Last-Event-ID is refused like a malformed from.
    const bad = rawSse(url, Q, { c: '43114', a: [busy] }, { 'last-event-id': 'x' });
    await eventually(() =>
      expect(bad.events[0]?.data.errors[0].extensions.code).toBe('BAD_USER_INPUT'),
    );
    bad.close();
  }, 60_000);

  const A = `0x${'a'.repeat(40)}`;
  const rows: { name: string; vars: Record<string, unknown>; code: string }[] = [
    { name: 'a malformed address', vars: { a: ['0x12'] }, code: 'BAD_USER_INPUT' },
    { name: 'no addresses', vars: { a: [] }, code: 'BAD_USER_INPUT' },
    {
      name: 'more addresses than one subscription may follow',
      vars: { a: Array.from({ length: 6 }, (_, i) => `0x${String(i).repeat(40)}`) },
      code: 'BAD_USER_INPUT',
    },
    { name: 'an empty kinds list', vars: { k: [] }, code: 'BAD_USER_INPUT' },
    { name: 'an unknown kind', vars: { k: ['ERC777'] }, code: 'BAD_USER_INPUT' },
    { name: 'a chain not followed live', vars: { c: '43113' }, code: 'BAD_USER_INPUT' },
    { name: 'a malformed chain id', vars: { c: 'x' }, code: 'BAD_USER_INPUT' },
    { name: 'a negative from', vars: { f: '-1' }, code: 'BAD_USER_INPUT' },
    { name: 'a from older than the log', vars: { f: '1' }, code: 'RESUME_TOO_OLD' },
  ];
  const codeOf = (events: any[]) => {
    const e = events[0];
    return (e?.errors?.[0] ?? e?.error?.[0] ?? e?.error)?.extensions?.code;
  };
  it.each(rows)('refuses $name over SSE and graphql-ws with its code', async (row) => {
    const vars = { c: '43114', a: [A], ...row.vars };
    const sse = sseSubscribe(url, Q, vars);
    const ws = wsSubscribe(url, Q, vars);
    await eventually(() => {
      expect(codeOf(sse.events)).toBe(row.code);
      expect(codeOf(ws.events)).toBe(row.code);
    });
    sse.close();
    await ws.close();
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(0));
  });

  it('a client holds at most ACTIVITY_SUBSCRIPTIONS_PER_CLIENT; an ended one gives its place back', async () => {
    const open = [0, 1, 2].map(() => sseSubscribe(url, Q, { c: '43114', a: [A] }));
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(3));
    const fourth = wsSubscribe(url, Q, { c: '43114', a: [A] });
    await eventually(() => expect(codeOf(fourth.events)).toBe('TOO_MANY_SUBSCRIPTIONS'));
    await fourth.close();
    open[0]!.close();
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(2));
    const again = wsSubscribe(url, Q, { c: '43114', a: [A] });
    await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(3));
    expect(again.events).toEqual([]);
    await again.close();
    for (const s of open) s.close();
  });
});
