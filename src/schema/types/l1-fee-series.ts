import type { EnumRef } from '@pothos/core';
import type { GatewayContext } from '../../context.js';
import type { L1FeeMetric, L1FeeScope } from '../../upstream/metrics-api-network.js';
import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import { argTable } from '../arg-table.js';
import type { GatewayTypes, ObjectFields } from '../builder-types.js';
import { MetricPointConnectionRef, MetricPointRef, SERIES_RANGE } from './metrics.js';
import { l1Fees, mainnetOnly } from './network-metrics-types.js';

/** What an L1-validator fee series is about: its scope's id, and its network when the parent knows it. */
interface FeeTarget {
  network?: GatewayNetwork;
  id?: string;
}

/**
 * An L1-validator fee series field (Metrics API): one of `metrics` and the time range as arguments.
 * The routes describe mainnet's L1s: a parent on another network is refused before any call.
 */
export function l1FeeSeries<S>(
  t: ObjectFields<S>,
  field: string,
  options: {
    metrics: EnumRef<GatewayTypes, L1FeeMetric, L1FeeMetric>;
    scope: L1FeeScope;
    description: string;
    target: (parent: S, ctx: GatewayContext) => FeeTarget | Promise<FeeTarget>;
  },
) {
  return t.connection(
    {
      type: MetricPointRef,
      nullable: true,
      description: options.description,
      args: argTable(t.arg, {
        metric: [options.metrics, 'Which series.', 'required'],
        ...SERIES_RANGE,
      }),
      resolve: async (parent, args, ctx) => {
        const { network, id } = await options.target(parent, ctx);
        if (network) mainnetOnly(network, field);
        return l1Fees(ctx, args, options.scope, id, args.metric);
      },
    },
    MetricPointConnectionRef,
  );
}
