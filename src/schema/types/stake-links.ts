import type { GatewayContext } from '../../context.js';
import type { GatewayNetwork, Validator } from '../../upstream/schemas/primary.js';
import { inNetwork, type NetworkLoad } from '../node-load.js';
import type { StakingTransaction } from './staking-transaction.js';
import { findValidator } from './validator.js';

/**
 * Links from a stake (a delegation, a reward) to what it belongs to, through the shared loaders: a
 * validation period is found in its node's periods (one call per distinct node, shared with any
 * other lookup of that node in the query); a staking transaction is loaded by hash (one call per
 * distinct tx).
 */
export function validatorOfStake(
  ctx: GatewayContext,
  network: GatewayNetwork,
  nodeId: string,
  by: { validationTxHash: string } | { delegationStart: number },
): Promise<Validator | null> {
  if ('validationTxHash' in by)
    return findValidator(ctx, network, nodeId, (v) => v.txHash === by.validationTxHash);
  const start = by.delegationStart;
  return findValidator(
    ctx,
    network,
    nodeId,
    (v) => v.startTimestamp <= start && start < v.endTimestamp,
  );
}

export const linkedStakingTransaction: NetworkLoad<StakingTransaction> = inNetwork(
  (ctx, network, txHash) => ctx.loaders.primary.pChainTransaction.load({ network, txHash }),
);
