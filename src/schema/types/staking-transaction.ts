import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { GatewayNetwork, PrimaryChainInfo } from '../../upstream/schemas/primary.js';
import type { PChainTransactionRaw } from '../../upstream/schemas/primary-staking.js';
import { builder } from '../builder.js';
import { exposed, refList } from '../expose.js';
import { parseCb58Id, parseNetwork } from '../primary-inputs.js';
import { BlockchainInfoRef } from './blockchain-genesis.js';
import { NetworkNameEnum } from './network.js';
import { PChainUtxoRef } from './p-chain-utxo.js';
import { AssetAmountRef } from './primary-asset.js';
import { linkedStakingTransaction, validatorOfStake } from './stake-links.js';
import {
  L1ValidatorTxDetailsRef,
  ManagerRef,
  PChainTransactionTypeEnum,
  SubnetOwnershipRef,
} from './staking-transaction-parts.js';
import { ValidatorRef } from './validator.js';
import { BlsCredentialsRef } from './validator-parts.js';

export {
  PChainTransactionTypeEnum,
  PrimaryNetworkTxTypeEnum,
} from './staking-transaction-parts.js';

/**
 * A P-Chain transaction, as the staking list (and the get-by-hash route, for refetching) answers it.
 * Global id: `StakingTransaction:<network>:<txHash>`. Validator and delegator transactions link to the
 * validation period they created or delegate to; L1 validator details link to the L1 validator.
 */
export type StakingTransaction = PChainTransactionRaw & {
  network: GatewayNetwork;
  listChainInfo?: PrimaryChainInfo;
};

export const StakingTransactionRef = builder.objectRef<StakingTransaction>('StakingTransaction');

async function loadStakingTransaction(
  id: string,
  ctx: GatewayContext,
): Promise<StakingTransaction> {
  const sep = id.indexOf(':');
  if (sep <= 0) throw badInput('id', 'Malformed StakingTransaction id');
  const network = parseNetwork(id.slice(0, sep), 'id');
  const txHash = parseCb58Id(id.slice(sep + 1), 'id', 'transaction hash');
  return linkedStakingTransaction(ctx, network, txHash);
}

const VALIDATOR_TX = new Set([
  'AddValidatorTx',
  'AddPermissionlessValidatorTx',
  'AddSubnetValidatorTx',
]);
const DELEGATOR_TX = new Set(['AddDelegatorTx', 'AddPermissionlessDelegatorTx']);

builder.node(StakingTransactionRef, {
  description:
    'A P-Chain transaction: its UTXOs, amounts staked and burned, and what it validated, delegated or created.',
  id: { resolve: (tx) => `${tx.network}:${tx.txHash}` },
  loadMany: (ids, ctx) => ids.map((id) => loadStakingTransaction(id, ctx)),
  fields: (t) => ({
    network: t.expose('network', {
      description: 'The primary network this transaction is on.',
      type: NetworkNameEnum,
    }),
    txHash: t.exposeString('txHash', { description: 'P-Chain transaction hash (CB58).' }),
    txType: t.expose('txType', {
      description: "The transaction's type.",
      type: PChainTransactionTypeEnum,
    }),
    ...exposed(t, {
      blockNumber: [
        'BigDecimal',
        'Height of the P-Chain block that includes the transaction (decimal string).',
      ],
      blockHash: ['String', 'Hash of that block (CB58).'],
      blockTimestamp: ['Timestamp+Iso', 'When the block was proposed, Unix seconds.'],
      consumedUtxos: refList(PChainUtxoRef, 'UTXOs this transaction spent.'),
      emittedUtxos: refList(PChainUtxoRef, 'UTXOs this transaction created.'),
      sourceChain: [
        'String?',
        'For an atomic ImportTx: CB58 id of the chain the funds come from; null otherwise.',
      ],
      destinationChain: [
        'String?',
        'For an atomic ExportTx: CB58 id of the chain the funds go to; null otherwise.',
      ],
      value: refList(
        AssetAmountRef,
        'Amounts per asset in the UTXOs this transaction created (AVAX in nAVAX).',
      ),
      amountBurned: refList(
        AssetAmountRef,
        'Amounts per asset burned as fees, partly or fully (AVAX in nAVAX).',
      ),
      amountStaked: refList(
        AssetAmountRef,
        'Amounts staked per asset; present for validator and delegator transactions, empty otherwise.',
      ),
      amountL1ValidatorBalanceBurned: refList(
        AssetAmountRef,
        'nAVAX locked for the continuous fees of L1 validators (RegisterL1ValidatorTx, IncreaseL1ValidatorBalanceTx, ConvertSubnetToL1Tx); empty otherwise.',
      ),
      startTimestamp: [
        'Timestamp?',
        'Start of the validation or delegation, Unix seconds; null for other transaction types.',
      ],
      endTimestamp: [
        'Timestamp?',
        'End of the validation or delegation, Unix seconds; null for other transaction types.',
      ],
      delegationFeePercent: [
        'BigDecimal?',
        'Percent (e.g. "2.0000") of delegators\' rewards the validator keeps; validator transactions only, else null.',
      ],
      nodeId: [
        'String?',
        'Node id (`NodeID-…`) of the validator this transaction adds, removes or delegates to; null when not a staking transaction.',
      ],
      subnetId: [
        'String?',
        "CB58 subnet id the transaction concerns (the primary network's is `11111111111111111111111111111111LpoYY`); null when none.",
      ],
      estimatedReward: [
        'BigDecimal?',
        'Estimated reward in nAVAX if the stake succeeds; null for other transaction types.',
      ],
      rewardTxHash: [
        'String?',
        'Hash (CB58) of the RewardValidatorTx that ended this validation or delegation; null until it has ended.',
      ],
    }),
    rewardAddresses: t.stringList({
      description:
        'Addresses (bech32) that receive the staking reward; empty when not a staking transaction.',
      resolve: (tx) => tx.rewardAddresses ?? [],
    }),
    ...exposed(t, {
      memo: [
        'String?',
        'Memo attached to the transaction (as the upstream gives it); null when none.',
      ],
      stakingTxHash: ['String?', 'For a RewardValidatorTx: the staking transaction rewarded.'],
    }),
    blsCredentials: t.field({
      description:
        'BLS public key and proof of possession of a new validator (AddPermissionlessValidatorTx); null otherwise.',
      type: BlsCredentialsRef,
      nullable: true,
      resolve: (tx) => tx.blsCredentials ?? null,
    }),
    l1ValidatorManagerDetails: t.field({
      description:
        "For ConvertSubnetToL1Tx: where the L1's validator manager lives; null otherwise.",
      type: ManagerRef,
      nullable: true,
      resolve: (tx) => tx.l1ValidatorManagerDetails ?? null,
    }),
    l1ValidatorDetails: t.field({
      description:
        'L1 validators registered or changed by this transaction, as they were then (not now); empty when none.',
      type: [L1ValidatorTxDetailsRef],
      resolve: (tx) => (tx.l1ValidatorDetails ?? []).map((d) => ({ ...d, network: tx.network })),
    }),
    subnetOwnershipInfo: t.field({
      description:
        "For CreateSubnetTx and TransferSubnetOwnershipTx: the subnet's owners; null otherwise.",
      type: SubnetOwnershipRef,
      nullable: true,
      resolve: (tx) => tx.subnetOwnershipInfo ?? null,
    }),
    blockchainInfo: t.field({
      description: 'For CreateChainTx: the blockchain created; null otherwise.',
      type: BlockchainInfoRef,
      nullable: true,
      resolve: (tx) => tx.blockchainInfo ?? null,
    }),
    validator: t.field({
      type: ValidatorRef,
      nullable: true,
      description:
        'The validation period this transaction added, or (for a delegation) the one it delegates to.',
      resolve: (tx, _args, ctx) => {
        if (!tx.nodeId) return null;
        if (VALIDATOR_TX.has(tx.txType))
          return validatorOfStake(ctx, tx.network, tx.nodeId, { validationTxHash: tx.txHash });
        const start = tx.startTimestamp;
        if (!DELEGATOR_TX.has(tx.txType) || start == null) return null;
        return validatorOfStake(ctx, tx.network, tx.nodeId, { delegationStart: start });
      },
    }),
  }),
});

builder.interfaceFields(ValidatorRef, (t) => ({
  stakingTransaction: t.field({
    type: StakingTransactionRef,
    nullable: true,
    description: 'The P-Chain transaction that added this validator.',
    resolve: (v, _args, ctx) => loadStakingTransaction(`${v.network}:${v.txHash}`, ctx),
  }),
}));
