import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { MetricPointConnectionRef, MetricPointRef, SERIES_RANGE } from './metrics.js';
import { l1Fees, mainnetOnly, SubnetFeeMetricEnum } from './network-metrics-types.js';
import { SubnetRef } from './subnet.js';

/**
 * A subnet's (an L1's) validator fee series (Metrics API getMetricsBySubnetId) on the subnet it
 * describes. The route covers mainnet only: a fuji subnet's series is refused before any call.
 */
builder.objectFields(SubnetRef, (t) => ({
  feeMetrics: t.connection(
    {
      type: MetricPointRef,
      nullable: true,
      description:
        "A daily fee series of this L1's validators (`getMetricsBySubnetId`; mainnet only), newest first.",
      args: argTable(t.arg, {
        metric: [SubnetFeeMetricEnum, 'Which series.', 'required'],
        ...SERIES_RANGE,
      }),
      resolve: (subnet, args, ctx) => {
        mainnetOnly(subnet.network, 'feeMetrics');
        return l1Fees(ctx, args, 'subnet', subnet.subnetId, args.metric);
      },
    },
    MetricPointConnectionRef,
  ),
}));
