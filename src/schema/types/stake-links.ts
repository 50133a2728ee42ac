import type { GatewayContext } from '../../context.js';
import type { GatewayNetwork, Validator } from '../../upstream/schemas/primary.js';
import type { GatewayTypes } from '../builder-types.js';
import { inNetwork, type NetworkLoad } from '../node-load.js';
import { type StakingTransaction, StakingTransactionRef } from './staking-transaction.js';
import { findValidator, ValidatorRef } from './validator.js';

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

type Stake = { network: GatewayNetwork; nodeId: string; txHash: string };

/**
 * The two links every stake has (a delegation, the stake a reward is for): the validation period it
 * belongs to, found as `by` says, and the transaction that made it.
 */
export function stakeLinks<S extends Stake>(
  t: PothosSchemaTypes.InterfaceFieldBuilder<GatewayTypes, S>,
  options: {
    validator: string;
    stakingTransaction: string;
    by: (stake: S) => { validationTxHash: string } | { delegationStart: number };
  },
) {
  return {
    validator: t.field({
      type: ValidatorRef,
      nullable: true,
      description: options.validator,
      resolve: (s, _a, ctx) => validatorOfStake(ctx, s.network, s.nodeId, options.by(s)),
    }),
    stakingTransaction: t.field({
      type: StakingTransactionRef,
      nullable: true,
      description: options.stakingTransaction,
      resolve: (s, _a, ctx) => linkedStakingTransaction(ctx, s.network, s.txHash),
    }),
  };
}
