import { builder } from '../builder.js';
import { l1FeeSeries } from './l1-fee-series.js';
import { SubnetFeeMetricEnum } from './network-metrics-types.js';
import { SubnetRef } from './subnet.js';

/**
 * A subnet's (an L1's) validator fee series (Metrics API getMetricsBySubnetId) on the subnet it
 * describes. The route covers mainnet only: a fuji subnet's series is refused before any call.
 */
builder.objectFields(SubnetRef, (t) => ({
  feeMetrics: l1FeeSeries(t, 'feeMetrics', {
    metrics: SubnetFeeMetricEnum,
    scope: 'subnet',
    description:
      "A daily fee series of this L1's validators (`getMetricsBySubnetId`; mainnet only), newest first.",
    target: (subnet) => ({ network: subnet.network, id: subnet.subnetId }),
  }),
}));
