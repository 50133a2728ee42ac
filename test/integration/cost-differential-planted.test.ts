import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { COST_DECLARATIONS } from '../../src/schema/cost-declarations.js';
import { overspends } from '../support/cost-differential.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/**
 * The differential pricing check can fail (issue 42, "Must show"): with the per-item loads of a
 * transaction unpriced again, as they were before (`Transaction.input` and its siblings priced 0), a list
 * of transactions asking for their call data spends past its estimate, and the check names it. The
 * schema is built from the table when the gateway starts, so the plant goes in before that.
 */
const planted = Object.keys(COST_DECLARATIONS).filter(
  (c) => c.startsWith('Transaction.') && COST_DECLARATIONS[c]!.load !== undefined,
);
for (const c of planted) delete COST_DECLARATIONS[c];

let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ gateway: { env: { MAX_QUERY_COST: '100000000' } } }, (s, g) => {
  sim = s;
  gw = g;
});

describe('a planted unpriced per-item field', () => {
  it('fails the differential check, and the meter stops its spending at the allowance', async () => {
    expect(planted).toContain('Transaction.input');
    const address = sim.world.fixtures.busyAddress;
    const step = {
      name: 'planted:input',
      query: `{ address(chainId: "43114", address: "${address}") { transactions(first: 50) { edges { node { hash input } } } } }`,
      variables: {},
      pages: false,
    };
    const found = await overspends(gw, [step]);
    expect(found).toHaveLength(1);
    // Priced one page (20); the allowance (its margin) paid the page and one transaction, then refused.
    expect(found[0]).toMatchObject({ step: 'planted:input', estimated: 20 });
    expect(found[0]!.spent).toBeLessThanOrEqual(25);
    // Refused: the page's transactions that ran code, but at most one the margin paid (a plain
    // transfer's call data is derived, src/upstream/derivations.ts, and needs no call).
    const list = await simGet(
      sim.dataApiUrl,
      `/v1/chains/43114/addresses/${address}/transactions`,
      {
        pageSize: 50,
      },
    );
    const ranCode = list.transactions.filter(
      (t: any) => t.nativeTransaction.gasUsed !== '21000' || t.nativeTransaction.txStatus !== '1',
    ).length;
    expect(ranCode).toBeGreaterThan(20);
    expect(found[0]!.refused).toBeGreaterThanOrEqual(ranCode - 1);
    expect(found[0]!.refused).toBeLessThanOrEqual(ranCode);
  });
});
