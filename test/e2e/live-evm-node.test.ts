import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import { startEvmNode, type TestEvmNode } from '../support/evm-node.js';
import { createTestGateway, type TestGateway } from '../support/gateway.js';
import { eventually, sseSubscribe, wsSubscribe } from '../support/live-clients.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { serveOnLoopback } from '../support/served.js';
import { startTestSimulator } from '../support/sim.js';

/**
 * Against a real EVM node (Hardhat on loopback): `newBlocks` follows the node's own websocket and delivers
 * the blocks it mines, with the node's hashes. The Data API (the simulator) does not index this chain, so
 * each block comes from the node's header.
 */
let node: TestEvmNode;
let sim: RunningSimulator;
let gw: TestGateway;
let http: RunningHttpServer;
let url: string;

beforeAll(async () => {
  node = await startEvmNode();
  sim = await startTestSimulator();
  const redisUrl = await allocateRedisDb();
  gw = createTestGateway(sim, { redisUrl, env: { LIVE_WS: `${node.chainId}=${node.wsUrl}` } });
  await gw.ready();
  http = await serveOnLoopback(gw);
  url = `http://127.0.0.1:${http.port}/graphql`;
  await eventually(() => expect(gw.live!.headTag(String(node.chainId))).toBeDefined(), 15_000);
}, 60_000);
afterAll(async () => {
  await http?.shutdown('test');
  await sim?.close();
  await node?.stop();
});

it("delivers the blocks the node mines, with the node's hashes, over graphql-ws and SSE", async () => {
  const q =
    'subscription($c: String!) { newBlocks(chainId: $c) { chainId number hash parentHash txCount } }';
  const ws = wsSubscribe(url, q, { c: String(node.chainId) });
  const sse = sseSubscribe(url, q, { c: String(node.chainId) });
  await eventually(() => expect(gw.live!.subscriberCount()).toBe(2));
  // Blocks with and without transactions: a transfer (automine) and empty blocks.
  await node.rpc('eth_sendTransaction', [
    { from: node.accounts[0], to: node.accounts[1], value: '0x1' },
  ]);
  for (let i = 0; i < 4; i++) await node.rpc('evm_mine');
  const top = Number(await node.rpc<string>('eth_blockNumber'));
  const expected: Record<string, unknown>[] = [];
  for (let n = top - 4; n <= top; n++) {
    const b = await node.rpc<any>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
    expected.push({
      chainId: String(node.chainId),
      number: String(n),
      hash: b.hash,
      parentHash: b.parentHash,
      txCount: b.transactions.length,
    });
  }
  expect(expected[0]!.txCount).toBe(1);
  const got = (events: any[]) => events.map((e) => e.data?.newBlocks).filter(Boolean);
  await eventually(() => {
    expect(got(ws.events)).toEqual(expected);
    expect(got(sse.events)).toEqual(expected);
  }, 15_000);
  sse.close();
  await ws.close();
}, 40_000);
