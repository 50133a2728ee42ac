import type { RunningSimulator } from '@avalanche-gateway/simulator';

/**
 * The simulator's truth of what the C-Chain's blocks numbered above `after` (up to `upTo`) touched where
 * a reader of blocks can see it: each transaction's `from` and `to`, and every token transfer's parties
 * and token (its log's topics and emitter), lower case. What contracts pay through internal transactions
 * is not in it: that is the simulator's `invisible-payouts` disagreement.
 */
export function visiblyTouched(
  sim: RunningSimulator,
  after: number,
  upTo = Number.POSITIVE_INFINITY,
): Set<string> {
  const out = new Set<string>();
  const txs = sim.world.chain('43114')!.transactions;
  for (let i = txs.length - 1; i >= 0; i--) {
    const tx = txs[i]!;
    if (tx.blockNumber <= after) break;
    if (tx.blockNumber > upTo) continue;
    for (const a of [tx.from, tx.to]) out.add(a.toLowerCase());
    for (const t of [...tx.erc20, ...tx.erc721, ...tx.erc1155])
      for (const a of [t.from, t.to, t.token]) out.add(a.toLowerCase());
  }
  return out;
}
