import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { advanceChain, uncachedGateway } from '../support/reference.js';

/**
 * `networkNode.cChain`'s head fields (the head number, the fees, an address's state at the head) are
 * one head's in one answer, while the chain moves on between reads and parts of the answer are cached.
 * Found by the cache oracle (seed oracle-4, CChainTenFields).
 */
let sim: RunningSimulator;
const redisUrl = await allocateRedisDb();

const HEAD = `query Head($address: String!) { networkNode { cChain {
  blockNumber baseFee maxPriorityFeePerGas gasPrice
  balance(address: $address) transactionCount(address: $address)
  latestBlock { number } } } }`;
const NUMBER = '{ networkNode { cChain { blockNumber } } }';
const FEE = '{ networkNode { cChain { baseFee } } }';

const { gateway } = useSimulator({}, (s) => {
  sim = s;
});

const advance = () => advanceChain(sim, '43114');

describe('the C-Chain of a node: one head per answer', () => {
  it('a cached head number is never shown beside a later head’s fees or state', async () => {
    const address = sim.world.fixtures.busyAddress;
    const gw = gateway({ redisUrl, ttlOverrides: { head: 60_000 } });
    // The truth at each head: a gateway that caches nothing.
    const reference = uncachedGateway(sim);
    const truth = async () => (await reference.query(HEAD, { address })).data;
    const before = await truth();
    // Parts of the answer read (and cached) at this head on their own.
    expect((await gw.query(NUMBER)).errors).toBeUndefined();
    expect((await gw.query(FEE)).errors).toBeUndefined();
    // The chain moves on until the base fee differs.
    const fee = (d: unknown) =>
      (d as { networkNode: { cChain: { baseFee: string } } }).networkNode.cChain.baseFee;
    let after = before;
    for (let i = 0; i < 20 && fee(after) === fee(before); i++) {
      await advance();
      after = await truth();
    }
    expect(fee(after)).not.toBe(fee(before));
    const got = await gw.query(HEAD, { address });
    expect(got.errors).toBeUndefined();
    expect([before, after].map((d) => JSON.stringify(d))).toContain(JSON.stringify(got.data));
    await gw.close();
    await reference.close();
  });
});
