import type { GatewayContext } from '../../context.js';
import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import type { GatewayNetwork, PrimaryChainInfo } from '../../upstream/schemas/primary.js';
import {
  type L1ValidatorTxDetails,
  type PChainTransactionRaw,
  PRIMARY_NETWORK_TX_TYPES,
  pChainTxType,
} from '../../upstream/schemas/primary-staking.js';
import { builder } from '../builder.js';
import { resolveTokenConnection } from '../connection.js';
import { describedValues } from '../enum-docs.js';
import { badInput } from '../errors.js';
import {
  parseCb58Id,
  parseNetwork,
  parsePrimaryAddresses,
  parseTimeRange,
} from '../primary-inputs.js';
import { isoOf } from '../scalars.js';
import { BlockchainInfoRef } from './blockchain-genesis.js';
import { L1ValidatorBlsRef, L1ValidatorRef, loadL1Validator } from './l1-validator.js';
import { NetworkNameEnum, NetworkRef, SortOrderEnum } from './network.js';
import { PChainUtxoRef } from './p-chain-utxo.js';
import { AssetAmountRef, PrimaryChainInfoRef } from './primary-balance.js';
import { BlsCredentialsRef, findValidator, ValidatorRef } from './validator.js';

/**
 * A P-Chain transaction, as the staking list (and the get-by-hash route, for refetching) answers it.
 * Global id: `StakingTransaction:<network>:<txHash>`. Validator and delegator transactions link to the
 * validation period they created or delegate to; L1 validator details link to the L1 validator.
 */
export type StakingTransaction = PChainTransactionRaw & {
  network: GatewayNetwork;
  listChainInfo?: PrimaryChainInfo;
};

const P_CHAIN_TX_TYPE_DOCS = {
  AddValidatorTx: 'Adds a primary-network validator (pre-Durango form), staking AVAX for a period.',
  AddSubnetValidatorTx: 'Adds a validator to a permissioned subnet.',
  AddDelegatorTx: 'Delegates stake to a primary-network validator (pre-Durango form).',
  CreateChainTx: 'Creates a blockchain in a subnet (with its VM and genesis data).',
  CreateSubnetTx: 'Creates a subnet with its owners.',
  ImportTx: 'Imports funds into the P-Chain from the X- or C-Chain (atomic, shared memory).',
  ExportTx: 'Exports funds from the P-Chain to the X- or C-Chain (atomic, shared memory).',
  AdvanceTimeTx: "Advances the P-Chain's clock (pre-Banff).",
  RewardValidatorTx: 'Ends a validation or delegation and pays (or withholds) its reward.',
  RemoveSubnetValidatorTx: 'Removes a validator from a permissioned subnet.',
  TransformSubnetTx: 'Turns a permissioned subnet into an elastic (permissionless) one.',
  AddPermissionlessValidatorTx:
    'Adds a validator with BLS credentials (primary network or an elastic subnet).',
  AddPermissionlessDelegatorTx: 'Delegates stake to a permissionless validator.',
  BaseTx: 'A plain transfer of P-Chain funds.',
  TransferSubnetOwnershipTx: "Changes a subnet's owners.",
  ConvertSubnetToL1Tx:
    'Converts a subnet into an L1 with its validator manager contract and initial validators.',
  RegisterL1ValidatorTx: 'Registers a validator of an L1 (with its balance for continuous fees).',
  SetL1ValidatorWeightTx: "Changes an L1 validator's weight (0 removes it).",
  DisableL1ValidatorTx: 'Disables an L1 validator and returns its remaining balance.',
  IncreaseL1ValidatorBalanceTx: "Tops up an L1 validator's balance for continuous fees.",
  UNKNOWN: 'A type the upstream does not recognise.',
} as const;

export const PChainTransactionTypeEnum = builder.enumType('PChainTransactionType', {
  description: "A P-Chain transaction's type, as the Data API names it.",
  values: describedValues(pChainTxType.options, P_CHAIN_TX_TYPE_DOCS),
});
export const PrimaryNetworkTxTypeEnum = builder.enumType('PrimaryNetworkTxType', {
  description: 'Transaction types the staking list can be filtered on.',
  values: describedValues(PRIMARY_NETWORK_TX_TYPES, {
    ...P_CHAIN_TX_TYPE_DOCS,
    CreateAssetTx: 'X-Chain: creates an asset.',
    OperationTx: 'X-Chain: an operation on assets (e.g. minting NFTs).',
  }),
});

type L1Detail = L1ValidatorTxDetails & { network: GatewayNetwork };

const L1ValidatorTxDetailsRef = builder.objectRef<L1Detail>('L1ValidatorTxDetails').implement({
  description: 'An L1 validator as this transaction registered or changed it.',
  fields: (t) => ({
    validationId: t.exposeString('validationId', {
      description:
        'CB58 validation id: identifies this L1 validation network-wide until its weight drops to 0 (removed).',
    }),
    validationIdHex: t.exposeString('validationIdHex', {
      description: 'The same validation id in hex (0x…).',
    }),
    nodeId: t.exposeString('nodeId', { description: 'Node id of the L1 validator (`NodeID-…`).' }),
    subnetId: t.exposeString('subnetId', { description: "CB58 id of the L1's subnet." }),
    weight: t.field({
      description:
        "Weight used when sampling the L1's validators, as of this transaction; 0 means removed.",
      type: 'BigDecimal',
      resolve: (d) => String(d.weight),
    }),
    remainingBalance: t.field({
      type: 'BigDecimal',
      description:
        'Balance left for continuous fees, in nAVAX, until the validator becomes inactive.',
      resolve: (d) => String(d.remainingBalance),
    }),
    balanceChange: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'nAVAX added (or returned) by this transaction.',
      resolve: (d) => (d.balanceChange == null ? null : String(d.balanceChange)),
    }),
    blsCredentials: t.field({
      description: 'BLS public key and proof of possession registered for this L1 validator.',
      type: L1ValidatorBlsRef,
      nullable: true,
      resolve: (d) => d.blsCredentials ?? null,
    }),
    l1Validator: t.field({
      type: L1ValidatorRef,
      nullable: true,
      description: 'The L1 validator now (inactive ones included).',
      resolve: (d, _args, ctx) => loadL1Validator(`${d.network}:${d.validationId}`, ctx),
    }),
  }),
});

const ManagerRef = builder
  .objectRef<NonNullable<PChainTransactionRaw['l1ValidatorManagerDetails']>>(
    'L1ValidatorManagerDetails',
  )
  .implement({
    description: "Where an L1's validator manager contract lives (set by ConvertSubnetToL1Tx).",
    fields: (t) => ({
      blockchainId: t.exposeString('blockchainId', {
        description: 'CB58 id of the blockchain that hosts the validator manager contract.',
      }),
      contractAddress: t.exposeString('contractAddress', {
        description: 'Address (0x-hex) of the validator manager contract on that blockchain.',
      }),
    }),
  });

const SubnetOwnershipRef = builder
  .objectRef<NonNullable<PChainTransactionRaw['subnetOwnershipInfo']>>('SubnetOwnershipInfo')
  .implement({
    description: 'Subnet owners set by CreateSubnetTx or TransferSubnetOwnershipTx.',
    fields: (t) => ({
      locktime: t.exposeInt('locktime', {
        description:
          'Unix time (seconds) after which the owners can control the subnet; 0 = at once.',
      }),
      threshold: t.exposeInt('threshold', {
        description: 'Minimum number of owner signatures needed for subnet update transactions.',
      }),
      addresses: t.exposeStringList('addresses', {
        description: 'Owner addresses (bech32) eligible to sign subnet update transactions.',
      }),
    }),
  });

export const StakingTransactionRef = builder.objectRef<StakingTransaction>('StakingTransaction');

async function loadStakingTransaction(
  id: string,
  ctx: GatewayContext,
): Promise<StakingTransaction> {
  const sep = id.indexOf(':');
  if (sep <= 0) throw badInput('id', 'Malformed StakingTransaction id');
  const network = parseNetwork(id.slice(0, sep), 'id');
  const txHash = parseCb58Id(id.slice(sep + 1), 'id', 'transaction hash');
  return { ...(await ctx.loaders.primary.pChainTransaction.load({ network, txHash })), network };
}

const VALIDATOR_TX = new Set([
  'AddValidatorTx',
  'AddPermissionlessValidatorTx',
  'AddSubnetValidatorTx',
]);
const DELEGATOR_TX = new Set(['AddDelegatorTx', 'AddPermissionlessDelegatorTx']);

const ts = { type: 'Timestamp', nullable: true } as const;

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
    blockNumber: t.expose('blockNumber', {
      description: 'Height of the P-Chain block that includes the transaction (decimal string).',
      type: 'BigDecimal',
    }),
    blockHash: t.exposeString('blockHash', { description: 'Hash of that block (CB58).' }),
    blockTimestamp: t.expose('blockTimestamp', {
      description: 'When the block was proposed, Unix seconds.',
      type: 'Timestamp',
    }),
    blockTimestampIso: t.string({
      description: '`blockTimestamp` as an ISO 8601 UTC date-time.',
      resolve: (tx) => isoOf(tx.blockTimestamp),
    }),
    consumedUtxos: t.field({
      description: 'UTXOs this transaction spent.',
      type: [PChainUtxoRef],
      resolve: (tx) => tx.consumedUtxos,
    }),
    emittedUtxos: t.field({
      description: 'UTXOs this transaction created.',
      type: [PChainUtxoRef],
      resolve: (tx) => tx.emittedUtxos,
    }),
    sourceChain: t.exposeString('sourceChain', {
      description:
        'For an atomic ImportTx: CB58 id of the chain the funds come from; null otherwise.',
      nullable: true,
    }),
    destinationChain: t.exposeString('destinationChain', {
      description: 'For an atomic ExportTx: CB58 id of the chain the funds go to; null otherwise.',
      nullable: true,
    }),
    value: t.field({
      description: 'Amounts per asset in the UTXOs this transaction created (AVAX in nAVAX).',
      type: [AssetAmountRef],
      resolve: (tx) => tx.value,
    }),
    amountBurned: t.field({
      description: 'Amounts per asset burned as fees, partly or fully (AVAX in nAVAX).',
      type: [AssetAmountRef],
      resolve: (tx) => tx.amountBurned,
    }),
    amountStaked: t.field({
      description:
        'Amounts staked per asset; present for validator and delegator transactions, empty otherwise.',
      type: [AssetAmountRef],
      resolve: (tx) => tx.amountStaked,
    }),
    amountL1ValidatorBalanceBurned: t.field({
      description:
        'nAVAX locked for the continuous fees of L1 validators (RegisterL1ValidatorTx, IncreaseL1ValidatorBalanceTx, ConvertSubnetToL1Tx); empty otherwise.',
      type: [AssetAmountRef],
      resolve: (tx) => tx.amountL1ValidatorBalanceBurned,
    }),
    startTimestamp: t.expose('startTimestamp', {
      ...ts,
      description:
        'Start of the validation or delegation, Unix seconds; null for other transaction types.',
    }),
    endTimestamp: t.expose('endTimestamp', {
      ...ts,
      description:
        'End of the validation or delegation, Unix seconds; null for other transaction types.',
    }),
    delegationFeePercent: t.expose('delegationFeePercent', {
      description:
        'Percent (e.g. "2.0000") of delegators\' rewards the validator keeps; validator transactions only, else null.',
      type: 'BigDecimal',
      nullable: true,
    }),
    nodeId: t.exposeString('nodeId', {
      description:
        'Node id (`NodeID-…`) of the validator this transaction adds, removes or delegates to; null when not a staking transaction.',
      nullable: true,
    }),
    subnetId: t.exposeString('subnetId', {
      description:
        "CB58 subnet id the transaction concerns (the primary network's is `11111111111111111111111111111111LpoYY`); null when none.",
      nullable: true,
    }),
    estimatedReward: t.expose('estimatedReward', {
      type: 'BigDecimal',
      nullable: true,
      description:
        'Estimated reward in nAVAX if the stake succeeds; null for other transaction types.',
    }),
    rewardTxHash: t.exposeString('rewardTxHash', {
      description:
        'Hash (CB58) of the RewardValidatorTx that ended this validation or delegation; null until it has ended.',
      nullable: true,
    }),
    rewardAddresses: t.stringList({
      description:
        'Addresses (bech32) that receive the staking reward; empty when not a staking transaction.',
      resolve: (tx) => tx.rewardAddresses ?? [],
    }),
    memo: t.exposeString('memo', {
      description: 'Memo attached to the transaction (as the upstream gives it); null when none.',
      nullable: true,
    }),
    stakingTxHash: t.exposeString('stakingTxHash', {
      nullable: true,
      description: 'For a RewardValidatorTx: the staking transaction rewarded.',
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
          return findValidator(ctx, tx.network, tx.nodeId, (v) => v.txHash === tx.txHash);
        const start = tx.startTimestamp;
        if (!DELEGATOR_TX.has(tx.txType) || start == null) return null;
        return findValidator(
          ctx,
          tx.network,
          tx.nodeId,
          (v) => v.startTimestamp <= start && start < v.endTimestamp,
        );
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

builder.objectFields(NetworkRef, (t) => ({
  stakingTransactions: t.connection(
    {
      type: StakingTransactionRef,
      nullable: true,
      description:
        'Active P-Chain staking transactions (validations and delegations not yet ended). Forward paging only.',
      args: {
        addresses: t.arg.stringList({
          description:
            'Only transactions of these P/X addresses (bech32 of this network, optionally P- or X-).',
        }),
        txTypes: t.arg({
          description: 'Only these transaction types; all types when omitted.',
          type: [PrimaryNetworkTxTypeEnum],
        }),
        startTimestamp: t.arg.int({
          description: 'Only transactions after this Unix time (seconds, ≥ 0).',
        }),
        endTimestamp: t.arg.int({
          description: 'Only transactions before this Unix time (seconds, ≥ 0).',
        }),
        sortOrder: t.arg({
          type: SortOrderEnum,
          description: 'By block time. Default: newest first.',
        }),
      },
      resolve: (network, args, ctx) => {
        const addresses = args.addresses
          ? parsePrimaryAddresses(args.addresses, network.name).sort()
          : undefined;
        const { startTimestamp, endTimestamp } = parseTimeRange(args);
        const txTypes = args.txTypes ? [...new Set(args.txTypes)].sort() : undefined;
        const filter = {
          addresses,
          txTypes,
          startTimestamp,
          endTimestamp,
          sortOrder: args.sortOrder ?? undefined,
        };
        let lastChainInfo: PrimaryChainInfo | null = null;
        return resolveTokenConnection<StakingTransaction>(args, ctx.connections, {
          listKey: `staking|${network.name}|${JSON.stringify(filter)}`,
          pageSize: PRIMARY_PAGE_SIZE.stakingTransactions,
          itemKey: (tx) => tx.txHash,
          // Active stakes leave the list when they end: cursors resume in the live list.
          mutableItems: true,
          fetchPage: async (pageToken) => {
            const page = await ctx.loaders.primary.stakingPage.load({
              network: network.name,
              pageToken,
              ...filter,
            });
            lastChainInfo = page.chainInfo;
            // Items carry their page's chain info so a page resumed from its snapshot still has it.
            return {
              items: page.items.map((tx) => ({
                ...tx,
                network: network.name,
                listChainInfo: page.chainInfo,
              })),
              nextPageToken: page.nextPageToken,
            };
          },
        }).then((conn) => ({
          ...conn,
          chainInfo: conn.edges[0]?.node.listChainInfo ?? lastChainInfo,
        }));
      },
    },
    {
      description: 'A page of P-Chain staking transactions.',
      fields: (c) => ({
        chainInfo: c.field({
          type: PrimaryChainInfoRef,
          nullable: true,
          description: 'The chain the upstream listed (always the P-Chain) and its network name.',
          resolve: (conn) => (conn as { chainInfo?: PrimaryChainInfo | null }).chainInfo ?? null,
        }),
      }),
    },
    { description: 'A staking transaction and its cursor.' },
  ),
}));
