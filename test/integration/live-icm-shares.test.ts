import { randomBytes } from 'node:crypto';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { useSimulator } from '../support/gateway.js';
import { eventually, sseSubscribe, wsSubscribe } from '../support/live-clients.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * Issue 42: `icmMessage` subscriptions had no per-client limit and polled the Data API charged only at
 * start (60 subscriptions to random ids, charged 1,200, spent 5,990 CU in 35 s). Now a client holds at
 * most ICM_SUBSCRIPTIONS_PER_CLIENT of them, each poll's CUs are charged to its client as they are spent
 * (a spent budget ends the stream with RATE_LIMITED), and an id the Data API does not know costs a few
 * reads (backing off) before NOT_FOUND.
 */
let sim: RunningSimulator;
const servers: RunningHttpServer[] = [];
const { gateway } = useSimulator({}, (s) => {
  sim = s;
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.shutdown('test')));
});

async function serve(env: Record<string, string>) {
  const gw = gateway({ env: { LIVE_WS: `43114=${sim.wsUrl}`, LIVE_LOCK_TTL_MS: '600', ...env } });
  await gw.ready();
  const http = await serveOnLoopback(gw);
  servers.push(http);
  return `http://127.0.0.1:${http.port}/graphql`;
}

const Q = 'subscription($id: String!) { icmMessage(messageId: $id) { status } }';
const ONE = 'data-api GET /v1/icm/messages/:messageId';
const reads = () => sim.stats().byRoute[ONE] ?? 0;
const codesOf = (events: any[]) =>
  events
    .flatMap((e) => e.errors ?? (Array.isArray(e.error) ? e.error : []))
    .map((e: any) => e.extensions?.code);
const randomId = () => randomBytes(32).toString('hex');

describe('icmMessage: a share per client, polls charged as they happen', () => {
  it('one client holds at most ICM_SUBSCRIPTIONS_PER_CLIENT; the next is refused TOO_MANY_SUBSCRIPTIONS, over SSE and graphql-ws', async () => {
    const url = await serve({ ICM_SUBSCRIPTIONS_PER_CLIENT: '2' });
    const pending = sim.world.icm.messages.filter((m) => m.status === 'pending').slice(0, 4);
    const held = [
      sseSubscribe(url, Q, { id: pending[0]!.messageId }),
      wsSubscribe(url, Q, { id: pending[1]!.messageId }),
    ];
    await eventually(() => {
      for (const h of held) expect(h.events.length).toBe(1);
    });
    const sse = sseSubscribe(url, Q, { id: pending[2]!.messageId });
    const ws = wsSubscribe(url, Q, { id: pending[3]!.messageId });
    await eventually(() => {
      expect(codesOf(sse.events)).toEqual(['TOO_MANY_SUBSCRIPTIONS']);
      expect(codesOf(ws.events)).toEqual(['TOO_MANY_SUBSCRIPTIONS']);
    });
    // A stream that ends gives its place back.
    held[0]!.close();
    await new Promise((r) => setTimeout(r, 200));
    const again = sseSubscribe(url, Q, { id: pending[2]!.messageId });
    await eventually(() => expect(again.events[0]?.data?.icmMessage?.status).toBe('SENT'));
    for (const s of [...held, sse, again]) s.close();
    await ws.close();
  });

  it('polls are charged to the subscriber: a spent budget ends its streams with RATE_LIMITED and the polling stops', {
    timeout: 40_000,
  }, async () => {
    // Eight polls of 20 CU: the subscriptions' own start charges and their first reads spend it.
    const url = await serve({ CLIENT_CU_PER_MINUTE: '160', ICM_SUBSCRIPTIONS_PER_CLIENT: '8' });
    sim.reset();
    const subs = Array.from({ length: 4 }, () => sseSubscribe(url, Q, { id: randomId() }));
    await eventually(() => {
      for (const s of subs) expect(codesOf(s.events)).toHaveLength(1);
    }, 20_000);
    const codes = subs.flatMap((s) => codesOf(s.events));
    expect(codes).toContain('RATE_LIMITED');
    for (const c of codes) expect(['RATE_LIMITED', 'NOT_FOUND']).toContain(c);
    const spent = reads();
    // At most the budget's reads and one more per subscription (the poll that found it spent).
    expect(spent).toBeLessThanOrEqual(160 / 20 + subs.length);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(reads()).toBe(spent);
    for (const s of subs) s.close();
  });

  it('an id the Data API does not know ends NOT_FOUND after a few reads, backing off', async () => {
    const url = await serve({});
    sim.reset();
    const t0 = Date.now();
    const sub = wsSubscribe(url, Q, { id: randomId() });
    await eventually(() => expect(codesOf(sub.events)).toEqual(['NOT_FOUND']), 25_000);
    expect(Date.now() - t0).toBeLessThan(25_000);
    expect(reads()).toBeLessThanOrEqual(5);
    await sub.close();
  }, 40_000);
});
