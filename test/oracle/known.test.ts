import { describe, expect, it } from 'vitest';
import type { Divergence } from './harness.js';
import { KNOWN, knownIssue } from './known.js';

/** Only the open feeHistory forecast defect is allowed by name; anything else is unknown and fails the run. */
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

  it('one is open: the feeHistory forecast entry', () => {
    expect(KNOWN.map((k) => k.issue)).toEqual([
      'open (issue 31 follow-up): evmState.feeHistory forecast entry of a later head',
    ]);
  });

  const fees = (blockNumber: string, baseFeePerGas: string[]) => ({
    data: { evmState: { blockNumber, feeHistory: { oldestBlock: '1', baseFeePerGas } } },
  });
  const feeDiv = (got: unknown) =>
    ({
      got,
      expected: [{ version: 46, answer: fees('70000571', ['0x1', '0x2', '0x3']) }],
    }) as unknown as Divergence;

  it('a feeHistory whose forecast entry alone differs is the known defect; any other difference is not', () => {
    expect(knownIssue(feeDiv(fees('70000571', ['0x1', '0x2', '0x9'])))).toMatch(/feeHistory/);
    expect(knownIssue(feeDiv(fees('70000571', ['0x1', '0x9', '0x3'])))).toBeUndefined();
    expect(knownIssue(feeDiv(fees('70000573', ['0x1', '0x2', '0x9'])))).toBeUndefined();
  });

  it('cChain fields of two heads side by side (seed oracle-4, CChainTenFields, fixed) are unknown again', () => {
    expect(knownIssue(div(at('70000491', '1781536085')))).toBeUndefined();
  });
});
