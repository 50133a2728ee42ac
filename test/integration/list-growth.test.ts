import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { AddressTransactionsDocument } from '../__generated__/graphql.js';
import { createTestGateway, useSimAndGateway } from '../support/gateway.js';
import { simGet, simWalk } from '../support/sim.js';

/** A list's last page grows: a cursor at its end sees what arrived after it (issue 11, defect 3). */
// The gateway's clock, moved past a TTL instead of waiting for it.
let clock = Date.now();
const now = () => clock;
const C = '43114';
let sim: RunningSimulator;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, _gw, r) => {
  sim = s;
  redisUrl = r;
});

describe('ascending lists grow at their end', () => {
  it('resuming from endCursor after new items arrived returns them (sortOrder ASC, one-page list)', async () => {
    const gw = createTestGateway(sim, {
      redisUrl,
      now,
      ttlOverrides: { head: 50 },
      staleOverrides: { head: { swr: 0, ifError: 0 } },
    });
    const busy = sim.world.fixtures.busyAddress;
    const path = `/v1/chains/${C}/addresses/${busy}/transactions`;
    const newest = (await simGet(sim.dataApiUrl, path, { pageSize: 100 })).transactions as {
      nativeTransaction: { blockNumber: string };
    }[];
    const startBlock = newest[40]!.nativeTransaction.blockNumber;
    const q = { chainId: C, address: busy, first: 100, startBlock, sortOrder: 'ASC' as never };
    const before = await gw.exec(AddressTransactionsDocument, q);
    expect(before.errors).toBeUndefined();
    const list = before.data!.address!.transactions!;
    expect(list.pageInfo.hasNextPage).toBe(false);
    const n = list.edges.length;
    expect(n).toBeGreaterThan(10);
    expect(n).toBeLessThan(100);

    // the world moves on until the address has new transactions in range
    let expected: { nativeTransaction: { txHash: string } }[] = [];
    for (let i = 0; i < 20 && expected.length <= n; i++) {
      sim.world.advance(C, 25);
      expected = await simWalk(
        sim.dataApiUrl,
        `${path}?startBlock=${startBlock}&sortOrder=asc`,
        'transactions',
      );
    }
    expect(expected.length).toBeGreaterThan(n);
    clock += 100; // past the head TTL

    const after = await gw.exec(AddressTransactionsDocument, {
      ...q,
      after: list.pageInfo.endCursor,
    });
    expect(after.errors).toBeUndefined();
    const grown = after.data!.address!.transactions!;
    const seen = [...list.edges, ...grown.edges].map((e) => e.node.hash);
    expect(seen).toEqual(expected.slice(0, seen.length).map((t) => t.nativeTransaction.txHash));
    expect(grown.edges.length).toBe(Math.min(100, expected.length - n));
    await gw.close();
  });
});
