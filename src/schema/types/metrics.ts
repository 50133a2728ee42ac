import type { GatewayContext } from '../../context.js';
import { METRICS_PAGE_SIZE } from '../../loaders/metrics.js';
import {
  CHAIN_METRICS,
  dayOnly,
  ROLLING_WINDOW_METRICS,
  TIME_INTERVALS,
  type ChainMetric,
  type MetricsValue,
  type RollingWindowValues,
  type TimeInterval,
} from '../../upstream/schemas/metrics.js';
import { builder } from '../builder.js';
import { resolveTokenConnection, type ConnectionArgs } from '../connection.js';
import { badInput } from '../errors.js';
import { parseTimestampArg } from '../primary-inputs.js';
import { isoOf } from '../scalars.js';
import { ChainRef } from './chain.js';

/**
 * A chain's metrics from the Metrics API: the average-TPS series (the seed's `/v1/avg_tps`, served by the
 * v2 `metrics/avgTps` route), every other per-chain series through `ChainMetric`, and rolling windows.
 * Series are Relay connections over the Metrics API's page tokens; those expire after 24 hours, and a
 * cursor whose token expired is a BAD_USER_INPUT with `extensions.reason: 'CURSOR_EXPIRED'` (restart paging).
 */
const upperSnake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
const enumValues = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [upperSnake(v), { value: v }])) as Record<string, { value: T }>;

export const ChainMetricEnum = builder.enumType('ChainMetric', {
  description: 'A per-chain time series of the Metrics API. CUMULATIVE_*, MAX_* and AVG_* are aggregated per DAY only.',
  values: enumValues(CHAIN_METRICS),
});

export const RollingWindowMetricEnum = builder.enumType('RollingWindowMetric', { values: enumValues(ROLLING_WINDOW_METRICS) });

export const TimeIntervalEnum = builder.enumType('TimeInterval', { values: enumValues(TIME_INTERVALS) });

interface ChainMetricsShape {
  chainId: string;
}

const MetricPointRef = builder.objectRef<MetricsValue>('MetricPoint').implement({
  description: 'One value of a series, for the interval starting at `timestamp`.',
  fields: (t) => ({
    timestamp: t.expose('timestamp', { type: 'Timestamp' }),
    timestampIso: t.string({ resolve: (p) => isoOf(p.timestamp) }),
    value: t.exposeFloat('value'),
  }),
});

const MetricPointConnectionRef = builder.connectionObject(
  { type: MetricPointRef, name: 'MetricPointConnection', description: 'A page of a metrics series, newest first.' },
  { name: 'MetricPointEdge' },
);

const RollingWindowRef = builder.objectRef<RollingWindowValues>('RollingWindowMetrics').implement({
  description: 'A metric aggregated over windows ending now.',
  fields: (t) => ({
    lastHour: t.exposeFloat('lastHour', { nullable: true }),
    lastDay: t.exposeFloat('lastDay', { nullable: true }),
    lastWeek: t.exposeFloat('lastWeek', { nullable: true }),
    lastMonth: t.exposeFloat('lastMonth', { nullable: true }),
    last90Days: t.exposeFloat('last90Days', { nullable: true }),
    lastYear: t.exposeFloat('lastYear', { nullable: true }),
    allTime: t.exposeFloat('allTime', { nullable: true }),
  }),
});

interface SeriesArgs extends ConnectionArgs {
  startTimestamp?: number | null;
  endTimestamp?: number | null;
  timeInterval?: TimeInterval | null;
}

function series(ctx: GatewayContext, chainId: string, metric: ChainMetric, args: SeriesArgs) {
  const startTimestamp = parseTimestampArg(args.startTimestamp, 'startTimestamp');
  const endTimestamp = parseTimestampArg(args.endTimestamp, 'endTimestamp');
  if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp) {
    throw badInput('endTimestamp', 'endTimestamp must not be before startTimestamp');
  }
  const timeInterval = args.timeInterval ?? undefined;
  if (timeInterval && timeInterval !== 'day' && dayOnly(metric)) {
    throw badInput('timeInterval', `${metric} is aggregated per day only: use timeInterval DAY`);
  }
  const filter = { startTimestamp, endTimestamp, timeInterval };
  return resolveTokenConnection<MetricsValue>(args, ctx.connections, {
    listKey: `metrics|${chainId}|${metric}|${startTimestamp ?? ''}|${endTimestamp ?? ''}|${timeInterval ?? ''}`,
    pageSize: METRICS_PAGE_SIZE,
    itemKey: (p) => `${p.timestamp}:${p.value}`,
    fetchPage: (pageToken) => ctx.loaders.metrics.seriesPage.load({ chainId, metric, pageToken, ...filter }),
  });
}

const ChainMetricsRef = builder.objectRef<ChainMetricsShape>('ChainMetrics').implement({
  description: 'Time series of one chain from the Metrics API.',
  fields: (t) => ({
    chainId: t.exposeString('chainId'),
    avgTps: t.connection(
      {
        type: MetricPointRef,
        nullable: true,
        description: 'Average transactions per second, per day, newest first. Forward paging only (first/after).',
        args: {
          startTimestamp: t.arg.int({ description: 'Only points at or after this Unix time (seconds, ≥ 0).' }),
          endTimestamp: t.arg.int({ description: 'Only points at or before this Unix time (seconds, ≥ 0).' }),
          timeInterval: t.arg({ type: TimeIntervalEnum, description: 'Only DAY is served for this metric (the default).' }),
        },
        resolve: (m, args, ctx) => series(ctx, m.chainId, 'avgTps', args),
      },
      MetricPointConnectionRef,
    ),
    series: t.connection(
      {
        type: MetricPointRef,
        nullable: true,
        description: 'Any per-chain series, newest first. Forward paging only (first/after).',
        args: {
          metric: t.arg({ type: ChainMetricEnum, required: true }),
          startTimestamp: t.arg.int({ description: 'Only points at or after this Unix time (seconds, ≥ 0).' }),
          endTimestamp: t.arg.int({ description: 'Only points at or before this Unix time (seconds, ≥ 0).' }),
          timeInterval: t.arg({ type: TimeIntervalEnum, description: 'Aggregation interval. Default DAY.' }),
        },
        resolve: (m, args, ctx) => series(ctx, m.chainId, args.metric, args),
      },
      MetricPointConnectionRef,
    ),
    rollingWindow: t.field({
      type: RollingWindowRef,
      nullable: true,
      description: 'A metric over the last hour, day, week, month, 90 days, year and all time.',
      args: { metric: t.arg({ type: RollingWindowMetricEnum, required: true, defaultValue: 'avgTps' }) },
      resolve: (m, args, ctx) => ctx.loaders.metrics.rollingWindow.load({ chainId: m.chainId, metric: args.metric }),
    }),
  }),
});

builder.objectFields(ChainRef, (t) => ({
  metrics: t.field({
    type: ChainMetricsRef,
    description: 'This chain’s metrics series (Metrics API). Costs nothing until a series is read.',
    resolve: (chain) => ({ chainId: chain.chainId }),
  }),
}));
