import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startHttpServer } from '../../src/http/server.js';
import { signBody } from '../../src/live/webhook-payload.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { eventually, sseSubscribe } from '../support/live-clients.js';

/**
 * The Data API's `address_activity` webhooks as a second activity source (issue 36): the gateway
 * registers a webhook for the addresses its subscribers follow (at the simulator, through the spec's
 * webhook operations), verifies each delivery's `x-signature`, refuses unsigned, badly signed, replayed,
 * too old and unknown-webhook deliveries, and delivers a transaction the node and the webhook both see
 * once.
 */
let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let url: string;
let hookUrl: string;
let port: number;
let redis: Redis;
const WINDOW = 16;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

// The webhook route's port is chosen before the fixture builds the gateway that registers it.
beforeAll(async () => {
  port = await freePort();
  hookUrl = `http://127.0.0.1:${port}/webhooks/data-api`;
});
useSimAndGateway(
  {
    redis: true,
    gateway: (s) => ({
      env: {
        LIVE_WS: `43114=${s.wsUrl}`,
        LIVE_LOCK_TTL_MS: '600',
        ACTIVITY_LOG_BLOCKS: '64',
        WEBHOOK_URL: hookUrl,
        WEBHOOK_SYNC_MS: '150',
        WEBHOOK_WINDOW_BLOCKS: String(WINDOW),
      },
    }),
  },
  (s, g, redisUrl) => {
    sim = s;
    gw = g;
    redis = new Redis(redisUrl);
  },
);
beforeAll(async () => {
  http = await startHttpServer({
    gateway: gw,
    port,
    host: '127.0.0.1',
    graceMs: 100,
    logger: createLogger({ level: 'silent' }),
  });
  url = `http://127.0.0.1:${port}/graphql`;
  const current = String(sim.world.chain('43114')!.head().number);
  await eventually(() => expect(gw.live!.head('43114')?.number).toBe(current), 15_000);
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await http?.shutdown('test');
});

const Q = `subscription($c: String!, $a: [String!]!) {
  addressActivity(chainId: $c, addresses: $a) { blockNumber transactionHash value transfers { kind } } }`;
const hashes = (sse: { events: any[] }) =>
  sse.events.map((e: any) => e.data?.addressActivity?.transactionHash ?? e);

/** The webhook the gateway registered at the simulator once it follows `address`. */
async function registeredFor(address: string) {
  let id = '';
  await eventually(() => {
    const hook = [...sim.webhooks.hooks.values()].find(
      (h) => h.chainId === '43114' && h.addresses.has(address.toLowerCase()),
    );
    expect(hook?.url).toBe(hookUrl);
    id = hook!.id;
  }, 10_000);
  return id;
}

const cursor = async () => Number(await redis.get('gw:live:{43114}:act:n'));

function post(body: unknown, signature?: string | null, secret = sim.webhooks.secret) {
  const text = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers['x-signature'] = signature ?? signBody(secret, text);
  return fetch(hookUrl, { method: 'POST', headers, body: text });
}

function delivery(webhookId: string, from: string, block: number, txHash = randomHash()) {
  return {
    webhookId,
    eventType: 'address_activity',
    messageId: randomUUID(),
    event: {
      transaction: {
        blockHash: randomHash(),
        blockNumber: String(block),
        from,
        to: `0x${'77'.repeat(20)}`,
        txHash,
        transactionIndex: 0,
        value: '5',
        chainId: '43114',
        blockTimestamp: 1_700_000_000,
        erc20Transfers: [],
        erc721Transfers: [],
        erc1155Transfers: [],
      },
      logs: [],
    },
  };
}
const randomHash = () => `0x${randomBytes(32).toString('hex')}`;

/** Transactions of blocks (after, to] that touch `address` in any way a webhook or the node sees. */
function touching(address: string, after: number, to: number): string[] {
  const chain = sim.world.chain('43114')!;
  const a = address.toLowerCase();
  const out: string[] = [];
  for (let n = after + 1; n <= to; n++)
    for (const tx of chain.blockTxs(chain.block(n)!)) {
      const transfers = [...tx.erc20, ...tx.erc721, ...tx.erc1155];
      if (
        tx.from.toLowerCase() === a ||
        tx.to.toLowerCase() === a ||
        transfers.some((t) => t.from.toLowerCase() === a || t.to.toLowerCase() === a)
      )
        out.push(tx.hash.toLowerCase());
    }
  return out;
}

describe('Data API webhooks as a second activity source', () => {
  it("the registration's Data API calls go through the gateway's upstream client: priced in compute units, by route", async () => {
    const who = `0x${randomBytes(20).toString('hex')}`;
    const sse = sseSubscribe(url, Q, { c: '43114', a: [who] });
    await registeredFor(who);
    const text = await gw.metrics.registry.metrics();
    // Listing, creating or updating the webhook, and reading the shared secret: each a priced route.
    const routes = [
      ...text.matchAll(
        /gateway_upstream_cu_total\{upstream="data-api",route="([^"]*webhooks[^"]*)"\} (\d+)/g,
      ),
    ].map((m) => [m[1], Number(m[2])] as const);
    expect(routes.length).toBeGreaterThan(0);
    for (const [, cu] of routes) expect(cu).toBeGreaterThan(0);
    sse.close();
  }, 60_000);

  it('a signed delivery is delivered once; unsigned, badly signed, replayed, too old and unknown-webhook ones are refused and deliver nothing', async () => {
    const who = `0x${randomBytes(20).toString('hex')}`;
    const sse = sseSubscribe(url, Q, { c: '43114', a: [who] });
    const id = await registeredFor(who);
    const next = (await cursor()) + 1;

    const good = delivery(id, who, next);
    const ok = await post(good);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ outcome: 'delivered' });
    await eventually(() => expect(hashes(sse)).toEqual([good.event.transaction.txHash]));
    expect(sse.events[0].data.addressActivity).toMatchObject({
      value: '5',
      blockNumber: String(next),
    });

    const refused: [string, Response, number, string][] = [
      ['replayed', await post(good), 409, 'REPLAYED'],
      ['unsigned', await post(delivery(id, who, next), null), 401, 'UNAUTHENTICATED'],
      [
        'signed with another secret',
        await post(delivery(id, who, next), undefined, 'not-the-shared-secret'),
        401,
        'UNAUTHENTICATED',
      ],
      [
        'a signature of other bytes',
        await post(delivery(id, who, next), signBody(sim.webhooks.secret, '{}')),
        401,
        'UNAUTHENTICATED',
      ],
      ['unknown webhook id', await post(delivery(randomUUID(), who, next)), 404, 'NOT_FOUND'],
      [
        'older than the window',
        await post(delivery(id, who, next - 1 - WINDOW)),
        409,
        'OUTSIDE_REPLAY_WINDOW',
      ],
    ];
    for (const [name, res, status, code] of refused) {
      expect({ name, status: res.status }).toEqual({ name, status });
      expect(((await res.json()) as any).errors[0].extensions.code).toBe(code);
    }
    // The same transaction in a new message (the Data API retrying, or a second address): not again.
    const again = await post(delivery(id, who, next, good.event.transaction.txHash));
    expect(await again.json()).toEqual({ outcome: 'duplicate' });
    // A last good one: the subscriber's stream holds exactly the two accepted transactions.
    const last = delivery(id, who, next);
    expect((await post(last)).status).toBe(200);
    await eventually(() =>
      expect(hashes(sse)).toEqual([good.event.transaction.txHash, last.event.transaction.txHash]),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(hashes(sse)).toHaveLength(2);
    sse.close();
  }, 60_000);

  it('the node and the webhook seeing the same transactions deliver each once, whichever comes first', async () => {
    const busy = sim.world.fixtures.busyAddresses[0]!;
    const start = await cursor();
    const sse = sseSubscribe(url, Q, { c: '43114', a: [busy] });
    await registeredFor(busy);
    // The webhook first: blocks land in the world, the Data API delivers them, the node has not said so.
    const early = sim.world.advance('43114', 6);
    const first = await sim.webhooks.deliverBlocks('43114', early);
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((d) => d.status === 200)).toBe(true);
    const webhookOnly = touching(busy, start, early.at(-1)!.number);
    await eventually(() => expect(hashes(sse)).toEqual(webhookOnly));
    // Then the node: a new head makes the holder read those blocks too (and the webhook the new one).
    const res = await fetch(`${sim.url}/_sim/advance`, {
      method: 'POST',
      body: JSON.stringify({ chainId: '43114', blocks: 3 }),
    });
    const head = ((await res.json()) as any).head.number as number;
    await eventually(async () => expect(await cursor()).toBe(head), 15_000);
    // The node first: the Data API delivering the same blocks again (new message ids) adds nothing.
    const second = await sim.webhooks.deliverBlocks('43114', early);
    expect(second.every((d) => d.status === 200)).toBe(true);
    const expected = touching(busy, start, head);
    await eventually(() => expect(hashes(sse)).toEqual(expected), 15_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(hashes(sse)).toEqual(expected);
    expect(new Set(expected).size).toBe(expected.length);
    const outcomes = await (await fetch(`${url.replace('/graphql', '')}/metrics`)).text();
    expect(outcomes).toMatch(/gateway_live_webhook_deliveries_total\{outcome="duplicate"\} [1-9]/);
    sse.close();
  }, 60_000);
});
