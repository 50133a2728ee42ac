import { describe, expect, it } from 'vitest';
import type { Divergence } from './harness.js';
import { KNOWN, knownIssue } from './known.js';

/** No divergence is allowed by name: each one the oracle finds counts as unknown and fails the run. */
describe('known divergences', () => {
  const at = (blockNumber: string, baseFee: string) => ({
    data: {
      networkNode: { cChain: { chainId: '43114', blockNumber, baseFee, netVersion: '43114' } },
    },
  });
  const div = (got: unknown) =>
    ({
      got,
      expected: [
        { version: 6, answer: at('70000491', '2340347580') },
        { version: 5, answer: at('70000489', '1781536085') },
      ],
    }) as unknown as Divergence;

  it('none is open', () => {
    expect(KNOWN).toEqual([]);
  });

  it('cChain fields of two heads side by side (seed oracle-4, CChainTenFields, fixed) are unknown again', () => {
    expect(knownIssue(div(at('70000491', '1781536085')))).toBeUndefined();
  });
});
