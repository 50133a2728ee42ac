import { METRICS_PAGE_SIZE } from '../../loaders/metrics.js';
import type { IcmMetricsValue } from '../../upstream/metrics-api-network.js';
import type { MetricsValue } from '../../upstream/schemas/metrics.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { pageDocs, resolveTokenConnection } from '../connection.js';
import { renamedArg, useInstead } from '../renamed-args.js';
import { l1FeeSeries } from './l1-fee-series.js';
import {
  MetricPointConnectionRef,
  MetricPointRef,
  SERIES_RANGE,
  TimeIntervalEnum,
} from './metrics.js';
import { NetworkRef } from './network.js';
import {
  IcmGroupByEnum,
  IcmPointRef,
  IcmSummaryRef,
  NetworkMetricEnum,
  optionalId,
  range,
  TotalFeeMetricEnum,
} from './network-metrics-types.js';

/**
 * The Metrics API's network-level series on the entities they describe: staking metrics of the
 * primary network or an L1 (`Network.stakingMetrics`), ICM message counts (`Network.icmMetrics`,
 * `Network.icmSummary`), and L1 validator fees: all validators (`Network.l1ValidatorFeeMetrics`),
 * one subnet (`Subnet.feeMetrics`, subnet-metrics.ts), one validation and its node
 * (`L1Validator.feeMetrics`, `L1Validator.nodeFeeMetrics`). Series are connections over the Metrics
 * API's page tokens; an expired token is BAD_USER_INPUT with `reason: 'CURSOR_EXPIRED'` (restart
 * paging), as for chain metrics. The L1-fee routes take no token: their one answer is the whole
 * series.
 */

/** The source/destination filter of the ICM counts: both optional, each a CB58 blockchain id. */
const ICM_PAIR_ARGS = {
  sourceBlockchainId: ['String', 'Only messages from this blockchain (CB58).'],
  destinationBlockchainId: ['String', 'Only messages to this blockchain (CB58).'],
} as const;

/** The pair's names before the conventions (deprecated aliases; the upstream's own names). */
const icmPairAliases = (arg: Parameters<typeof argTable>[0]) => ({
  srcBlockchainId: arg.string({
    required: false,
    description: 'Only messages from this blockchain (CB58).',
    deprecationReason: useInstead('sourceBlockchainId'),
  }),
  destBlockchainId: arg.string({
    required: false,
    description: 'Only messages to this blockchain (CB58).',
    deprecationReason: useInstead('destinationBlockchainId'),
  }),
});

/** The pair, parsed, under the upstream's names. */
const icmPair = (args: {
  sourceBlockchainId?: string | null;
  destinationBlockchainId?: string | null;
  srcBlockchainId?: string | null;
  destBlockchainId?: string | null;
}) => {
  const src = renamedArg(args, 'sourceBlockchainId', 'srcBlockchainId');
  const dest = renamedArg(args, 'destinationBlockchainId', 'destBlockchainId');
  return {
    srcBlockchainId: optionalId(src.value, src.argument, 'blockchain id'),
    destBlockchainId: optionalId(dest.value, dest.argument, 'blockchain id'),
  };
};

builder.objectFields(NetworkRef, (t) => {
  return {
    stakingMetrics: t.connection(
      {
        type: MetricPointRef,
        nullable: true,
        description:
          'A daily staking series of the primary network, or of an L1 with `subnetId` ' +
          '(`getStakingMetrics`), newest first.',
        args: {
          ...argTable(t.arg, {
            metric: [NetworkMetricEnum, 'Which series.', 'required'],
            subnetId: ['String', 'An L1 (CB58 subnet id). Default: the primary network.'],
          }),
          ...argTable(t.arg, SERIES_RANGE),
        },
        resolve: (network, args, ctx) => {
          const f = {
            ...range(args),
            subnetId: optionalId(args.subnetId, 'subnetId', 'subnet id'),
          };
          return resolveTokenConnection<MetricsValue>(args, ctx.connections, {
            pages: ctx.loaders.metricsNetwork.stakingPage.list({
              network: network.name,
              metric: args.metric,
              ...f,
            }),
            pageSize: METRICS_PAGE_SIZE,
            itemKey: (p) => `${p.timestamp}:${p.value}`,
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
          ...argTable(t.arg, {
            ...ICM_PAIR_ARGS,
            groupBy: [
              IcmGroupByEnum,
              'One series per source, destination or pair. Default: one series.',
            ],
            timeInterval: [TimeIntervalEnum, 'Interval of each point. Default DAY.'],
          }),
          ...icmPairAliases(t.arg),
          ...argTable(t.arg, SERIES_RANGE),
        },
        resolve: (network, args, ctx) => {
          const f = {
            ...range(args),
            ...icmPair(args),
            groupBy: args.groupBy ?? undefined,
            timeInterval: args.timeInterval ?? undefined,
            network: network.name,
          };
          return resolveTokenConnection<IcmMetricsValue>(args, ctx.connections, {
            pages: ctx.loaders.metricsNetwork.icmPage.list({ ...f }),
            pageSize: METRICS_PAGE_SIZE,
            itemKey: (p) => `${p.timestamp}:${p.srcBlockchainId}:${p.destBlockchainId}`,
          });
        },
      },
      ...pageDocs('ICM counts, newest first', 'An ICM count'),
    ),
    icmSummary: t.field({
      type: IcmSummaryRef,
      nullable: true,
      description: 'ICM messages of this network over the last hour … all time (`getICMSummary`).',
      args: {
        ...argTable(t.arg, {
          ...ICM_PAIR_ARGS,
          groupBy: [IcmGroupByEnum, 'Grouping, as the upstream takes it.'],
        }),
        ...icmPairAliases(t.arg),
      },
      resolve: (network, args, ctx) =>
        ctx.loaders.metricsNetwork.icmSummary.load({
          ...icmPair(args),
          groupBy: args.groupBy ?? undefined,
          network: network.name,
        }),
    }),
    l1ValidatorFeeMetrics: l1FeeSeries(t, 'l1ValidatorFeeMetrics', {
      metrics: TotalFeeMetricEnum,
      scope: 'total',
      description:
        'A daily fee series over all L1 validators (`getTotalL1ValidatorMetrics`; mainnet ' +
        'only), newest first.',
      target: (network) => ({ network: network.name }),
    }),
  };
});
