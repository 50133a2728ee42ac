import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, createTestGateway, type TestGateway, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { type CountingProxy, startCountingProxy } from '../support/rpc-counting-proxy.js';

/**
 * Issue 31: where the node's answer is missing (no node answers for a chain, a part of an answer
 * left out), the field is an error with its code, never a default (an empty list, "not served")
 * served and cached as if the node had said it. The simulator's node behind a proxy that leaves
 * parts of its answers out.
 */
let sim: RunningSimulator;
let proxy: CountingProxy;
let gw: TestGateway;
let twoNodes: TestGateway;
const redisUrl = await allocateRedisDb();

useSimulator({ seed: 'missing-parts' }, (s) => {
  sim = s;
});
beforeAll(async () => {
  proxy = await startCountingProxy(sim.nodeUrl, {
    keepPath: true,
    rewrite: (call, reply) => {
      const r = reply as { result?: Record<string, unknown> };
      if (!r.result || typeof r.result !== 'object') return reply;
      if (call.method === 'eth_feeHistory') delete r.result.reward;
      if (call.method === 'eth_getProof') r.result.storageProof = [];
      return reply;
    },
  });
  gw = createTestGateway({ ...sim, nodeUrl: proxy.url }, { redisUrl });
  // A second node that does not answer (a closed port): it may be the one serving a chain.
  twoNodes = createTestGateway({ ...sim, nodeUrl: `main=${sim.nodeUrl},down=http://127.0.0.1:9` });
  await Promise.all([gw.ready(), twoNodes.ready()]);
}, 30_000);
afterAll(async () => {
  await gw?.close();
  await twoNodes?.close();
  await proxy?.close();
});

describe('a missing upstream answer is an error, not a default', () => {
  it('fee history without the rewards asked for: UPSTREAM_ERROR, not an empty list (twice: not cached)', async () => {
    const q = `{ evmState(chainId: "43114") { blockNumber feeHistory(blockCount: 2, rewardPercentiles: [50]) { oldestBlock reward { percentiles } } } }`;
    for (let i = 0; i < 2; i++) {
      const r = await gw.query(q);
      expect(codes(r)).toEqual(['UPSTREAM_ERROR']);
      expect(r.errors![0]!.path).toEqual(['evmState', 'feeHistory']);
      expect(r.data?.evmState?.feeHistory).toBeNull();
    }
    // Without percentiles the node leaves `reward` out by contract: an empty list is its answer.
    const plain = await gw.query(
      `{ evmState(chainId: "43114") { feeHistory(blockCount: 2) { reward { percentiles } } } }`,
    );
    expect(plain.errors).toBeUndefined();
    expect(plain.data!.evmState.feeHistory.reward).toEqual([]);
  });

  it('a proof without the storage proofs asked for: UPSTREAM_ERROR, not an empty list', async () => {
    const a = sim.world.fixtures.busyAddress;
    const r = await gw.query(
      `{ address(chainId: "43114", address: "${a}") { state { proof(storageKeys: ["0x0"]) { balance storageProof { key value } } } } }`,
    );
    expect(codes(r)).toEqual(['UPSTREAM_ERROR']);
    expect(r.errors![0]!.path).toEqual(['address', 'state', 'proof']);
    const none = await gw.query(
      `{ address(chainId: "43114", address: "${a}") { state { proof { balance storageProof { key } } } } }`,
    );
    expect(none.errors).toBeUndefined();
    expect(none.data!.address.state.proof.storageProof).toEqual([]);
  });

  it('a chain no answering node serves, while a node is down: that node’s error, not EVM_CHAIN_NOT_SERVED', async () => {
    const r = await twoNodes.query(`{ evmState(chainId: "43112") { blockNumber } }`);
    expect(codes(r)).toEqual(['UPSTREAM_UNAVAILABLE']);
    // The chain the answering node serves is still read.
    const c = await twoNodes.query(`{ evmState(chainId: "43114") { blockNumber } }`);
    expect(c.errors).toBeUndefined();
    expect(c.data!.evmState.blockNumber).toBe(String(sim.world.chain('43114')!.head().number));
    // With every node answering, a chain none serves is the caller's to know.
    const alone = await gw.query(`{ evmState(chainId: "43112") { blockNumber } }`);
    expect(alone.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'EVM_CHAIN_NOT_SERVED',
    });
  });
});
