import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  BlockDocument,
  ChainBlocksDocument,
  IcmMessagesDocument,
  IcmNodeDocument,
} from '../__generated__/graphql.js';
import { createTestGateway, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet } from '../support/sim.js';
import { globalId, routeCalls, settle } from './primary-support.js';

/**
 * Facts, not requests: an answer that holds another route's answer exactly stores it under that
 * route's key, in the shared cache too, so a later read of it (in another request, on another replica)
 * costs nothing upstream. Each case reads the list on one gateway and the entity on a second one that
 * shares only Redis with it, and compares with what the upstream itself answers for the entity.
 */
const C = '43114';
const BLOCK_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId';

let sim: RunningSimulator;
const { gateway } = useSimulator({}, (s) => {
  sim = s;
});

describe('facts held by lists serve their entities across requests and replicas', () => {
  it('a block of a latest-blocks page is the block read by number or by hash', async () => {
    const redisUrl = await allocateRedisDb();
    await flushRedisDb(redisUrl);
    const a = gateway({ redisUrl });
    await a.ready();
    const listed = await a.exec(ChainBlocksDocument, { chainId: C, first: 5, txFirst: 0 });
    expect(listed.errors).toBeUndefined();
    await settle(a);
    const nodes = listed.data!.chain!.blocks!.edges.map((e) => e.node);
    const b = gateway({ redisUrl });
    const c = gateway({ redisUrl });
    await Promise.all([b.ready(), c.ready()]);
    sim.reset();
    // Blocks 0..3 of the list: each one's parent is the next one listed, a fact too.
    for (const n of nodes.slice(0, 4)) {
      const byNumber = await b.exec(BlockDocument, { chainId: C, id: n.number });
      const byHash = await c.exec(BlockDocument, { chainId: C, id: n.hash });
      expect(byNumber.errors).toBeUndefined();
      expect(byHash.data).toEqual(byNumber.data);
      const upstream = await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks/${n.number}`);
      expect(byNumber.data!.block).toMatchObject({
        number: upstream.blockNumber,
        hash: upstream.blockHash,
        parentHash: upstream.parentHash,
        txCount: upstream.txCount,
        feesSpent: upstream.feesSpent,
        cumulativeTransactions: upstream.cumulativeTransactions,
      });
    }
    // The simulator was asked for the blocks only by this test's own comparisons.
    expect(routeCalls(sim)).toEqual({ [BLOCK_ROUTE]: 4 });
  });

  it('an interchain message of an address list is the message read by id', async () => {
    const redisUrl = await allocateRedisDb();
    await flushRedisDb(redisUrl);
    const env = { ttlOverrides: { head: 60_000 } };
    const a = createTestGateway(sim, { redisUrl, ...env });
    await a.ready();
    const address = sim.world.fixtures.icmAddress;
    const listed = await a.exec(IcmMessagesDocument, { address, first: 5 });
    expect(listed.errors).toBeUndefined();
    await settle(a);
    const b = createTestGateway(sim, { redisUrl, ...env });
    const reference = createTestGateway(sim);
    await b.ready();
    sim.reset();
    for (const { node } of listed.data!.icmMessages!.edges) {
      const id = globalId('IcmMessage', node.messageId);
      const derived = await b.exec(IcmNodeDocument, { id });
      expect(derived.errors).toBeUndefined();
      expect(derived.data!.node).toEqual(node);
    }
    expect(routeCalls(sim)).toEqual({});
    // And what the upstream answers by id is the same message.
    for (const { node } of listed.data!.icmMessages!.edges) {
      const direct = await reference.exec(IcmNodeDocument, {
        id: globalId('IcmMessage', node.messageId),
      });
      expect(direct.data!.node).toEqual(node);
    }
    await Promise.all([a.close(), b.close(), reference.close()]);
  });
});
