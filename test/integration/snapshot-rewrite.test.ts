import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { ChainBlocksDocument } from '../__generated__/graphql.js';
import { testClock } from '../support/clock.js';
import { codes, createTestGateway, useSimAndGateway } from '../support/gateway.js';
import { flushRedisDb } from '../support/sim.js';

/** A fresh cursor never expires at birth: an evicted head-page snapshot is written again (issue 11, defect 5). */
const C = '43114';
let sim: RunningSimulator;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, _gw, r) => {
  sim = s;
  redisUrl = r;
});

describe('head-page snapshots', () => {
  it('a snapshot evicted from Redis is rewritten the next time its page is served, so a new cursor resumes on another replica', async () => {
    // Replica a's clock is moved past the snapshot's recheck (a second) instead of waiting for it.
    const clock = testClock();
    const a = createTestGateway(sim, { redisUrl, now: clock.now });
    const b = createTestGateway(sim, { redisUrl });
    await Promise.all([a.ready(), b.ready()]);
    const q = { chainId: C, first: 3, txFirst: 0 };
    const first = await a.exec(ChainBlocksDocument, q);
    expect(first.errors).toBeUndefined();
    await a.settled();
    await flushRedisDb(redisUrl); // Redis evicted everything (allkeys-lru), the snapshot included
    clock.advance(1_100);
    const again = await a.exec(ChainBlocksDocument, q); // the same head, served again by replica a
    expect(again.data).toEqual(first.data);
    const cursor = again.data!.chain!.blocks!.pageInfo.endCursor!;
    const resumed = await b.exec(ChainBlocksDocument, { ...q, after: cursor });
    expect(codes(resumed)).toEqual([]);
    const numbers = [
      ...again.data!.chain!.blocks!.edges,
      ...resumed.data!.chain!.blocks!.edges,
    ].map((e) => BigInt(e.node.number));
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! - BigInt(i)));
    await a.close();
    await b.close();
  });
});
