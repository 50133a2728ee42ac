import { describe, expect, it } from 'vitest';
import type { Divergence } from './harness.js';
import { KNOWN, knownIssue } from './known.js';

/** No defect is allowed by name: every divergence is unknown and fails the run. */
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

  const fees = (blockNumber: string, baseFeePerGas: string[]) => ({
    data: { evmState: { blockNumber, feeHistory: { oldestBlock: '1', baseFeePerGas } } },
  });
  const feeDiv = (got: unknown) =>
    ({
      got,
      expected: [{ version: 46, answer: fees('70000571', ['0x1', '0x2', '0x3']) }],
    }) as unknown as Divergence;

  it('a feeHistory whose forecast entry is a later head’s (seed oracle-1, fixed) is unknown again', () => {
    expect(knownIssue(feeDiv(fees('70000571', ['0x1', '0x2', '0x9'])))).toBeUndefined();
  });

  it('cChain fields of two heads side by side (seed oracle-4, CChainTenFields, fixed) are unknown again', () => {
    expect(knownIssue(div(at('70000491', '1781536085')))).toBeUndefined();
  });
});
