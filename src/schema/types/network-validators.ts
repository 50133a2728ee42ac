import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import { PRIMARY_PAGE_SIZE } from '../../loaders/primary.js';
import { STAKING_PAGE_SIZE } from '../../loaders/staking.js';
import type { NetworkValidatorFilter, VALIDATOR_SORT_BY } from '../../upstream/data-api-staking.js';
import type { GatewayNetwork, Validator } from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { pageDocs, resolveTokenConnection } from '../connection.js';
import { parseCb58Id, parseNodeId } from '../primary-inputs.js';
import { NetworkRef, SortOrderEnum } from './network.js';
import { SubnetRef } from './subnet.js';
import { branded, ValidationStatusEnum, ValidatorRef } from './validator.js';

/**
 * `Network.validators`: the network's validation periods. Without `nodeId` it is the Data API's
 * `listValidators` with every filter of the route; with `nodeId` it is one node's periods
 * (`getSingleValidatorDetails`, which takes only `validationStatus` and `sortOrder`). Every filter
 * is checked here, before any upstream call: a malformed node or subnet id, a bound out of the
 * spec's range, or a minimum above its maximum is BAD_USER_INPUT naming the argument.
 */
export const ValidatorSortByEnum = builder.enumType('ValidatorSortBy', {
  description: 'What `Network.validators` sorts by, with `sortOrder`.',
  values: {
    BLOCK_INDEX: {
      value: 'blockIndex',
      description: 'When the period was added (the upstream default).',
    },
    DELEGATION_CAPACITY: {
      value: 'delegationCapacity',
      description: 'nAVAX that can still be delegated.',
    },
    TIME_REMAINING: { value: 'timeRemaining', description: 'Seconds until the period ends.' },
    DELEGATION_FEE: {
      value: 'delegationFee',
      description: 'Delegation fee percent (mainnet validators only).',
    },
    UPTIME_PERFORMANCE: {
      value: 'uptimePerformance',
      description: 'Uptime percent as the indexer observes it.',
    },
  } as const satisfies Record<
    string,
    { value: (typeof VALIDATOR_SORT_BY)[number]; description: string }
  >,
});

const MAX_CAPACITY = 720_000_000_000_000_000n;
const MAX_SECONDS = 2_147_483_647;
const MAX_NODE_IDS = 64;

function capacityArg(v: string | null | undefined, argument: string): string | undefined {
  if (v == null) return undefined;
  const s = v.trim();
  if (!/^\d{1,19}$/.test(s) || BigInt(s) > MAX_CAPACITY) {
    throw badInput(
      argument,
      `${argument} must be a whole number of nAVAX from 0 to 720000000000000000`,
    );
  }
  return BigInt(s).toString();
}

function boundedArg(
  v: number | null | undefined,
  argument: string,
  min: number,
  max: number,
  whole = false,
) {
  if (v == null) return undefined;
  if (!Number.isFinite(v) || v < min || v > max || (whole && !Number.isInteger(v))) {
    throw badInput(
      argument,
      `${argument} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}`,
    );
  }
  return v;
}

function ordered<T extends number | bigint>(
  lo: T | undefined,
  hi: T | undefined,
  name: string,
): void {
  if (lo !== undefined && hi !== undefined && lo > hi) {
    throw badInput(`max${name}`, `min${name} must not be greater than max${name}`);
  }
}

/** A list of node ids, each checksummed, deduplicated and sorted (one cache key per set). */
export function parseNodeIds(
  values: readonly string[] | null | undefined,
  argument = 'nodeIds',
): string[] | undefined {
  if (values == null) return undefined;
  if (values.length > MAX_NODE_IDS)
    throw badInput(argument, `${argument} takes at most ${MAX_NODE_IDS} node ids`);
  return [...new Set(values.map((n) => parseNodeId(n, argument)))].sort();
}

export interface ValidatorListArgs {
  nodeIds?: readonly string[] | null;
  sortBy?: NetworkValidatorFilter['sortBy'] | null;
  sortOrder?: NetworkValidatorFilter['sortOrder'] | null;
  validationStatus?: NetworkValidatorFilter['validationStatus'] | null;
  minDelegationCapacity?: string | null;
  maxDelegationCapacity?: string | null;
  minTimeRemaining?: number | null;
  maxTimeRemaining?: number | null;
  minFeePercentage?: number | null;
  maxFeePercentage?: number | null;
  minUptimePerformance?: number | null;
  maxUptimePerformance?: number | null;
  subnetId?: string | null;
}

/** The checked filter of `listValidators`, in the spec's names. */
export function validatorFilter(args: ValidatorListArgs): NetworkValidatorFilter {
  const f: NetworkValidatorFilter = {
    nodeIds: parseNodeIds(args.nodeIds),
    sortBy: args.sortBy ?? undefined,
    sortOrder: args.sortOrder ?? undefined,
    validationStatus: args.validationStatus ?? undefined,
    minDelegationCapacity: capacityArg(args.minDelegationCapacity, 'minDelegationCapacity'),
    maxDelegationCapacity: capacityArg(args.maxDelegationCapacity, 'maxDelegationCapacity'),
    minTimeRemaining: boundedArg(args.minTimeRemaining, 'minTimeRemaining', 0, MAX_SECONDS, true),
    maxTimeRemaining: boundedArg(args.maxTimeRemaining, 'maxTimeRemaining', 0, MAX_SECONDS, true),
    minFeePercentage: boundedArg(args.minFeePercentage, 'minFeePercentage', 2, 100),
    maxFeePercentage: boundedArg(args.maxFeePercentage, 'maxFeePercentage', 2, 100),
    minUptimePerformance: boundedArg(args.minUptimePerformance, 'minUptimePerformance', 0, 100),
    maxUptimePerformance: boundedArg(args.maxUptimePerformance, 'maxUptimePerformance', 0, 100),
    subnetId:
      args.subnetId == null ? undefined : parseCb58Id(args.subnetId, 'subnetId', 'subnet id'),
  };
  const cap = (s?: string) => (s === undefined ? undefined : BigInt(s));
  ordered(cap(f.minDelegationCapacity), cap(f.maxDelegationCapacity), 'DelegationCapacity');
  ordered(f.minTimeRemaining, f.maxTimeRemaining, 'TimeRemaining');
  ordered(f.minFeePercentage, f.maxFeePercentage, 'FeePercentage');
  ordered(f.minUptimePerformance, f.maxUptimePerformance, 'UptimePerformance');
  return f;
}

/**
 * The same periods, whichever route served them: branded with their status type, with their
 * network.
 */
const withNetwork = (network: GatewayNetwork) => (v: Omit<Validator, 'network'>) =>
  branded({ ...v, network } as Validator);

function nodeValidators(
  network: GatewayNetwork,
  nodeIdArg: string,
  args: ValidatorListArgs & { first?: number | null; after?: string | null },
  ctx: GatewayContext,
) {
  const nodeId = parseNodeId(nodeIdArg, 'nodeId');
  const { validationStatus, sortOrder, ...rest } = args as Record<string, unknown>;
  const other = Object.entries(rest).find(
    ([k, v]) => v != null && !['first', 'after', 'last', 'before', 'nodeId'].includes(k),
  );
  if (other) {
    throw badInput(
      other[0],
      `${other[0]} does not apply with nodeId (one node's periods take only validationStatus and sortOrder)`,
    );
  }
  const filter = {
    validationStatus: args.validationStatus ?? undefined,
    sortOrder: args.sortOrder ?? undefined,
  };
  return resolveTokenConnection<Validator>(args, ctx.connections, {
    pages: ctx.loaders.primary.validatorsPage
      .list({
        network,
        nodeId,
        ...filter,
      })
      .mapItems(withNetwork(network)),
    pageSize: PRIMARY_PAGE_SIZE.validators,
    itemKey: (v) => v.txHash,
  });
}

/** The filter arguments of `listValidators` (every one of the route's but `subnetId`). */
const validatorFilterArgs = builder.args((t) => ({
  nodeIds: t.stringList({
    description: 'Only these nodes (NodeID-…, checksummed; at most 64).',
  }),
  sortBy: t.field({
    type: ValidatorSortByEnum,
    description: 'What to sort by. Default: BLOCK_INDEX.',
  }),
  sortOrder: t.field({
    type: SortOrderEnum,
    description: 'Sort direction. Default: the upstream’s (descending).',
  }),
  validationStatus: t.field({
    type: ValidationStatusEnum,
    description: 'Only periods in this status.',
  }),
  minDelegationCapacity: t.string({
    description: 'At least this nAVAX left to delegate (0–720000000000000000).',
  }),
  maxDelegationCapacity: t.string({
    description: 'At most this nAVAX left to delegate (0–720000000000000000).',
  }),
  minTimeRemaining: t.int({
    description: 'At least this many seconds left (0–2147483647).',
  }),
  maxTimeRemaining: t.int({
    description: 'At most this many seconds left (0–2147483647).',
  }),
  minFeePercentage: t.float({
    description: 'Delegation fee at least this percent (2–100); no subnet periods then.',
  }),
  maxFeePercentage: t.float({
    description: 'Delegation fee at most this percent (2–100); no subnet periods then.',
  }),
  minUptimePerformance: t.float({
    description: 'Uptime at least this percent (0–100; the upstream’s default is 90).',
  }),
  maxUptimePerformance: t.float({
    description: 'Uptime at most this percent (0–100; default 100).',
  }),
}));

/** The network's validation periods over `listValidators`: one list identity per checked filter. */
function networkValidatorList(
  network: GatewayNetwork,
  args: ValidatorListArgs & { first?: number | null; after?: string | null },
  ctx: GatewayContext,
) {
  const filter = validatorFilter(args);
  return resolveTokenConnection<Validator>(args, ctx.connections, {
    pages: ctx.loaders.staking.validatorsPage
      .list({ network, ...filter })
      .mapItems(withNetwork(network)),
    pageSize: STAKING_PAGE_SIZE,
    itemKey: (v) => v.txHash,
  });
}

builder.objectFields(NetworkRef, (t) => ({
  validators: t.connection(
    {
      type: ValidatorRef,
      nullable: true,
      description:
        "The network's validation periods, each typed by its status (Data API `listValidators`, " +
        'every filter of ' +
        'the route). With `nodeId`: that node’s periods only (`getSingleValidatorDetails`, which ' +
        'takes only ' +
        '`validationStatus` and `sortOrder`). Forward paging only (first/after).',
      args: {
        nodeId: t.arg.string({
          description: 'One node (NodeID-…, checksummed): its periods only.',
        }),
        ...validatorFilterArgs,
        subnetId: t.arg.string({ description: "Only this subnet's periods (CB58 subnet id)." }),
      },
      resolve: (network, args, ctx) => {
        if (args.nodeId != null) return nodeValidators(network.name, args.nodeId, args, ctx);
        return networkValidatorList(network.name, args, ctx);
      },
    },
    ...pageDocs('validation periods', 'A validation period'),
  ),
}));

builder.objectFields(SubnetRef, (t) => ({
  validators: t.connection(
    {
      type: ValidatorRef,
      nullable: true,
      description:
        "This subnet's validation periods (`listValidators` with its `subnetId`): the same list, " +
        'pages and cursors as `Network.validators(subnetId:)` with the same filters.',
      args: validatorFilterArgs,
      resolve: (subnet, args, ctx) =>
        networkValidatorList(subnet.network, { ...args, subnetId: subnet.subnetId }, ctx),
    },
    { name: 'SubnetValidatorsConnection', description: 'A page of a subnet’s validation periods.' },
    { name: 'SubnetValidatorsConnectionEdge', description: 'A validation period and its cursor.' },
  ),
}));
