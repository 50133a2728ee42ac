import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import { type PagedList, pagedList } from '../../loaders/request-loader.js';
import { STAKING_PAGE_SIZE } from '../../loaders/staking.js';
import type { RewardFilter } from '../../upstream/data-api-staking.js';
import type { Page } from '../../upstream/request.js';
import type { CurrencyCode } from '../../upstream/schemas/evm.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import type {
  HistoricalRewardRaw,
  PendingRewardRaw,
} from '../../upstream/schemas/primary-rewards.js';
import { builder } from '../builder.js';
import { type ConnectionArgs, pageDocs, resolveTokenConnection } from '../connection.js';
import { exposed, ref } from '../expose.js';
import { parsePrimaryAddresses } from '../primary-inputs.js';
import { CurrencyCodeEnum, MoneyRef } from './money.js';
import { NetworkRef, type NetworkShape, SortOrderEnum } from './network.js';
import { parseNodeIds } from './network-validators.js';
import { RewardTypeEnum } from './p-chain-utxo.js';
import { AssetAmountRef } from './primary-asset.js';
import { linkedStakingTransaction, stakeLinks } from './stake-links.js';
import { StakingTransactionRef } from './staking-transaction.js';

/**
 * Staking rewards of addresses or nodes: pending (`listPendingPrimaryNetworkRewards`: stakes still
 * running, with their estimated reward) and historical (`listHistoricalPrimaryNetworkRewards`:
 * rewards paid, with the price then). Each links to its validation period and its staking
 * transaction. The upstream needs addresses or node ids: asking for neither is BAD_USER_INPUT
 * before any call.
 */
type Reward<R> = R & { network: GatewayNetwork };

type Common = Reward<PendingRewardRaw> | Reward<HistoricalRewardRaw>;

export const StakingRewardRef = builder.interfaceRef<Common>('StakingReward').implement({
  description: 'A staking reward, pending or paid, with the stake it is for.',
  resolveType: (r) => ('utxoId' in r ? 'HistoricalReward' : 'PendingReward'),
  fields: (t) => ({
    ...exposed(t, {
      network: ['String', 'The primary network (mainnet or fuji).'],
      txHash: ['String', 'The staking transaction (CB58) the reward is for.'],
      nodeId: ['String', 'Node id of the validator (`NodeID-…`).'],
      addresses: ['[String]', 'Addresses (bech32) the reward is paid to.'],
      amountStaked: ['BigDecimal', 'Stake, in nAVAX.'],
      startTimestamp: ['Timestamp', 'Start of the stake, Unix seconds.'],
      endTimestamp: ['Timestamp+Iso', 'End of the stake, Unix seconds.'],
      rewardType: ref(RewardTypeEnum, 'Validation, delegation or validator fee.'),
    }),
    ...stakeLinks(t, {
      validator: 'The validation period this reward belongs to (validated, or delegated to).',
      stakingTransaction: 'The P-Chain transaction that made the stake.',
      by: (r) =>
        r.rewardType === 'DELEGATOR'
          ? { delegationStart: r.startTimestamp }
          : { validationTxHash: r.txHash },
    }),
  }),
});

const PendingRewardRef = builder.objectRef<Reward<PendingRewardRaw>>('PendingReward').implement({
  description: 'A reward not paid yet: its stake is pending or running.',
  interfaces: [StakingRewardRef],
  isTypeOf: (r) => !('utxoId' in (r as object)),
  fields: (t) => ({
    progress: t.exposeFloat('progress', { description: 'How far the stake has run, in percent.' }),
    estimatedReward: t.field({
      type: AssetAmountRef,
      description: 'Reward expected if the stake succeeds.',
      resolve: (r) => r.estimatedReward,
    }),
  }),
});

const HistoricalRewardRef = builder
  .objectRef<Reward<HistoricalRewardRaw>>('HistoricalReward')
  .implement({
    description: 'A reward paid when its stake ended.',
    interfaces: [StakingRewardRef],
    isTypeOf: (r) => 'utxoId' in (r as object),
    fields: (t) => ({
      ...exposed(t, {
        utxoId: ['String', 'The UTXO (CB58) that paid the reward.'],
        outputIndex: ['Int', 'Index of that UTXO in the reward transaction.'],
        reward: ref(AssetAmountRef, 'The reward paid.'),
      }),
      historicalPrice: t.field({
        type: MoneyRef,
        nullable: true,
        description:
          'Price of one unit of the asset when paid, in the asked currency; only for rewards ' +
          'over a day old.',
        resolve: (r) => r.reward.historicalPrice ?? null,
      }),
      rewardTxHash: t.exposeString('rewardTxHash', {
        description: 'The RewardValidatorTx (CB58) that paid it.',
      }),
      rewardTransaction: t.field({
        type: StakingTransactionRef,
        nullable: true,
        description: 'The RewardValidatorTx that paid it.',
        resolve: (r, _a, ctx) => linkedStakingTransaction(ctx, r.network, r.rewardTxHash),
      }),
    }),
  });

interface RewardArgs extends ConnectionArgs {
  addresses?: readonly string[] | null;
  nodeIds?: readonly string[] | null;
  sortOrder?: RewardFilter['sortOrder'] | null;
}

function rewardFilter(network: GatewayNetwork, args: RewardArgs): RewardFilter {
  const addresses = args.addresses
    ? parsePrimaryAddresses(args.addresses, network).sort()
    : undefined;
  const nodeIds = parseNodeIds(args.nodeIds);
  if (!addresses?.length && !nodeIds?.length)
    throw badInput('addresses', 'rewards need addresses or nodeIds (at least one)');
  return { addresses, nodeIds, sortOrder: args.sortOrder ?? undefined };
}

/**
 * A reward list's resolver: whose rewards from the arguments (and `more` of the filter from them),
 * the network's `pages`, each item with its network. `mutable`: items leave the list.
 */
function rewardsResolver<
  A extends RewardArgs,
  F extends object,
  R extends { txHash: string; rewardType: string },
>(
  pages: (ctx: GatewayContext, key: { network: GatewayNetwork } & RewardFilter & F) => PagedList<R>,
  more: (args: A) => F,
  mutable: boolean,
  /** Whether the list is known empty without reading it (pending rewards of nodes with no stake now). */
  knownEmpty?: (
    ctx: GatewayContext,
    network: GatewayNetwork,
    filter: RewardFilter,
  ) => Promise<boolean>,
) {
  return async (network: NetworkShape, args: A, ctx: GatewayContext) => {
    const filter = { ...rewardFilter(network.name, args), ...more(args) };
    const list = pages(ctx, { network: network.name, ...filter });
    // Known empty: the same list (its identity, so its cursors), answered without reading it.
    const source: PagedList<R> = (await knownEmpty?.(ctx, network.name, filter))
      ? pagedList<Page<R>>(list.identity, async () => ({ items: [], nextPageToken: null }))
      : list;
    return resolveTokenConnection<Reward<R>>(args, ctx.connections, {
      pages: source.mapItems((r) => ({
        ...r,
        network: network.name,
      })),
      pageSize: STAKING_PAGE_SIZE,
      itemKey: (r) => `${r.txHash}:${r.rewardType}`,
      mutableItems: mutable,
    });
  };
}

/** Whose rewards: addresses or nodes, and the order by the stake's end. */
const rewardArgs = builder.args((t) => ({
  addresses: t.stringList({ description: 'Reward addresses (bech32, optionally P-; at most 64).' }),
  nodeIds: t.stringList({ description: 'Validator nodes (NodeID-…, checksummed; at most 64).' }),
  sortOrder: t.field({
    type: SortOrderEnum,
    description: 'By the stake’s end. Default: the upstream’s (descending).',
  }),
}));

builder.objectFields(NetworkRef, (t) => ({
  pendingRewards: t.connection(
    {
      type: PendingRewardRef,
      nullable: true,
      description:
        'Rewards not paid yet of these addresses or nodes (`listPendingPrimaryNetworkRewards`). ' +
        'Forward paging only.',
      args: rewardArgs,
      // A pending reward leaves the list when its stake ends: cursors resume in the live list.
      resolve: rewardsResolver(
        (ctx, key) => ctx.loaders.staking.pendingRewardsPage.list(key),
        () => ({}),
        true,
        // Nodes asked alone, none of which has a stake now: none has a pending reward.
        (ctx, network, f) =>
          f.addresses?.length
            ? Promise.resolve(false)
            : ctx.loaders.staking.noStakeNow(network, f.nodeIds ?? []),
      ),
    },
    ...pageDocs('pending rewards', 'A pending reward'),
  ),
  historicalRewards: t.connection(
    {
      type: HistoricalRewardRef,
      nullable: true,
      description:
        'Rewards paid to these addresses or nodes (`listHistoricalPrimaryNetworkRewards`). ' +
        'Forward paging only.',
      args: {
        ...rewardArgs,
        currency: t.arg({
          type: CurrencyCodeEnum,
          description: 'Currency of `historicalPrice`. Default: USD.',
        }),
      },
      resolve: rewardsResolver(
        (ctx, key) => ctx.loaders.staking.historicalRewardsPage.list(key),
        (args: RewardArgs & { currency?: CurrencyCode | null }) => ({
          currency: args.currency ?? undefined,
        }),
        false,
      ),
    },
    ...pageDocs('historical rewards', 'A historical reward'),
  ),
}));
