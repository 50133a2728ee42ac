import type { Divergence } from './harness.js';

/**
 * Divergences the oracle is allowed to find, each naming the open defect it stands for (the in-suite run
 * allows them by name and `npm run test:oracle` counts them apart); an entry goes when its fix lands.
 * Anything else is an unknown divergence. Issue 11's defects 2 (credentials in keys and coalescing) and
 * 6 (a transaction's current price), and issue 31's `networkNode.cChain` head fields of two heads in one
 * answer (test/integration/c-chain-head.test.ts) and `evmState.feeHistory`'s forecast entry of a later head
 * (test/integration/evm-fee-head.test.ts) were entries, and all are fixed.
 */
export const KNOWN: { issue: string; matches: (d: Divergence) => boolean }[] = [];

export const knownIssue = (d: Divergence): string | undefined =>
  KNOWN.find((k) => k.matches(d))?.issue;
export const known = (d: Divergence): boolean => knownIssue(d) !== undefined;
