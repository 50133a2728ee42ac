import { brandWithType } from '@pothos/core';
import type { GatewayContext } from '../../context.js';
import { badInput, gqlError } from '../../errors.js';
import { STAKING_PAGE_SIZE } from '../../loaders/staking.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import type { DelegationStatus, DelegatorDetails } from '../../upstream/schemas/primary-rewards.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { type ConnectionArgs, pageDocs, resolveTokenConnection } from '../connection.js';
import { exposed, ref } from '../expose.js';
import { parseCb58Id, parseNetwork, parsePrimaryAddresses } from '../primary-inputs.js';
import { NetworkNameEnum, NetworkRef, SortOrderEnum } from './network.js';
import { parseNodeIds } from './network-validators.js';
import { stakeLinks } from './stake-links.js';
import { ValidatorRef } from './validator.js';

/**
 * A delegation of stake to a primary-network validator (Data API `listDelegators`), typed by its
 * status (the upstream's `oneOf`). Global id: `Delegator:<network>:<txHash>` (the delegation tx names
 * it); a refetch finds it again in its node's delegations, in its current status.
 */
export type Delegator = DelegatorDetails & { network: GatewayNetwork };
type DelegatorOf<S extends DelegationStatus> = Extract<Delegator, { delegationStatus: S }>;

const TYPE_OF: Record<DelegationStatus, string> = {
  completed: 'CompletedDelegator',
  active: 'ActiveDelegator',
  pending: 'PendingDelegator',
};

export const DelegationStatusEnum = builder.enumType('DelegationStatus', {
  description: 'Where a delegation is in its life.',
  values: {
    COMPLETED: { value: 'completed', description: 'Ended (and rewarded, or not).' },
    ACTIVE: { value: 'active', description: 'Under way.' },
    PENDING: { value: 'pending', description: 'Not started yet.' },
  } as const,
});

function branded(d: Delegator): Delegator {
  brandWithType(d, TYPE_OF[d.delegationStatus] as never);
  return d;
}

/** Upstream pages walked to find one delegation among its node's. */
const MAX_LOOKUP_PAGES = 10;

/**
 * One delegation by `<network>:<txHash>`: its tx names its node, whose delegations are then walked.
 */
async function loadDelegator(id: string, ctx: GatewayContext): Promise<Delegator> {
  const [net, hash, ...rest] = id.split(':');
  if (!net || !hash || rest.length > 0) throw badInput('id', 'Malformed delegator id');
  const network = parseNetwork(net, 'id');
  const txHash = parseCb58Id(hash, 'id', 'transaction hash');
  const tx = await ctx.loaders.primary.pChainTransaction.load({ network, txHash });
  let pageToken: string | null = null;
  for (let n = 0; tx.nodeId && n < MAX_LOOKUP_PAGES; n++) {
    const page = await ctx.loaders.staking.delegatorsPage.load({
      network,
      nodeIds: [tx.nodeId],
      pageToken,
    });
    const found = page.items.find((d) => d.txHash === txHash);
    if (found) return branded({ ...found, network });
    if (!page.nextPageToken) break;
    pageToken = page.nextPageToken;
  }
  throw gqlError('NOT_FOUND', `Not found: no delegation ${txHash} on ${network}`);
}

export const DelegatorRef = builder.interfaceRef<Delegator>('Delegator').implement({
  description: 'A delegation of stake to a primary-network validator, typed by its status.',
  interfaces: [builder.nodeInterfaceRef()],
  resolveType: (d) => TYPE_OF[d.delegationStatus],
  fields: (t) => ({
    ...exposed(t, {
      network: ref(NetworkNameEnum, 'The primary network of this delegation.'),
      txHash: ['String', 'The transaction that made the delegation (CB58).'],
      nodeId: ['String', 'Node id of the validator delegated to (`NodeID-…`).'],
      rewardAddresses: ['[String]', 'Addresses (bech32) the reward is paid to.'],
      amountDelegated: ['BigDecimal', 'Stake delegated, in nAVAX.'],
      delegationFee: ['BigDecimal', 'Percent of the reward the validator keeps.'],
      startTimestamp: ['Timestamp+Iso', 'Start of the delegation, Unix seconds.'],
      endTimestamp: ['Timestamp+Iso', 'End of the delegation, Unix seconds.'],
      delegationStatus: ref(DelegationStatusEnum, 'Pending, active or completed.'),
    }),
    ...stakeLinks(t, {
      validator:
        'The validation period delegated to (the node’s period covering the delegation’s start).',
      stakingTransaction: 'The P-Chain transaction that made the delegation.',
      by: (d) => ({ delegationStart: d.startTimestamp }),
    }),
  }),
});

const nodeOptions = (status: DelegationStatus) => ({
  interfaces: [DelegatorRef],
  id: { resolve: (d: Delegator) => `${d.network}:${d.txHash}` },
  brandLoadedObjects: false,
  loadMany: (ids: readonly string[], ctx: GatewayContext) =>
    ids.map((id) => loadDelegator(id, ctx) as Promise<never>),
  isTypeOf: (d: unknown) => (d as Delegator).delegationStatus === status,
});

const reward = (desc: string) => ({ type: 'BigDecimal' as const, description: desc });

builder.node(builder.objectRef<DelegatorOf<'completed'>>('CompletedDelegator'), {
  ...nodeOptions('completed'),
  description: 'A delegation that has ended.',
  fields: (t) => ({
    grossReward: t.expose('grossReward', reward('Total reward of the delegation, in nAVAX.')),
    netReward: t.expose('netReward', reward("Reward after the validator's fee, in nAVAX.")),
  }),
});

for (const status of ['active', 'pending'] as const) {
  builder.node(builder.objectRef<DelegatorOf<typeof status>>(TYPE_OF[status]), {
    ...nodeOptions(status),
    description:
      status === 'active' ? 'A delegation under way.' : 'A delegation that has not started yet.',
    fields: (t) => ({
      estimatedGrossReward: t.expose(
        'estimatedGrossReward',
        reward('Estimated total reward, in nAVAX.'),
      ),
      estimatedNetReward: t.expose(
        'estimatedNetReward',
        reward("Estimated reward after the validator's fee, in nAVAX."),
      ),
    }),
  });
}

/** Delegations of one network (`listDelegators`), filtered, as a connection of typed delegators. */
function delegatorsOf(
  network: GatewayNetwork,
  filter: {
    nodeIds?: string[] | undefined;
    rewardAddresses?: string[] | undefined;
    delegationStatus?: DelegationStatus | undefined;
    sortOrder?: 'asc' | 'desc' | undefined;
  },
  args: ConnectionArgs,
  ctx: GatewayContext,
) {
  return resolveTokenConnection<Delegator>(args, ctx.connections, {
    pages: ctx.loaders.staking.delegatorsPage
      .list({ network, ...filter })
      .mapItems((d) => branded({ ...d, network })),
    pageSize: STAKING_PAGE_SIZE,
    itemKey: (d) => d.txHash,
  });
}

builder.objectFields(NetworkRef, (t) => ({
  delegators: t.connection(
    {
      type: DelegatorRef,
      nullable: true,
      description:
        'Delegations on the network, typed by status (Data API `listDelegators`). Forward paging ' +
        'only.',
      args: argTable(t.arg, {
        nodeIds: [
          '[String]',
          'Only delegations to these nodes (NodeID-…, checksummed; at most 64).',
        ],
        rewardAddresses: [
          '[String]',
          'Only delegations paying these addresses (bech32, optionally P-).',
        ],
        delegationStatus: [DelegationStatusEnum, 'Only delegations in this status.'],
        sortOrder: [SortOrderEnum, 'By start time. Default: the upstream’s (descending).'],
      }),
      resolve: (network, args, ctx) =>
        delegatorsOf(
          network.name,
          {
            nodeIds: parseNodeIds(args.nodeIds),
            rewardAddresses: args.rewardAddresses
              ? parsePrimaryAddresses(args.rewardAddresses, network.name, 'rewardAddresses').sort()
              : undefined,
            delegationStatus: args.delegationStatus ?? undefined,
            sortOrder: args.sortOrder ?? undefined,
          },
          args,
          ctx,
        ),
    },
    ...pageDocs('delegations', 'A delegation'),
  ),
}));

/**
 * A validator's delegations: the network's list (`listDelegators`) filtered by the validator's node
 * id, so the pages and their cache entries are the ones `Network.delegators(nodeIds: [id])` reads.
 */
builder.interfaceFields(ValidatorRef, (t) => ({
  delegators: t.connection(
    {
      type: DelegatorRef,
      nullable: true,
      description:
        'Delegations to this validator’s node (every validation period of the node), typed by ' +
        'status (Data API `listDelegators` with its node id). Forward paging only.',
      args: argTable(t.arg, {
        delegationStatus: [DelegationStatusEnum, 'Only delegations in this status.'],
        sortOrder: [SortOrderEnum, 'By start time. Default: the upstream’s (descending).'],
      }),
      resolve: (v, args, ctx) =>
        delegatorsOf(
          v.network,
          {
            nodeIds: [v.nodeId],
            delegationStatus: args.delegationStatus ?? undefined,
            sortOrder: args.sortOrder ?? undefined,
          },
          args,
          ctx,
        ),
    },
    { name: 'ValidatorDelegatorsConnection', ...pageDocs('delegations', 'A delegation')[0] },
    { name: 'ValidatorDelegatorsEdge', ...pageDocs('delegations', 'A delegation')[1] },
  ),
}));
