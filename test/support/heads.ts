import type { Head } from '../../src/live/head.js';

/** A C-Chain head numbered `n` as the feed carries one (hashes from the number), with `extra` over it. */
export const testHead = (n: number, extra: Partial<Head> = {}): Head => ({
  chainId: '43114',
  number: String(n),
  hash: `0x${n.toString(16).padStart(64, '0')}`,
  parentHash: `0x${(n - 1).toString(16).padStart(64, '0')}`,
  timestamp: n,
  gasUsed: '0',
  gasLimit: '15000000',
  baseFee: '1',
  txCount: 0,
  seenAt: 0,
  ...extra,
});
