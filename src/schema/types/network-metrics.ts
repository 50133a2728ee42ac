import type { GatewayContext } from '../../context.js';
import { METRICS_PAGE_SIZE } from '../../loaders/metrics.js';
import {
  ICM_GROUP_BY,
  L1_FEE_METRICS,
  NETWORK_METRICS,
  type IcmMetricsValue,
  type IcmRollingWindow,
  type L1FeeMetric,
  type L1FeeScope,
  type TimeRange,
} from '../../upstream/metrics-api-more.js';
import type { MetricsValue } from '../../upstream/schemas/metrics.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { resolveTokenConnection, type ConnectionArgs } from '../connection.js';
import { badInput } from '../errors.js';
import { parseCb58Id, parseTimestampArg } from '../primary-inputs.js';
import { isoOf } from '../scalars.js';
import { L1ValidatorRef } from './l1-validator.js';
import { MetricPointConnectionRef, MetricPointRef, TimeIntervalEnum } from './metrics.js';
import { NetworkRef } from './network.js';

/**
 * The Metrics API's network-level series on the entities they describe: staking metrics of the
 * primary network or an L1 (`Network.stakingMetrics`), ICM message counts (`Network.icmMetrics`,
 * `Network.icmSummary`), and L1 validator fees: all validators (`Network.l1ValidatorFeeMetrics`),
 * one subnet (`Network.subnetFeeMetrics`, until a Subnet type owns it), one validation and its node
 * (`L1Validator.feeMetrics`, `L1Validator.nodeFeeMetrics`). Series are connections over the Metrics
 * API's page tokens; an expired token is BAD_USER_INPUT with `reason: 'CURSOR_EXPIRED'` (restart
 * paging), as for chain metrics. The L1-fee routes take no token: their one answer is the whole
 * series.
 */
const upperSnake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
function enumOf<T extends string>(
  name: string,
  description: string,
  values: readonly T[],
  doc: (v: T) => string,
) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(
      values.map((v) => [upperSnake(v).replace(',', '_AND_'), { value: v, description: doc(v) }]),
    ) as Record<string, { value: T; description: string }>,
  });
}

const NetworkMetricEnum = enumOf(
  'StakingMetric',
  'A staking series of a network (per day).',
  NETWORK_METRICS,
  (v) =>
    v.endsWith('Count')
      ? `Number of ${v.startsWith('validator') ? 'validators' : 'delegations'} active that day.`
      : `Stake ${v.startsWith('validator') ? 'of validators' : 'delegated'} that day (weight; nAVAX on the primary network).`,
);
const IcmGroupByEnum = enumOf(
  'IcmGroupBy',
  'How ICM counts are grouped.',
  ICM_GROUP_BY,
  (v) => `One series per ${v.replace(',', ' and ')}.`,
);
const feeDoc = (v: string) =>
  /Paying/.test(v)
    ? 'Validators paying the continuous fee, per day.'
    : /Cumulative/.test(v)
      ? 'Fees paid since the start, nAVAX, per day.'
      : 'Fees paid that day, nAVAX.';
const TotalFeeMetricEnum = enumOf(
  'L1ValidatorsFeeMetric',
  'A fee series over all L1 validators.',
  L1_FEE_METRICS.total,
  feeDoc,
);
const ValidationFeeMetricEnum = enumOf(
  'L1ValidationFeeMetric',
  'A fee series of one L1 validation.',
  L1_FEE_METRICS.validation,
  feeDoc,
);
const NodeFeeMetricEnum = enumOf(
  'L1NodeFeeMetric',
  'A fee series of one node’s L1 validations.',
  L1_FEE_METRICS.node,
  feeDoc,
);
const SubnetFeeMetricEnum = enumOf(
  'SubnetFeeMetric',
  'A fee series of one L1 (subnet).',
  L1_FEE_METRICS.subnet,
  feeDoc,
);

const IcmPointRef = builder.objectRef<IcmMetricsValue>('IcmMetricPoint').implement({
  description:
    'ICM messages counted in the interval starting at `timestamp`, for a source/destination group.',
  fields: (t) => ({
    timestamp: t.expose('timestamp', {
      type: 'Timestamp',
      description: 'Start of the interval, Unix seconds.',
    }),
    timestampIso: t.string({
      resolve: (p) => isoOf(p.timestamp),
      description: '`timestamp` in ISO 8601 UTC.',
    }),
    value: t.exposeFloat('value', { description: 'Messages sent in the interval.' }),
    srcBlockchainId: t.exposeString('srcBlockchainId', {
      description: 'Source blockchain (CB58) of the group; empty when not grouped by it.',
    }),
    destBlockchainId: t.exposeString('destBlockchainId', {
      description: 'Destination blockchain (CB58); empty when not grouped by it.',
    }),
  }),
});

const IcmSummaryRef = builder.objectRef<IcmRollingWindow>('IcmSummary').implement({
  description: 'ICM messages over windows ending now.',
  fields: (t) => ({
    lastHour: t.exposeFloat('lastHour', {
      nullable: true,
      description: 'Messages in the last hour.',
    }),
    lastDay: t.exposeFloat('lastDay', { nullable: true, description: 'Messages in the last day.' }),
    lastWeek: t.exposeFloat('lastWeek', {
      nullable: true,
      description: 'Messages in the last week.',
    }),
    lastMonth: t.exposeFloat('lastMonth', {
      nullable: true,
      description: 'Messages in the last month.',
    }),
    last90Days: t.exposeFloat('last90Days', {
      nullable: true,
      description: 'Messages in the last 90 days.',
    }),
    lastYear: t.exposeFloat('lastYear', {
      nullable: true,
      description: 'Messages in the last year.',
    }),
    allTime: t.exposeFloat('allTime', { nullable: true, description: 'Messages since the start.' }),
    srcBlockchainId: t.exposeString('srcBlockchainId', {
      description: 'Source blockchain (CB58); empty when not selected.',
    }),
    destBlockchainId: t.exposeString('destBlockchainId', {
      description: 'Destination blockchain (CB58); empty when not selected.',
    }),
  }),
});

interface RangeArgs extends ConnectionArgs {
  startTimestamp?: number | null;
  endTimestamp?: number | null;
}

function range(args: RangeArgs): TimeRange {
  const startTimestamp = parseTimestampArg(args.startTimestamp, 'startTimestamp');
  const endTimestamp = parseTimestampArg(args.endTimestamp, 'endTimestamp');
  if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp) {
    throw badInput('endTimestamp', 'endTimestamp must not be before startTimestamp');
  }
  return { startTimestamp, endTimestamp };
}

const optionalId = (v: string | null | undefined, argument: string, what: string) =>
  v == null ? undefined : parseCb58Id(v, argument, what);

function l1Fees(
  ctx: GatewayContext,
  args: RangeArgs,
  scope: L1FeeScope,
  id: string | undefined,
  metric: L1FeeMetric,
) {
  const f = range(args);
  return resolveTokenConnection<MetricsValue>(args, ctx.connections, {
    listKey: `l1Fees|${scope}|${id ?? ''}|${metric}|${f.startTimestamp ?? ''}|${f.endTimestamp ?? ''}`,
    pageSize: METRICS_PAGE_SIZE,
    itemKey: (p) => `${p.timestamp}:${p.value}`,
    fetchPage: () => ctx.loaders.metricsMore.l1Fees.load({ scope, id, metric, ...f }),
  });
}

/** The L1-validator fee routes describe mainnet's L1s (they take no network). */
function mainnetOnly(network: GatewayNetwork, field: string): void {
  if (network !== 'mainnet')
    throw badInput(field, `${field}: the Metrics API reports L1 validator fees for mainnet only`);
}

builder.objectFields(NetworkRef, (t) => {
  // The time range every series takes, as the spec names it.
  const timeArgs = () => ({
    startTimestamp: t.arg.int({
      description: 'Only points at or after this Unix time (seconds, ≥ 0).',
    }),
    endTimestamp: t.arg.int({
      description: 'Only points at or before this Unix time (seconds, ≥ 0).',
    }),
  });
  return {
    stakingMetrics: t.connection(
      {
        type: MetricPointRef,
        nullable: true,
        description:
          'A daily staking series of the primary network, or of an L1 with `subnetId` ' +
          '(`getStakingMetrics`), newest first.',
        args: {
          metric: t.arg({ type: NetworkMetricEnum, required: true, description: 'Which series.' }),
          subnetId: t.arg.string({
            description: 'An L1 (CB58 subnet id). Default: the primary network.',
          }),
          ...timeArgs(),
        },
        resolve: (network, args, ctx) => {
          const f = {
            ...range(args),
            subnetId: optionalId(args.subnetId, 'subnetId', 'subnet id'),
          };
          return resolveTokenConnection<MetricsValue>(args, ctx.connections, {
            listKey: `stakingMetrics|${network.name}|${args.metric}|${JSON.stringify(f)}`,
            pageSize: METRICS_PAGE_SIZE,
            itemKey: (p) => `${p.timestamp}:${p.value}`,
            fetchPage: (pageToken) =>
              ctx.loaders.metricsMore.stakingPage.load({
                network: network.name,
                metric: args.metric,
                pageToken,
                ...f,
              }),
          });
        },
      },
      MetricPointConnectionRef,
    ),
    icmMetrics: t.connection(
      {
        type: IcmPointRef,
        nullable: true,
        description:
          'ICM messages sent on this network per interval (`getICMTimeseries`), newest first, ' +
          'optionally grouped.',
        args: {
          srcBlockchainId: t.arg.string({
            description: 'Only messages from this blockchain (CB58).',
          }),
          destBlockchainId: t.arg.string({
            description: 'Only messages to this blockchain (CB58).',
          }),
          groupBy: t.arg({
            type: IcmGroupByEnum,
            description: 'One series per source, destination or pair. Default: one series.',
          }),
          timeInterval: t.arg({
            type: TimeIntervalEnum,
            description: 'Interval of each point. Default DAY.',
          }),
          ...timeArgs(),
        },
        resolve: (network, args, ctx) => {
          const f = {
            ...range(args),
            srcBlockchainId: optionalId(args.srcBlockchainId, 'srcBlockchainId', 'blockchain id'),
            destBlockchainId: optionalId(
              args.destBlockchainId,
              'destBlockchainId',
              'blockchain id',
            ),
            groupBy: args.groupBy ?? undefined,
            timeInterval: args.timeInterval ?? undefined,
            network: network.name,
          };
          return resolveTokenConnection<IcmMetricsValue>(args, ctx.connections, {
            listKey: `icmMetrics|${JSON.stringify(f)}`,
            pageSize: METRICS_PAGE_SIZE,
            itemKey: (p) => `${p.timestamp}:${p.srcBlockchainId}:${p.destBlockchainId}`,
            fetchPage: (pageToken) => ctx.loaders.metricsMore.icmPage.load({ pageToken, ...f }),
          });
        },
      },
      { description: 'A page of ICM counts, newest first.' },
      { description: 'An ICM count and its cursor.' },
    ),
    icmSummary: t.field({
      type: IcmSummaryRef,
      nullable: true,
      description: 'ICM messages of this network over the last hour … all time (`getICMSummary`).',
      args: {
        srcBlockchainId: t.arg.string({
          description: 'Only messages from this blockchain (CB58).',
        }),
        destBlockchainId: t.arg.string({ description: 'Only messages to this blockchain (CB58).' }),
        groupBy: t.arg({
          type: IcmGroupByEnum,
          description: 'Grouping, as the upstream takes it.',
        }),
      },
      resolve: (network, args, ctx) =>
        ctx.loaders.metricsMore.icmSummary.load({
          srcBlockchainId: optionalId(args.srcBlockchainId, 'srcBlockchainId', 'blockchain id'),
          destBlockchainId: optionalId(args.destBlockchainId, 'destBlockchainId', 'blockchain id'),
          groupBy: args.groupBy ?? undefined,
          network: network.name,
        }),
    }),
    l1ValidatorFeeMetrics: t.connection(
      {
        type: MetricPointRef,
        nullable: true,
        description:
          'A daily fee series over all L1 validators (`getTotalL1ValidatorMetrics`; mainnet ' +
          'only), newest first.',
        args: {
          metric: t.arg({ type: TotalFeeMetricEnum, required: true, description: 'Which series.' }),
          ...timeArgs(),
        },
        resolve: (network, args, ctx) => {
          mainnetOnly(network.name, 'l1ValidatorFeeMetrics');
          return l1Fees(ctx, args, 'total', undefined, args.metric);
        },
      },
      MetricPointConnectionRef,
    ),
    subnetFeeMetrics: t.connection(
      {
        type: MetricPointRef,
        nullable: true,
        description:
          "A daily fee series of one L1's validators (`getMetricsBySubnetId`; mainnet only), " +
          "newest first.",
        args: {
          subnetId: t.arg.string({ required: true, description: 'The L1 (CB58 subnet id).' }),
          metric: t.arg({
            type: SubnetFeeMetricEnum,
            required: true,
            description: 'Which series.',
          }),
          ...timeArgs(),
        },
        resolve: (network, args, ctx) => {
          mainnetOnly(network.name, 'subnetFeeMetrics');
          return l1Fees(
            ctx,
            args,
            'subnet',
            parseCb58Id(args.subnetId, 'subnetId', 'subnet id'),
            args.metric,
          );
        },
      },
      MetricPointConnectionRef,
    ),
  };
});

builder.objectFields(L1ValidatorRef, (t) => {
  // The time range every series takes, as the spec names it.
  const timeArgs = () => ({
    startTimestamp: t.arg.int({
      description: 'Only points at or after this Unix time (seconds, ≥ 0).',
    }),
    endTimestamp: t.arg.int({
      description: 'Only points at or before this Unix time (seconds, ≥ 0).',
    }),
  });
  return {
    feeMetrics: t.connection(
      {
        type: MetricPointRef,
        nullable: true,
        description:
          'Daily fees this validation paid (`getMetricsByValidationId`; mainnet), newest first.',
        args: {
          metric: t.arg({
            type: ValidationFeeMetricEnum,
            required: true,
            description: 'Which series.',
          }),
          ...timeArgs(),
        },
        resolve: (v, args, ctx) => {
          mainnetOnly(v.network, 'feeMetrics');
          return l1Fees(ctx, args, 'validation', v.validationId, args.metric);
        },
      },
      MetricPointConnectionRef,
    ),
    nodeFeeMetrics: t.connection(
      {
        type: MetricPointRef,
        nullable: true,
        description:
          "Daily fees paid by all of this validator's node's L1 validations " +
          "(`getMetricsByNodeId`; mainnet), newest first.",
        args: {
          metric: t.arg({ type: NodeFeeMetricEnum, required: true, description: 'Which series.' }),
          ...timeArgs(),
        },
        resolve: (v, args, ctx) => {
          mainnetOnly(v.network, 'nodeFeeMetrics');
          return l1Fees(ctx, args, 'node', v.nodeId, args.metric);
        },
      },
      MetricPointConnectionRef,
    ),
  };
});
