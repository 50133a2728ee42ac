import { randomBytes } from 'node:crypto';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import type { TestGateway } from '../support/gateway.js';
import { useSimulator } from '../support/gateway.js';
import { eventually } from '../support/live-clients.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * Issue 42: one client silenced everyone's `addressActivity`: 11 subscriptions × 1,000 addresses (within
 * its 64) pushed every other client's addresses out of the chain's 10,000 followed ones; the victim's
 * events dropped from 8 to 0 and nothing told it. Here at a tenth of the scale (5 addresses a
 * subscription, 50 a chain): each client holds a bounded share, a claim beyond it is refused
 * (FOLLOW_SHARE_EXCEEDED), and when the chain is full the newest subscription of a client above its fair
 * share is ended with INTEREST_DROPPED to make room for one within its own.
 */
let sim: RunningSimulator;
const opened: RunningHttpServer[] = [];
const { gateway } = useSimulator({}, (s) => {
  sim = s;
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((h) => h.shutdown('test')));
});

async function serve(env: Record<string, string>) {
  const gw = gateway({
    redisUrl: await allocateRedisDb(),
    env: {
      LIVE_WS: `43114=${sim.wsUrl}`,
      LIVE_LOCK_TTL_MS: '600',
      TRUSTED_PROXIES: 'loopback',
      ACTIVITY_MAX_ADDRESSES: '5',
      ...env,
    },
  });
  await gw.ready();
  const http = await serveOnLoopback(gw);
  opened.push(http);
  const current = String(sim.world.chain('43114')!.head().number);
  await eventually(() => expect(gw.live!.head('43114')?.number).toBe(current), 15_000);
  return { gw, url: `http://127.0.0.1:${http.port}/graphql` };
}

const Q = `subscription($a: [String!]!) { addressActivity(chainId: "43114", addresses: $a) { transactionHash } }`;

/** An SSE subscription from `ip` (forwarded by the loopback proxy); its events as they come. */
function sse(url: string, ip: string, addresses: string[]) {
  const events: any[] = [];
  const ctrl = new AbortController();
  void (async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'x-forwarded-for': ip,
      },
      body: JSON.stringify({ query: Q, variables: { a: addresses } }),
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
        const data = buf
          .slice(0, i)
          .split('\n')
          .find((l) => l.startsWith('data: '))
          ?.slice(6);
        buf = buf.slice(i + 2);
        if (data) events.push(JSON.parse(data));
      }
    }
  })().catch(() => {});
  return { events, close: () => ctrl.abort() };
}

const codesOf = (events: any[]) =>
  events.flatMap((e) => e.errors ?? []).map((e: any) => e.extensions?.code);
const hashesOf = (events: any[]) =>
  events.filter((e) => e.data).map((e) => e.data.addressActivity.transactionHash);
const fresh = () => Array.from({ length: 5 }, () => `0x${randomBytes(20).toString('hex')}`);
const advance = async (blocks: number) =>
  (await (
    await fetch(`${sim.url}/_sim/advance`, {
      method: 'POST',
      body: JSON.stringify({ chainId: '43114', blocks }),
    })
  ).json()) as { head: { number: number } };

/** What the simulated node's blocks say `address` did in blocks (after, to]: tx hashes in order. */
function expectedOf(address: string, after: number, to: number): string[] {
  const chain = sim.world.chain('43114')!;
  const a = address.toLowerCase();
  const out: string[] = [];
  for (let n = after + 1; n <= to; n++)
    for (const tx of chain.blockTxs(chain.block(n)!))
      if (
        tx.from.toLowerCase() === a ||
        tx.to.toLowerCase() === a ||
        // Native, ERC-20, ERC-721 and ERC-1155 transfers: every kind the activity reader reports.
        [...tx.erc20, ...tx.erc721, ...tx.erc1155].some(
          (t) => t.from.toLowerCase() === a || t.to.toLowerCase() === a,
        )
      )
        out.push(tx.hash.toLowerCase());
  return out;
}

async function victimHearsEverything(gw: TestGateway, url: string, attack: () => Promise<void>) {
  const busy = sim.world.fixtures.busyAddresses[0]!;
  const start = sim.world.chain('43114')!.head().number;
  const before = gw.liveActivity!.subscriberCount();
  const victim = sse(url, '203.0.113.50', [busy]);
  // Its claim is in (the count alone would race a subscription it displaces).
  await eventually(async () =>
    expect(await gw.liveActivity!.followed('43114')).toContain(busy.toLowerCase()),
  );
  expect(gw.liveActivity!.subscriberCount()).toBeGreaterThanOrEqual(before);
  await attack();
  const { head } = await advance(10);
  const expected = expectedOf(busy, start, head.number);
  expect(expected.length).toBeGreaterThan(0);
  await eventually(() => expect(hashesOf(victim.events)).toEqual(expected), 20_000);
  expect(codesOf(victim.events)).toEqual([]);
  victim.close();
}

describe("a client's share of a chain's followed addresses", () => {
  it("11 subscriptions from one client no longer push the victim's address out: beyond its share they are refused FOLLOW_SHARE_EXCEEDED", async () => {
    const { gw, url } = await serve({});
    const attacker: ReturnType<typeof sse>[] = [];
    await victimHearsEverything(gw, url, async () => {
      for (let i = 0; i < 11; i++) attacker.push(sse(url, '198.51.100.66', fresh()));
      await eventually(() => {
        expect(attacker.filter((s) => codesOf(s.events).length > 0).length).toBe(9);
        expect(gw.liveActivity!.subscriberCount()).toBe(1 + 2);
      }, 15_000);
    });
    // Its share (a quarter of the chain's 50 by default: 12) holds two subscriptions of five.
    const refused = attacker.filter((s) => codesOf(s.events).length > 0);
    for (const s of refused) {
      expect(codesOf(s.events)).toEqual(['FOLLOW_SHARE_EXCEEDED']);
      expect(s.events[0].errors[0].extensions).toMatchObject({ reason: 'CLIENT_SHARE', share: 12 });
    }
    for (const s of attacker) s.close();
    // The reader's node calls serve no request: counted as system work, by chain and method.
    expect(await gw.metrics.registry.metrics()).toMatch(
      /gateway_live_reader_calls_total\{chain="43114",method="eth_\w+",work="system"\} [1-9]/,
    );
  }, 60_000);

  it('a full chain makes room max-min fairly: the newest subscription of the client above its share ends INTEREST_DROPPED', async () => {
    const { gw, url } = await serve({ ACTIVITY_ADDRESSES_PER_CLIENT: '50' });
    // One client takes every followed place of the chain (ten subscriptions of five), within its cap.
    const attacker: ReturnType<typeof sse>[] = [];
    for (let i = 0; i < 10; i++) {
      attacker.push(sse(url, '198.51.100.77', fresh()));
      await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(i + 1));
    }
    await victimHearsEverything(gw, url, async () => {
      // One of its subscriptions (the newest admitted) is ended and told; the other nine go on.
      await eventually(() =>
        expect(attacker.flatMap((s) => codesOf(s.events))).toEqual(['INTEREST_DROPPED']),
      );
    });
    for (const s of attacker) s.close();
  }, 60_000);
});
