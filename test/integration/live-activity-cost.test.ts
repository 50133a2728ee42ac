import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { RedisActivityBus } from '../../src/live/activity-bus.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { eventually, wsSubscribe } from '../support/live-clients.js';
import { serveOnLoopback } from '../support/served.js';

/**
 * `addressActivity` within the plan: 1,000 followed addresses (every EOA of the simulated C-Chain, so
 * nearly every block holds their transfers, and the rest never seen) over 100 blocks cost at most 30
 * compute units a block at the simulator (its `nodeCu`: the node calls at the published prices), and
 * every event the simulator's blocks hold for them is delivered exactly once, with its transfers.
 * The reader before this one (a block read and four `eth_getLogs` at 200 CU a block) spent 810.
 */
let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let url: string;
let redis: Redis;
/** What the reader follows: the clients' claims (their shares) and the interests kept after them. */
let bus: RedisActivityBus;

const BLOCKS = 100;
const FOLLOWED = 1_000;
const MAX_CU_PER_BLOCK = 30;

useSimAndGateway({ redis: true, live: { ACTIVITY_MAX_ADDRESSES: String(FOLLOWED) } }, (s, g, r) => {
  sim = s;
  gw = g;
  redis = new Redis(r);
  bus = new RedisActivityBus(r, false, () => {});
});
beforeAll(async () => {
  http = await serveOnLoopback(gw);
  url = `http://127.0.0.1:${http.port}/graphql`;
}, 60_000);
afterAll(async () => {
  redis?.disconnect();
  await bus?.close();
  await http?.shutdown('test');
});

const Q = `subscription($c: String!, $a: [String!]!) { addressActivity(chainId: $c, addresses: $a) {
  blockNumber transactionHash value
  transfers { kind value tokenId token { address } from { address } to { address } } } }`;

interface Transfer {
  kind: string;
  value: string;
  tokenId: string | null;
  token: string | null;
  from: string;
  to: string;
}

/** Waits until the holder has published the activity of every block up to the world's head. */
async function settled(): Promise<number> {
  const head = sim.world.chain('43114')!.head().number;
  await eventually(
    async () => expect(await redis.get('gw:live:{43114}:act:n')).toBe(String(head)),
    30_000,
  );
  return head;
}

/** What the simulator's blocks (after, to] hold for `follows`: one event per transaction, in order. */
function truth(follows: ReadonlySet<string>, after: number, to: number) {
  const chain = sim.world.chain('43114')!;
  const out: { hash: string; block: string; value: string; transfers: Transfer[] }[] = [];
  for (let n = after + 1; n <= to; n++) {
    for (const tx of chain.blockTxs(chain.block(n)!)) {
      const from = tx.from.toLowerCase();
      const to = tx.createdContract ? null : tx.to.toLowerCase();
      const touches = follows.has(from) || (to !== null && follows.has(to));
      const tokens = [...tx.erc20, ...tx.erc721, ...tx.erc1155]
        .sort((a, b) => a.logIndex - b.logIndex)
        .filter((t) => follows.has(t.from.toLowerCase()) || follows.has(t.to.toLowerCase()))
        .map(
          (t): Transfer => ({
            kind: t.kind.toUpperCase(),
            value: t.kind === 'erc721' ? '1' : t.value.toString(),
            tokenId: t.tokenId ?? null,
            token: t.token.toLowerCase(),
            from: t.from.toLowerCase(),
            to: t.to.toLowerCase(),
          }),
        );
      if (!touches && tokens.length === 0) continue;
      const native: Transfer[] =
        touches && tx.value > 0n
          ? [
              {
                kind: 'NATIVE',
                value: tx.value.toString(),
                tokenId: null,
                token: null,
                from,
                to: to ?? '',
              },
            ]
          : [];
      out.push({
        hash: tx.hash.toLowerCase(),
        block: String(n),
        value: tx.value.toString(),
        transfers: [...native, ...tokens],
      });
    }
  }
  return out;
}

it(`follows ${FOLLOWED} addresses over ${BLOCKS} blocks at ≤ ${MAX_CU_PER_BLOCK} CU a block, every event once`, async () => {
  const book = sim.world.addressBook;
  const seen = [...book.busy, ...book.ordinary, ...book.relayers].map((a) => a.toLowerCase());
  const unseen = Array.from(
    { length: FOLLOWED - seen.length },
    (_, i) => `0x${'5e'.repeat(10)}${i.toString(16).padStart(20, '0')}`,
  );
  const addresses = [...seen, ...unseen];
  expect(new Set(addresses).size).toBe(FOLLOWED);
  const follows = new Set(addresses);

  const ws = wsSubscribe(url, Q, { c: '43114', a: addresses });
  await eventually(() => expect(gw.liveActivity!.subscriberCount()).toBe(1), 20_000);
  await eventually(
    async () =>
      expect((await bus.followed('43114', Date.now(), 10 * FOLLOWED)).length).toBe(FOLLOWED),
    20_000,
  );
  await fetch(`${sim.url}/_sim/advance`, {
    method: 'POST',
    body: JSON.stringify({ chainId: '43114', blocks: 1, evolve: false }),
  });
  const start = await settled();
  const before = sim.stats();

  for (let i = 0; i < BLOCKS; i++) {
    await fetch(`${sim.url}/_sim/advance`, {
      method: 'POST',
      body: JSON.stringify({ chainId: '43114', blocks: 1, evolve: false }),
    });
    // About the pace of a chain (blocks do not all land at once): the reader keeps up block by block.
    if (i % 10 === 9) await settled();
  }
  const head = await settled();
  expect(head).toBe(start + BLOCKS);
  const after = sim.stats();

  const cu = after.nodeCu - before.nodeCu;
  const calls = Object.fromEntries(
    Object.entries(after.byRpcMethod)
      .map(([k, v]) => [k, v - (before.byRpcMethod[k] ?? 0)] as const)
      .filter(([, v]) => v > 0),
  );
  console.log(`activity: ${cu / BLOCKS} CU a block over ${BLOCKS} blocks`, calls);
  expect(cu / BLOCKS).toBeLessThanOrEqual(MAX_CU_PER_BLOCK);

  const want = truth(follows, start, head);
  expect(want.length).toBeGreaterThan(BLOCKS);
  const got = () =>
    ws.events
      .map((e: any) => e.data?.addressActivity ?? { error: e })
      .filter((a: any) => a.error || Number(a.blockNumber) > start)
      .map((a: any) =>
        a.error
          ? a
          : {
              hash: a.transactionHash,
              block: a.blockNumber,
              value: a.value,
              transfers: a.transfers.map((t: any) => ({
                kind: t.kind,
                value: t.value,
                tokenId: t.tokenId,
                token: t.token?.address.toLowerCase() ?? null,
                from: t.from.address.toLowerCase(),
                to: t.to?.address.toLowerCase() ?? '',
              })),
            },
      );
  await eventually(() => expect(got()).toHaveLength(want.length), 30_000);
  expect(got()).toEqual(want);
  // Nothing more arrives: no event twice.
  await new Promise((r) => setTimeout(r, 1_000));
  expect(got()).toHaveLength(want.length);
  await ws.close();
}, 240_000);
