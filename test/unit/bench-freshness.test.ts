import { describe, expect, it } from 'vitest';
import {
  checkFreshness,
  type FreshnessSample,
  sampleOf,
  type Truth,
} from '../../bench/workload/freshness.js';

/** A world where A's balance is its block number's hundreds (it changes every 100 blocks). */
const truth: Truth = {
  dataApiBalance: async (_c, _a, block) =>
    block > 1_000 ? undefined : String(Math.floor(block / 100)),
  nodeAccount: async (_a, block) => ({ balance: String(Math.floor(block / 100)), nonce: '7' }),
};
const A = `0x${'a1'.repeat(20)}`;
const native = (balance: string, sentAt: number, flaggedStale = false): FreshnessSample => ({
  operation: 'ExplorerAddressSummary',
  chainId: '43114',
  address: A,
  sentAt,
  answeredAt: sentAt + 1,
  balance,
  flaggedStale,
});
const bounds = { nativeBoundBlocks: 34, headBoundBlocks: 2, max: 400 };

describe("the bench's freshness check", () => {
  it('takes a balance any block of its bound had, and flags one older than the bound', async () => {
    // At 720 the balance is 7; 6 held until 699, 21 blocks earlier: within 34. At 740, 41 blocks: not.
    const r = await checkFreshness(
      [native('7', 720), native('6', 720), native('6', 740), native('6', 740, true)],
      truth,
      bounds,
    );
    expect(r).toMatchObject({ checked: 4, violations: 2, flaggedStale: 1 });
    expect(r.examples[0]).toContain('none of the Data API');
  });

  it("checks a pinned head's age and the node's own state there", async () => {
    const state = (pinned: number, balance: string, nonce: string): FreshnessSample => ({
      ...native(balance, 800),
      operation: 'WalletState',
      pinned,
      nonce,
    });
    const r = await checkFreshness(
      [state(799, '7', '7'), state(790, '7', '7'), state(799, '7', '8')],
      truth,
      bounds,
    );
    expect(r).toMatchObject({ checked: 3, violations: 2 });
  });

  it('reads samples from the views it knows, and nothing from the others', () => {
    const vars = { chainId: '43114', address: A.toUpperCase().replace('0X', '0x') };
    expect(
      sampleOf('WalletPortfolio', vars, { address: { balance: { balance: '5' } } }, 10, 11),
    ).toMatchObject({ address: A, balance: '5', sentAt: 10, answeredAt: 11 });
    expect(
      sampleOf(
        'WalletState',
        vars,
        { evmState: { blockNumber: '9', account: { balance: '5', nonce: '2' } } },
        10,
        10,
      ),
    ).toMatchObject({ pinned: 9, nonce: '2' });
    expect(sampleOf('ExplorerBlock', vars, { block: {} }, 10, 10)).toBeUndefined();
    expect(sampleOf('WalletPortfolio', vars, undefined, 10, 10)).toBeUndefined();
  });
});
