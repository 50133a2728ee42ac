import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { logsBloom } from '@avalanche-gateway/simulator/node-rpc/evm-logs.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { RedisActivityBus } from '../../src/live/activity-bus.js';
import { LogsBloom } from '../../src/live/bloom.js';
import { startEvmNode, type TestEvmNode } from '../support/evm-node.js';
import { createTestGateway, type TestGateway } from '../support/gateway.js';
import { eventually, sseSubscribe, wsSubscribe } from '../support/live-clients.js';
import { MINI_TOKEN_BYTECODE } from '../support/mini-token.js';
import {
  callData,
  MINI_MULTI,
  MINI_MULTI_BYTECODE,
  MINI_NFT,
  MINI_NFT_BYTECODE,
  MINI_TELEPORTER,
  MINI_TELEPORTER_BYTECODE,
} from '../support/mini-tokens.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { serveOnLoopback } from '../support/served.js';
import { startTestSimulator } from '../support/sim.js';
import { startTcpCutter, type TcpCutter } from '../support/tcp-cutter.js';

/**
 * `addressActivity` against a real EVM node (Hardhat on loopback, over its websocket). Three gateways
 * share one Redis: the first holds the node's socket; the other two serve the subscribers (graphql-ws on
 * one, SSE on the other). Transfers made on the node arrive in block order, each once, with the node's
 * hashes, values and tokens, across a dropped upstream socket and across a takeover of the socket.
 */
let node: TestEvmNode;
let cutter: TcpCutter;
let sim: RunningSimulator;
let redis: Redis;
let bus: RedisActivityBus;
const gws: { gw: TestGateway; http: RunningHttpServer; url: string }[] = [];
const LOCK_TTL_MS = 900;

async function startGateway(redisUrl: string, wsUrl: string) {
  const gw = createTestGateway(sim, {
    redisUrl,
    env: { LIVE_WS: `${node.chainId}=${wsUrl}`, LIVE_LOCK_TTL_MS: String(LOCK_TTL_MS) },
  });
  await gw.ready();
  const http = await serveOnLoopback(gw);
  const entry = { gw, http, url: `http://127.0.0.1:${http.port}/graphql` };
  gws.push(entry);
  await eventually(() => expect(gw.live!.headTag(String(node.chainId))).toBeDefined(), 15_000);
  return entry;
}

async function send(
  tx: Record<string, string>,
): Promise<{ hash: string; block: number; contract?: string }> {
  const hash = await node.rpc<string>('eth_sendTransaction', [tx]);
  const r = await node.rpc<any>('eth_getTransactionReceipt', [hash]);
  return { hash, block: Number(r.blockNumber), contract: r.contractAddress ?? undefined };
}

beforeAll(async () => {
  node = await startEvmNode();
  cutter = await startTcpCutter(Number(new URL(node.url).port));
  sim = await startTestSimulator();
  const redisUrl = await allocateRedisDb();
  redis = new Redis(redisUrl);
  // What the reader follows: the clients' claims (their shares) and the interests kept after them.
  bus = new RedisActivityBus(redisUrl, false, () => {});
  // The first gateway takes the node's socket (through the cutter); the other two serve subscribers.
  await startGateway(redisUrl, `ws://127.0.0.1:${cutter.port}`);
  await startGateway(redisUrl, `ws://127.0.0.1:${cutter.port}`);
  await startGateway(redisUrl, `ws://127.0.0.1:${cutter.port}`);
}, 90_000);
afterAll(async () => {
  for (const g of gws) await g.http.shutdown('test');
  redis?.disconnect();
  await bus?.close();
  await cutter?.close();
  await sim?.close();
  await node?.stop();
});

const Q = `subscription($c: String!, $a: [String!]!) { addressActivity(chainId: $c, addresses: $a) {
  chainId head blockNumber transactionHash value from { address } to { address }
  transfers { kind value tokenId from { address } to { address } token { address } } } }`;

it('native, ERC-20, ERC-721 and ERC-1155 transfers arrive in block order, each once, on two replicas, across a dropped socket and a takeover', async () => {
  const [owner, alice, bob] = node.accounts.map((a) => a.toLowerCase()) as [string, string, string];
  const chainId = String(node.chainId);
  const vars = { c: chainId, a: [alice] };
  const ws = wsSubscribe(gws[1]!.url, Q, vars);
  const sse = sseSubscribe(gws[2]!.url, Q, vars);
  await eventually(() => {
    expect(gws[1]!.gw.liveActivity!.subscriberCount()).toBe(1);
    expect(gws[2]!.gw.liveActivity!.subscriberCount()).toBe(1);
  });
  await eventually(async () =>
    expect(await bus.followed(chainId, Date.now(), 1_000)).toContain(alice),
  );

  type Want = { hash: string; block: number; value: string; transfers: Record<string, unknown>[] };
  const want: Want[] = [];
  const native = async (from: string, to: string, value: bigint) => {
    const r = await send({ from, to, value: `0x${value.toString(16)}` });
    want.push({
      hash: r.hash,
      block: r.block,
      value: value.toString(),
      transfers: [
        {
          kind: 'NATIVE',
          value: value.toString(),
          tokenId: null,
          from: { address: from },
          to: { address: to },
          token: null,
        },
      ],
    });
  };
  const token = (await send({ from: owner, data: MINI_TOKEN_BYTECODE })).contract!.toLowerCase();
  const nft = (await send({ from: owner, data: MINI_NFT_BYTECODE })).contract!.toLowerCase();
  const multi = (await send({ from: owner, data: MINI_MULTI_BYTECODE })).contract!.toLowerCase();
  const call = async (
    from: string,
    to: string,
    data: string,
    transfers: Record<string, unknown>[],
  ) => {
    const r = await send({ from, to, data });
    want.push({ hash: r.hash, block: r.block, value: '0', transfers });
  };
  const erc20 = (from: string, to: string, v: bigint) =>
    call(from, token, callData('0xa9059cbb', to, v), [
      {
        kind: 'ERC20',
        value: v.toString(),
        tokenId: null,
        from: { address: from },
        to: { address: to },
        token: { address: token },
      },
    ]);

  await native(owner, alice, 1_234_567_890_123n);
  await erc20(owner, alice, 5_000n);
  await call(owner, nft, callData(MINI_NFT.mint, alice, 7n), [
    {
      kind: 'ERC721',
      value: '1',
      tokenId: '7',
      from: { address: `0x${'0'.repeat(40)}` },
      to: { address: alice },
      token: { address: nft },
    },
  ]);
  // A transfer between others is not alice's activity.
  await native(owner, bob, 5n);
  want.pop();

  // The upstream socket drops; transfers land while it is down and are read back on reconnect.
  const before = cutter.opened();
  cutter.hold();
  cutter.cut();
  await native(owner, alice, 42n);
  await call(alice, nft, callData(MINI_NFT.transferFrom, alice, bob, 7n), [
    {
      kind: 'ERC721',
      value: '1',
      tokenId: '7',
      from: { address: alice },
      to: { address: bob },
      token: { address: nft },
    },
  ]);
  cutter.release();
  await eventually(() => expect(cutter.opened()).toBeGreaterThan(before), 15_000);

  // The holder leaves: another gateway takes the socket and resumes where the activity cursor is.
  const lock = `gw:live:{${chainId}}:lock`;
  expect(await redis.get(lock)).toBe(gws[0]!.gw.live!.owner);
  await gws[0]!.http.shutdown('takeover');
  await native(owner, alice, 43n);
  await erc20(owner, alice, 77n);
  await call(owner, multi, callData(MINI_MULTI.send, alice, 3n, 11n), [
    {
      kind: 'ERC1155',
      value: '11',
      tokenId: '3',
      from: { address: owner },
      to: { address: alice },
      token: { address: multi },
    },
  ]);
  await call(owner, multi, callData(MINI_MULTI.sendBatch, alice, [1n, 2n], [10n, 20n]), [
    {
      kind: 'ERC1155',
      value: '10',
      tokenId: '1',
      from: { address: owner },
      to: { address: alice },
      token: { address: multi },
    },
    {
      kind: 'ERC1155',
      value: '20',
      tokenId: '2',
      from: { address: owner },
      to: { address: alice },
      token: { address: multi },
    },
  ]);
  await native(alice, bob, 9n);
  await eventually(async () =>
    expect([gws[1]!.gw.live!.owner, gws[2]!.gw.live!.owner]).toContain(await redis.get(lock)),
  );

  const expected = want.map((w) => ({
    hash: w.hash,
    block: String(w.block),
    value: w.value,
    transfers: w.transfers,
  }));
  const got = (events: any[]) =>
    events
      .map((e) => e.data?.addressActivity ?? (e.errors || e.error ? { error: e } : undefined))
      .filter(Boolean)
      .map((a: any) =>
        a.error
          ? a
          : {
              hash: a.transactionHash,
              block: a.blockNumber,
              value: a.value,
              transfers: a.transfers,
            },
      );
  await eventually(() => {
    expect(got(ws.events)).toEqual(expected);
    expect(got(sse.events)).toEqual(expected);
  }, 30_000);
  // Each event names the head it was read at (at or above its block) and the chain.
  for (const e of ws.events.map((x: any) => x.data.addressActivity)) {
    expect(e.chainId).toBe(chainId);
    expect(BigInt(e.head)).toBeGreaterThanOrEqual(BigInt(e.blockNumber));
  }
  // Nothing more arrives (no repeats after the fact).
  await new Promise((r) => setTimeout(r, 1_500));
  expect(got(ws.events)).toHaveLength(expected.length);
  expect(got(sse.events)).toHaveLength(expected.length);
  sse.close();
  await ws.close();
}, 120_000);

it("icmMessage: the destination chain's Teleporter receipts on the node (FAILED, then DELIVERED) before the Data API knows, then the end", async () => {
  const chainId = String(node.chainId);
  const owner = node.accounts[0]!.toLowerCase();
  // A message pending in the Data API (the simulator) whose destination is the node's chain.
  const template = sim.world.icm.messages.find((m) => m.status === 'pending')!;
  const messageId = 'ab'.repeat(32);
  const message = { ...template, messageId, destinationEvmChainId: chainId };
  sim.world.icm.messages.push(message);
  sim.world.icm.byId.set(messageId, message);
  const teleporter = (await send({ from: owner, data: MINI_TELEPORTER_BYTECODE })).contract!;
  const Q = `subscription($id: String!) { icmMessage(messageId: $id) {
    status seenBy final destinationTransactionHash message { status } } }`;
  const ws = wsSubscribe(gws[1]!.url, Q, { id: `0x${messageId}` });
  const updates = () => ws.events.map((e: any) => e.data?.icmMessage ?? e);
  await eventually(() => expect(updates()).toHaveLength(1));
  expect(updates()[0]).toEqual({
    status: 'SENT',
    seenBy: 'DATA_API',
    final: false,
    destinationTransactionHash: null,
    message: { status: 'PENDING' },
  });
  await eventually(async () =>
    expect(
      await redis.zscore(`gw:live:{${chainId}}:act:follow`, `icm:${messageId}`),
    ).not.toBeNull(),
  );
  const source = `0x${'0'.repeat(63)}1`;
  const failed = await send({
    from: owner,
    to: teleporter,
    data: callData(MINI_TELEPORTER.failed, `0x${messageId}`, source),
  });
  await eventually(() => expect(updates()).toHaveLength(2));
  const received = await send({
    from: owner,
    to: teleporter,
    data: callData(MINI_TELEPORTER.received, `0x${messageId}`, source),
  });
  await eventually(() => expect(updates()).toHaveLength(3));
  expect(updates().slice(1)).toEqual([
    {
      status: 'FAILED',
      seenBy: 'NODE',
      final: false,
      destinationTransactionHash: failed.hash,
      message: null,
    },
    {
      status: 'DELIVERED',
      seenBy: 'NODE',
      final: true,
      destinationTransactionHash: received.hash,
      message: null,
    },
  ]);
  // The Data API still says pending: the node saw the delivery first. The stream has ended.
  expect(message.status).toBe('pending');
  await eventually(() => expect(gws[1]!.gw.live!.subscriberCount()).toBe(0));
  await ws.close();
}, 60_000);

it("the simulator's logsBloom and the gateway's bloom test agree with a real EVM's headers and receipts", async () => {
  const head = Number(await node.rpc<string>('eth_blockNumber'));
  let withLogs = 0;
  for (let n = 1; n <= head; n++) {
    const block = await node.rpc<any>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
    const receipts = await Promise.all(
      (block.transactions as string[]).map((h) => node.rpc<any>('eth_getTransactionReceipt', [h])),
    );
    const logs = receipts.flatMap((r) => r.logs as { address: string; topics: string[] }[]);
    if (logs.length > 0) withLogs += 1;
    // Built from the logs (the simulator's way), each receipt's bloom and the header's are the node's.
    for (const r of receipts) expect(logsBloom(r.logs)).toBe(r.logsBloom);
    expect(logsBloom(logs)).toBe(block.logsBloom);
    // Read from the header (the gateway's way), every address and topic of every log may be there.
    const bloom = LogsBloom.of(block.logsBloom)!;
    for (const log of logs)
      for (const item of [log.address, ...log.topics]) expect(bloom.has(item)).toBe(true);
  }
  // The blocks of the tests above: ERC-20, ERC-721, ERC-1155 single and batch, Teleporter receipts.
  expect(withLogs).toBeGreaterThanOrEqual(8);
});
