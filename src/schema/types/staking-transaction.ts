import type { GatewayContext } from '../../context.js';
import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import type { GatewayNetwork, PrimaryChainInfo } from '../../upstream/schemas/primary.js';
import { PRIMARY_NETWORK_TX_TYPES, pChainTxType, type L1ValidatorTxDetails, type PChainTransactionRaw } from '../../upstream/schemas/primary-staking.js';
import { builder } from '../builder.js';
import { resolveTokenConnection } from '../connection.js';
import { badInput } from '../errors.js';
import { parseCb58Id, parseNetwork, parsePrimaryAddresses, parseTimestampArg } from '../primary-inputs.js';
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
export type StakingTransaction = PChainTransactionRaw & { network: GatewayNetwork; listChainInfo?: PrimaryChainInfo };

export const PChainTransactionTypeEnum = builder.enumType('PChainTransactionType', { values: pChainTxType.options });
export const PrimaryNetworkTxTypeEnum = builder.enumType('PrimaryNetworkTxType', {
  description: 'Transaction types the staking list can be filtered on.',
  values: PRIMARY_NETWORK_TX_TYPES,
});

type L1Detail = L1ValidatorTxDetails & { network: GatewayNetwork };

const L1ValidatorTxDetailsRef = builder.objectRef<L1Detail>('L1ValidatorTxDetails').implement({
  description: 'An L1 validator as this transaction registered or changed it.',
  fields: (t) => ({
    validationId: t.exposeString('validationId'),
    validationIdHex: t.exposeString('validationIdHex'),
    nodeId: t.exposeString('nodeId'),
    subnetId: t.exposeString('subnetId'),
    weight: t.field({ type: 'BigDecimal', resolve: (d) => String(d.weight) }),
    remainingBalance: t.field({ type: 'BigDecimal', description: 'nAVAX.', resolve: (d) => String(d.remainingBalance) }),
    balanceChange: t.field({ type: 'BigDecimal', nullable: true, description: 'nAVAX added (or returned) by this transaction.', resolve: (d) => (d.balanceChange == null ? null : String(d.balanceChange)) }),
    blsCredentials: t.field({ type: L1ValidatorBlsRef, nullable: true, resolve: (d) => d.blsCredentials ?? null }),
    l1Validator: t.field({
      type: L1ValidatorRef,
      nullable: true,
      description: 'The L1 validator now (inactive ones included).',
      resolve: (d, _args, ctx) => loadL1Validator(`${d.network}:${d.validationId}`, ctx),
    }),
  }),
});

const ManagerRef = builder.objectRef<NonNullable<PChainTransactionRaw['l1ValidatorManagerDetails']>>('L1ValidatorManagerDetails').implement({
  fields: (t) => ({ blockchainId: t.exposeString('blockchainId'), contractAddress: t.exposeString('contractAddress') }),
});

const SubnetOwnershipRef = builder.objectRef<NonNullable<PChainTransactionRaw['subnetOwnershipInfo']>>('SubnetOwnershipInfo').implement({
  fields: (t) => ({ locktime: t.exposeInt('locktime'), threshold: t.exposeInt('threshold'), addresses: t.exposeStringList('addresses') }),
});

export const StakingTransactionRef = builder.objectRef<StakingTransaction>('StakingTransaction');

async function loadStakingTransaction(id: string, ctx: GatewayContext): Promise<StakingTransaction> {
  const sep = id.indexOf(':');
  if (sep <= 0) throw badInput('id', 'Malformed StakingTransaction id');
  const network = parseNetwork(id.slice(0, sep), 'id');
  const txHash = parseCb58Id(id.slice(sep + 1), 'id', 'transaction hash');
  return { ...(await ctx.loaders.primary.pChainTransaction.load({ network, txHash })), network };
}

const VALIDATOR_TX = new Set(['AddValidatorTx', 'AddPermissionlessValidatorTx', 'AddSubnetValidatorTx']);
const DELEGATOR_TX = new Set(['AddDelegatorTx', 'AddPermissionlessDelegatorTx']);

const ts = { type: 'Timestamp', nullable: true } as const;

builder.node(StakingTransactionRef, {
  description: 'A P-Chain transaction: its UTXOs, amounts staked and burned, and what it validated, delegated or created.',
  id: { resolve: (tx) => `${tx.network}:${tx.txHash}` },
  loadMany: (ids, ctx) => ids.map((id) => loadStakingTransaction(id, ctx)),
  fields: (t) => ({
    network: t.expose('network', { type: NetworkNameEnum }),
    txHash: t.exposeString('txHash'),
    txType: t.expose('txType', { type: PChainTransactionTypeEnum }),
    blockNumber: t.expose('blockNumber', { type: 'BigDecimal' }),
    blockHash: t.exposeString('blockHash'),
    blockTimestamp: t.expose('blockTimestamp', { type: 'Timestamp' }),
    blockTimestampIso: t.string({ resolve: (tx) => isoOf(tx.blockTimestamp) }),
    consumedUtxos: t.field({ type: [PChainUtxoRef], resolve: (tx) => tx.consumedUtxos }),
    emittedUtxos: t.field({ type: [PChainUtxoRef], resolve: (tx) => tx.emittedUtxos }),
    sourceChain: t.exposeString('sourceChain', { nullable: true }),
    destinationChain: t.exposeString('destinationChain', { nullable: true }),
    value: t.field({ type: [AssetAmountRef], resolve: (tx) => tx.value }),
    amountBurned: t.field({ type: [AssetAmountRef], resolve: (tx) => tx.amountBurned }),
    amountStaked: t.field({ type: [AssetAmountRef], resolve: (tx) => tx.amountStaked }),
    amountL1ValidatorBalanceBurned: t.field({ type: [AssetAmountRef], resolve: (tx) => tx.amountL1ValidatorBalanceBurned }),
    startTimestamp: t.expose('startTimestamp', ts),
    endTimestamp: t.expose('endTimestamp', ts),
    delegationFeePercent: t.expose('delegationFeePercent', { type: 'BigDecimal', nullable: true }),
    nodeId: t.exposeString('nodeId', { nullable: true }),
    subnetId: t.exposeString('subnetId', { nullable: true }),
    estimatedReward: t.expose('estimatedReward', { type: 'BigDecimal', nullable: true, description: 'nAVAX, if the stake succeeds.' }),
    rewardTxHash: t.exposeString('rewardTxHash', { nullable: true }),
    rewardAddresses: t.stringList({ resolve: (tx) => tx.rewardAddresses ?? [] }),
    memo: t.exposeString('memo', { nullable: true }),
    stakingTxHash: t.exposeString('stakingTxHash', { nullable: true, description: 'For a RewardValidatorTx: the staking transaction rewarded.' }),
    blsCredentials: t.field({ type: BlsCredentialsRef, nullable: true, resolve: (tx) => tx.blsCredentials ?? null }),
    l1ValidatorManagerDetails: t.field({ type: ManagerRef, nullable: true, resolve: (tx) => tx.l1ValidatorManagerDetails ?? null }),
    l1ValidatorDetails: t.field({ type: [L1ValidatorTxDetailsRef], resolve: (tx) => (tx.l1ValidatorDetails ?? []).map((d) => ({ ...d, network: tx.network })) }),
    subnetOwnershipInfo: t.field({ type: SubnetOwnershipRef, nullable: true, resolve: (tx) => tx.subnetOwnershipInfo ?? null }),
    blockchainInfo: t.field({ type: BlockchainInfoRef, nullable: true, resolve: (tx) => tx.blockchainInfo ?? null }),
    validator: t.field({
      type: ValidatorRef,
      nullable: true,
      description: 'The validation period this transaction added, or (for a delegation) the one it delegates to.',
      resolve: (tx, _args, ctx) => {
        if (!tx.nodeId) return null;
        if (VALIDATOR_TX.has(tx.txType)) return findValidator(ctx, tx.network, tx.nodeId, (v) => v.txHash === tx.txHash);
        const start = tx.startTimestamp;
        if (!DELEGATOR_TX.has(tx.txType) || start == null) return null;
        return findValidator(ctx, tx.network, tx.nodeId, (v) => v.startTimestamp <= start && start < v.endTimestamp);
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
      description: 'Active P-Chain staking transactions (validations and delegations not yet ended). Forward paging only.',
      args: {
        addresses: t.arg.stringList({ description: 'Only transactions of these P/X addresses (bech32 of this network, optionally P- or X-).' }),
        txTypes: t.arg({ type: [PrimaryNetworkTxTypeEnum] }),
        startTimestamp: t.arg.int({ description: 'Only transactions after this Unix time (seconds, ≥ 0).' }),
        endTimestamp: t.arg.int({ description: 'Only transactions before this Unix time (seconds, ≥ 0).' }),
        sortOrder: t.arg({ type: SortOrderEnum, description: 'By block time. Default: newest first.' }),
      },
      resolve: (network, args, ctx) => {
        const addresses = args.addresses ? parsePrimaryAddresses(args.addresses, network.name).sort() : undefined;
        const startTimestamp = parseTimestampArg(args.startTimestamp, 'startTimestamp');
        const endTimestamp = parseTimestampArg(args.endTimestamp, 'endTimestamp');
        if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp) {
          throw badInput('endTimestamp', 'endTimestamp must not be before startTimestamp');
        }
        const txTypes = args.txTypes ? [...new Set(args.txTypes)].sort() : undefined;
        const filter = { addresses, txTypes, startTimestamp, endTimestamp, sortOrder: args.sortOrder ?? undefined };
        let lastChainInfo: PrimaryChainInfo | null = null;
        return resolveTokenConnection<StakingTransaction>(args, ctx.connections, {
          listKey: `staking|${network.name}|${JSON.stringify(filter)}`,
          pageSize: PRIMARY_PAGE_SIZE.stakingTransactions,
          itemKey: (tx) => tx.txHash,
          // Active stakes leave the list when they end: cursors resume in the live list.
          mutableItems: true,
          fetchPage: async (pageToken) => {
            const page = await ctx.loaders.primary.stakingPage.load({ network: network.name, pageToken, ...filter });
            lastChainInfo = page.chainInfo;
            // Items carry their page's chain info so a page resumed from its snapshot still has it.
            return { items: page.items.map((tx) => ({ ...tx, network: network.name, listChainInfo: page.chainInfo })), nextPageToken: page.nextPageToken };
          },
        }).then((conn) => ({ ...conn, chainInfo: conn.edges[0]?.node.listChainInfo ?? lastChainInfo }));
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
