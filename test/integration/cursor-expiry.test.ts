import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AddressNativeTransactionsDocument,
  AddressTransactionsDocument,
  ChainBlocksDocument,
} from '../__generated__/graphql.js';
import { useSimulator } from '../support/gateway.js';
import { simWalk } from '../support/sim.js';

/**
 * DESIGN "Connections over page tokens": a cursor outliving the upstream's 24 h page tokens (and our
 * head-page snapshots) resumes, on lists with a block range, from its item's block, skipping what it
 * already returned there; elsewhere it is a clear BAD_USER_INPUT telling the client to restart.
 */
const C = '43114';
const DAY_MS = 24 * 60 * 60 * 1000;
let clock = Date.now();
let sim: RunningSimulator;
let busy: string;
let expected: string[];

const { gateway } = useSimulator({ now: () => clock }, async (s) => {
  sim = s;
  busy = sim.world.fixtures.busyAddress;
  expected = (
    await simWalk(
      sim.dataApiUrl,
      `/v1/chains/${C}/addresses/${busy}/transactions:listNative`,
      'transactions',
    )
  ).map((t: any) => t.txHash);
});
beforeEach(() => {
  clock = Date.now();
});

const hashes = (r: any, field: string) => r.data.address[field].edges.map((e: any) => e.node.hash);

describe('expired cursors', () => {
  it('a cursor inside a token page, 25 hours later on another replica: the next items, none repeated or skipped', async () => {
    const first = gateway();
    const a = await first.exec(AddressNativeTransactionsDocument, {
      chainId: C,
      address: busy,
      first: 150,
    });
    expect(hashes(a, 'nativeTransactions')).toEqual(expected.slice(0, 150));
    clock += DAY_MS + 60 * 60 * 1000; // every upstream token has expired
    const other = gateway(); // no cached pages, no snapshots
    const b = await other.exec(AddressNativeTransactionsDocument, {
      chainId: C,
      address: busy,
      first: 60,
      after: a.data!.address!.nativeTransactions!.pageInfo.endCursor,
    });
    expect(b.errors).toBeUndefined();
    expect(hashes(b, 'nativeTransactions')).toEqual(expected.slice(150, 210));
    // and the resumed cursors page on
    const c = await other.exec(AddressNativeTransactionsDocument, {
      chainId: C,
      address: busy,
      first: 30,
      after: b.data!.address!.nativeTransactions!.pageInfo.endCursor,
    });
    expect(hashes(c, 'nativeTransactions')).toEqual(expected.slice(210, 240));
  });

  it('a cursor into the head page whose snapshot is gone resumes from its block too', async () => {
    const first = gateway();
    const a = await first.exec(AddressNativeTransactionsDocument, {
      chainId: C,
      address: busy,
      first: 20,
    });
    clock += DAY_MS + 60 * 60 * 1000;
    const other = gateway();
    const b = await other.exec(AddressNativeTransactionsDocument, {
      chainId: C,
      address: busy,
      first: 25,
      after: a.data!.address!.nativeTransactions!.pageInfo.endCursor,
    });
    expect(hashes(b, 'nativeTransactions')).toEqual(expected.slice(20, 45));
  });

  it('the combined list resumes in its own sort order', async () => {
    const asc = (
      await simWalk(
        sim.dataApiUrl,
        `/v1/chains/${C}/addresses/${busy}/transactions?sortOrder=asc`,
        'transactions',
      )
    ).map((t: any) => t.nativeTransaction.txHash);
    const first = gateway();
    const a = await first.exec(AddressTransactionsDocument, {
      chainId: C,
      address: busy,
      first: 130,
      sortOrder: 'ASC',
    });
    clock += DAY_MS + 60 * 60 * 1000;
    const other = gateway();
    const b = await other.exec(AddressTransactionsDocument, {
      chainId: C,
      address: busy,
      first: 40,
      sortOrder: 'ASC',
      after: a.data!.address!.transactions!.pageInfo.endCursor,
    });
    expect(b.errors).toBeUndefined();
    expect(hashes(b, 'transactions')).toEqual(asc.slice(130, 170));
  });

  it('a list without a block range says the cursor expired and how to go on', async () => {
    const first = gateway();
    const a = await first.exec(ChainBlocksDocument, { chainId: C, first: 150, txFirst: 0 });
    clock += DAY_MS + 60 * 60 * 1000;
    const other = gateway();
    const b = await other.exec(ChainBlocksDocument, {
      chainId: C,
      first: 5,
      txFirst: 0,
      after: a.data!.chain!.blocks!.pageInfo.endCursor,
    });
    expect(b.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'CURSOR_EXPIRED',
      argument: 'after',
    });
    expect(b.errors![0]!.message).toMatch(/restart paging without `after`/);
  });
});
