import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import { METRICS_PAGE_SIZE } from '../../loaders/metrics.js';
import {
  CHAIN_METRICS,
  type ChainMetric,
  dayOnly,
  type MetricsValue,
  ROLLING_WINDOW_METRICS,
  type RollingWindowValues,
  TIME_INTERVALS,
  type TimeInterval,
} from '../../upstream/schemas/metrics.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { type ConnectionArgs, resolveTokenConnection } from '../connection.js';
import { exposed } from '../expose.js';
import { parseTimeRange } from '../primary-inputs.js';
import { windowRows } from '../rows.js';
import { ChainRef } from './chain.js';

/**
 * A chain's metrics from the Metrics API: the average-TPS series (the seed's `/v1/avg_tps`, served by the
 * v2 `metrics/avgTps` route), every other per-chain series through `ChainMetric`, and rolling windows.
 * Series are Relay connections over the Metrics API's page tokens; those expire after 24 hours, and a
 * cursor whose token expired is a BAD_USER_INPUT with `extensions.reason: 'CURSOR_EXPIRED'` (restart paging).
 */
const upperSnake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
const enumValues = <T extends string>(values: readonly T[], docs: { readonly [K in T]: string }) =>
  Object.fromEntries(
    values.map((v) => [upperSnake(v), { value: v, description: docs[v] }]),
  ) as Record<string, { value: T; description: string }>;

/** The Metrics API's own wording, with units (gas in gas units, prices and fees in wei of the native token). */
const METRIC_DOCS: Record<ChainMetric, string> = {
  activeAddresses: 'Distinct addresses that sent or received a transaction in the interval.',
  activeSenders: 'Distinct addresses that sent a transaction in the interval.',
  cumulativeTxCount: 'Transactions since genesis, at the end of the interval (per day only).',
  cumulativeAddresses:
    'Distinct addresses seen since genesis, at the end of the interval (per day only).',
  cumulativeContracts:
    'Contracts deployed since genesis, at the end of the interval (per day only).',
  cumulativeDeployers:
    'Distinct contract deployers since genesis, at the end of the interval (per day only).',
  contracts: 'Contracts deployed in the interval.',
  deployers: 'Distinct addresses that deployed a contract in the interval.',
  gasUsed: 'Gas used in the interval (gas units).',
  txCount: 'Transactions in the interval.',
  avgGps: 'Average gas used per second over the interval (per day only).',
  maxGps: 'Highest gas used per second in the interval (per day only).',
  avgTps: 'Average transactions per second over the interval (per day only).',
  maxTps: 'Highest transactions per second in the interval (per day only).',
  avgGasPrice: 'Average gas price in the interval, in wei (per day only).',
  maxGasPrice: 'Highest gas price in the interval, in wei (per day only).',
  feesPaid: 'Transaction fees paid in the interval, in wei of the native token.',
};

export const ChainMetricEnum = builder.enumType('ChainMetric', {
  description:
    'A per-chain time series of the Metrics API. CUMULATIVE_*, MAX_* and AVG_* are aggregated per DAY only.',
  values: enumValues(CHAIN_METRICS, METRIC_DOCS),
});

export const RollingWindowMetricEnum = builder.enumType('RollingWindowMetric', {
  description:
    'A per-chain metric the Metrics API also keeps over rolling windows (last hour … all time).',
  values: enumValues(ROLLING_WINDOW_METRICS, METRIC_DOCS),
});

export const TimeIntervalEnum = builder.enumType('TimeInterval', {
  description:
    'How a series is aggregated: one point per interval, stamped with the interval start (UTC).',
  values: enumValues(TIME_INTERVALS, {
    hour: 'One point per hour.',
    day: 'One point per day (UTC).',
    week: 'One point per week.',
    month: 'One point per calendar month.',
  }),
});

interface ChainMetricsShape {
  chainId: string;
}

/** The time range every Metrics API series takes, as the spec names it (entries of an `argTable`). */
export const SERIES_RANGE = {
  startTimestamp: ['Int', 'Only points at or after this Unix time (seconds, ≥ 0).'],
  endTimestamp: ['Int', 'Only points at or before this Unix time (seconds, ≥ 0).'],
} as const;

export const MetricPointRef = builder.objectRef<MetricsValue>('MetricPoint').implement({
  description: 'One value of a series, for the interval starting at `timestamp`.',
  fields: (t) =>
    exposed(t, {
      timestamp: ['Timestamp+Iso', 'Start of the interval this point covers, Unix seconds.'],
      value: ['Float', "The metric's value for the interval (unit depends on the metric)."],
    }),
});

export const MetricPointConnectionRef = builder.connectionObject(
  {
    type: MetricPointRef,
    name: 'MetricPointConnection',
    description: 'A page of a metrics series, newest first.',
  },
  { name: 'MetricPointEdge' },
);

const RollingWindowRef = builder.objectRef<RollingWindowValues>('RollingWindowMetrics').implement({
  description: 'A metric aggregated over windows ending now.',
  fields: (t) =>
    exposed(t, {
      ...windowRows(
        (window) => `Value over ${window}; null when none.`,
        'Value since genesis; null when none.',
      ),
      // Set again, it keeps its place (first): only its description says more.
      lastHour: ['Float?', 'Value over the last hour; null when the Metrics API has none.'],
    }),
});

interface SeriesArgs extends ConnectionArgs {
  startTimestamp?: number | null;
  endTimestamp?: number | null;
  timeInterval?: TimeInterval | null;
}

function series(ctx: GatewayContext, chainId: string, metric: ChainMetric, args: SeriesArgs) {
  const { startTimestamp, endTimestamp } = parseTimeRange(args);
  const timeInterval = args.timeInterval ?? undefined;
  if (timeInterval && timeInterval !== 'day' && dayOnly(metric)) {
    throw badInput('timeInterval', `${metric} is aggregated per day only: use timeInterval DAY`);
  }
  const filter = { startTimestamp, endTimestamp, timeInterval };
  return resolveTokenConnection<MetricsValue>(args, ctx.connections, {
    pages: ctx.loaders.metrics.seriesPage.list({ chainId, metric, ...filter }),
    pageSize: METRICS_PAGE_SIZE,
    itemKey: (p) => `${p.timestamp}:${p.value}`,
  });
}

export const ChainMetricsRef = builder.objectRef<ChainMetricsShape>('ChainMetrics').implement({
  description: 'Time series of one chain from the Metrics API.',
  fields: (t) => ({
    chainId: t.exposeString('chainId', {
      description: 'EVM chain id of the chain (decimal string).',
    }),
    avgTps: t.connection(
      {
        type: MetricPointRef,
        nullable: true,
        description:
          'Average transactions per second, per day, newest first. Forward paging only (first/after).',
        args: argTable(t.arg, {
          ...SERIES_RANGE,
          timeInterval: [TimeIntervalEnum, 'Only DAY is served for this metric (the default).'],
        }),
        resolve: (m, args, ctx) => series(ctx, m.chainId, 'avgTps', args),
      },
      MetricPointConnectionRef,
    ),
    series: t.connection(
      {
        type: MetricPointRef,
        nullable: true,
        description: 'Any per-chain series, newest first. Forward paging only (first/after).',
        args: argTable(t.arg, {
          metric: [ChainMetricEnum, 'Which series to read.', 'required'],
          ...SERIES_RANGE,
          timeInterval: [TimeIntervalEnum, 'Aggregation interval. Default DAY.'],
        }),
        resolve: (m, args, ctx) => series(ctx, m.chainId, args.metric, args),
      },
      MetricPointConnectionRef,
    ),
    rollingWindow: t.field({
      type: RollingWindowRef,
      nullable: true,
      description: 'A metric over the last hour, day, week, month, 90 days, year and all time.',
      args: {
        metric: t.arg({
          type: RollingWindowMetricEnum,
          required: true,
          defaultValue: 'avgTps',
          description: 'Which metric. Default: AVG_TPS.',
        }),
      },
      resolve: (m, args, ctx) =>
        ctx.loaders.metrics.rollingWindow.load({ chainId: m.chainId, metric: args.metric }),
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
