import type { NativeTransaction } from './schemas/evm.js';

/**
 * What the gateway derives from a list item instead of reading the item's own route (facts held by
 * lists, docs/caching.md). One object per gateway: a test gives the uncached reference none (its answers
 * are the upstream's own), and the cache oracle plants a wrong one to show the derivation is judged.
 */
export interface Derivations {
  /**
   * Whether a listed transaction ran no code, so its full page adds nothing its list item does not
   * say: no call data (`input` is `0x`), no ERC-20/721/1155 transfer (no log), no internal transaction
   * and no ICM message (no inner call). Fields no list item holds (the fee caps, the base fee, the
   * native token's prices) are still read from the full page.
   */
  plainTransfer(tx: NativeTransaction): boolean;
  /**
   * Whether node ids none of which has a validation active or pending in the validators list (one
   * complete page of exactly those ids, every status) are answered "no pending rewards" without
   * reading the rewards route: a pending reward is the reward of a stake that has not ended, and every
   * stake on a node (its validation, the delegations to it) ends with the node's validation.
   */
  pendingRewardsFromValidators: boolean;
}

/**
 * A successful transaction that used exactly 21,000 gas: the intrinsic gas of a call with no data.
 * Every byte of call data costs gas (4 or 16), an access list costs gas, a deployment's intrinsic gas
 * is 53,000, and every opcode that can log or call costs gas (LOG0 375, a CALL at least 100); refunds
 * cannot bring it back to 21,000 (a refund is always less than the store that earned it, and the
 * C-Chain has paid none since Apricot Phase 1). So nothing ran: the list item is the transaction.
 * The call type the indexer decodes is not trusted for this: only the gas says it.
 */
export function isPlainTransfer(tx: NativeTransaction): boolean {
  return tx.gasUsed === '21000' && tx.txStatus === '1';
}

export const DERIVATIONS: Derivations = {
  plainTransfer: isPlainTransfer,
  pendingRewardsFromValidators: true,
};

/** Nothing derived: every field is read from its own route (the oracle's uncached reference). */
export const NO_DERIVATIONS: Derivations = {
  plainTransfer: () => false,
  pendingRewardsFromValidators: false,
};
