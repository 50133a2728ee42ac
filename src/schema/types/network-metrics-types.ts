import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import { METRICS_PAGE_SIZE } from '../../loaders/metrics.js';
import {
  ICM_GROUP_BY,
  type IcmMetricsValue,
  type IcmRollingWindow,
  L1_FEE_METRICS,
  type L1FeeMetric,
  type L1FeeScope,
  NETWORK_METRICS,
  type TimeRange,
} from '../../upstream/metrics-api-network.js';
import type { MetricsValue } from '../../upstream/schemas/metrics.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import { builder } from '../builder.js';
import { type ConnectionArgs, resolveTokenConnection } from '../connection.js';
import { exposed } from '../expose.js';
import { parseCb58Id, parseTimeRange } from '../primary-inputs.js';
import { windowRows } from '../rows.js';

/** Enums, object types and helpers of the network-level Metrics API fields (network-metrics.ts). */
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

export const NetworkMetricEnum = enumOf(
  'StakingMetric',
  'A staking series of a network (per day).',
  NETWORK_METRICS,
  (v) =>
    v.endsWith('Count')
      ? `Number of ${v.startsWith('validator') ? 'validators' : 'delegations'} active that day.`
      : `Stake ${v.startsWith('validator') ? 'of validators' : 'delegated'} that day (weight; nAVAX on the primary network).`,
);
export const IcmGroupByEnum = enumOf(
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
export const TotalFeeMetricEnum = enumOf(
  'L1ValidatorsFeeMetric',
  'A fee series over all L1 validators.',
  L1_FEE_METRICS.total,
  feeDoc,
);
export const ValidationFeeMetricEnum = enumOf(
  'L1ValidationFeeMetric',
  'A fee series of one L1 validation.',
  L1_FEE_METRICS.validation,
  feeDoc,
);
export const NodeFeeMetricEnum = enumOf(
  'L1NodeFeeMetric',
  'A fee series of one node’s L1 validations.',
  L1_FEE_METRICS.node,
  feeDoc,
);
export const SubnetFeeMetricEnum = enumOf(
  'SubnetFeeMetric',
  'A fee series of one L1 (subnet).',
  L1_FEE_METRICS.subnet,
  feeDoc,
);

export const IcmPointRef = builder.objectRef<IcmMetricsValue>('IcmMetricPoint').implement({
  description:
    'ICM messages counted in the interval starting at `timestamp`, for a source/destination group.',
  fields: (t) =>
    exposed(t, {
      timestamp: ['Timestamp+Iso', 'Start of the interval, Unix seconds.'],
      value: ['Float', 'Messages sent in the interval.'],
      srcBlockchainId: [
        'String',
        'Source blockchain (CB58) of the group; empty when not grouped by it.',
      ],
      destBlockchainId: ['String', 'Destination blockchain (CB58); empty when not grouped by it.'],
    }),
});

export const IcmSummaryRef = builder.objectRef<IcmRollingWindow>('IcmSummary').implement({
  description: 'ICM messages over windows ending now.',
  fields: (t) =>
    exposed(t, {
      ...windowRows((window) => `Messages in ${window}.`, 'Messages since the start.'),
      srcBlockchainId: ['String', 'Source blockchain (CB58); empty when not selected.'],
      destBlockchainId: ['String', 'Destination blockchain (CB58); empty when not selected.'],
    }),
});

interface RangeArgs extends ConnectionArgs {
  startTimestamp?: number | null;
  endTimestamp?: number | null;
}

export function range(args: RangeArgs): TimeRange {
  const { startTimestamp, endTimestamp } = parseTimeRange(args);
  return { startTimestamp, endTimestamp };
}

export const optionalId = (v: string | null | undefined, argument: string, what: string) =>
  v == null ? undefined : parseCb58Id(v, argument, what);

export function l1Fees(
  ctx: GatewayContext,
  args: RangeArgs,
  scope: L1FeeScope,
  id: string | undefined,
  metric: L1FeeMetric,
) {
  const f = range(args);
  return resolveTokenConnection<MetricsValue>(args, ctx.connections, {
    pages: ctx.loaders.metricsNetwork.l1Fees.list({ scope, id, metric, ...f }),
    pageSize: METRICS_PAGE_SIZE,
    itemKey: (p) => `${p.timestamp}:${p.value}`,
  });
}

/** The L1-validator fee routes describe mainnet's L1s (they take no network). */
export function mainnetOnly(network: GatewayNetwork, field: string): void {
  if (network !== 'mainnet')
    throw badInput(field, `${field}: the Metrics API reports L1 validator fees for mainnet only`);
}
