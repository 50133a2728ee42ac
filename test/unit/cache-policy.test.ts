import { describe, expect, it } from 'vitest';
import { createCachePolicy, DEFAULT_TTL_MS } from '../../src/cache/policy.js';

/** Mutable is decided per field (issue 11, defect 6): pages of lists of changing items stay head data. */
describe('cache policy', () => {
  const policy = createCachePolicy();
  it('token pages of ICM-message and active-staking lists are head data, not 23 h token pages', () => {
    for (const resource of ['data.icmMessages', 'data.stakingTransactions'] as const) {
      expect(policy.ttlFor(resource, { pageToken: 'T', lastPage: false }).ttlMs).toBe(
        DEFAULT_TTL_MS.head,
      );
    }
  });
  it('token pages of lists of final items are still token pages; a last page is head data', () => {
    expect(
      policy.ttlFor('data.addressTransactions', { pageToken: 'T', lastPage: false }).ttlMs,
    ).toBe(DEFAULT_TTL_MS.tokenPage);
    expect(
      policy.ttlFor('data.addressTransactions', { pageToken: 'T', lastPage: true }).ttlMs,
    ).toBe(DEFAULT_TTL_MS.head);
  });
  it('a transaction is immutable; its current price is head data', () => {
    expect(policy.ttlFor('data.transaction').ttlMs).toBe(DEFAULT_TTL_MS.immutable);
    expect(policy.ttlFor('data.transactionPrice').ttlMs).toBe(DEFAULT_TTL_MS.head);
  });
  it('pending rewards live as long as the delegators list whose additions and ends they follow, on every page (issue 33)', () => {
    // A pending reward's list changes when a stake is added or ends; its estimated reward is fixed by
    // the stake: head data (2 s) at the XL price spent a quarter of the workload's CUs.
    expect(policy.ttlFor('data.pendingRewards')).toEqual(policy.ttlFor('data.delegators'));
    expect(policy.ttlFor('data.pendingRewards', { pageToken: 'T', lastPage: false })).toEqual(
      policy.ttlFor('data.delegators'),
    );
    expect(policy.ttlFor('data.pendingRewards').ttlMs).toBeLessThanOrEqual(DEFAULT_TTL_MS.slow);
  });
});
