import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { L1ValidatorRef } from './l1-validator.js';
import { MetricPointConnectionRef, MetricPointRef, SERIES_RANGE } from './metrics.js';
import {
  l1Fees,
  mainnetOnly,
  NodeFeeMetricEnum,
  ValidationFeeMetricEnum,
} from './network-metrics-types.js';
import { NetworkNodeRef, readNode } from './network-node.js';

/**
 * L1 validator fee series on the entities they describe: one validation (`L1Validator.feeMetrics`,
 * `getMetricsByValidationId`) and one node (`getMetricsByNodeId`): an L1 validator's node
 * (`L1Validator.nodeFeeMetrics`) and a configured node (`NetworkNode.l1FeeMetrics`, after its
 * `info.getNodeID`). The routes describe mainnet's L1s.
 */
builder.objectFields(L1ValidatorRef, (t) => {
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
          ...argTable(t.arg, SERIES_RANGE),
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
          '(`getMetricsByNodeId`; mainnet), newest first.',
        args: {
          metric: t.arg({ type: NodeFeeMetricEnum, required: true, description: 'Which series.' }),
          ...argTable(t.arg, SERIES_RANGE),
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

builder.objectFields(NetworkNodeRef, (t) => ({
  l1FeeMetrics: t.connection(
    {
      type: MetricPointRef,
      nullable: true,
      description:
        "Daily fees paid by this node's L1 validations (`getMetricsByNodeId`, mainnet L1s; " +
        'needs info.getNodeID), newest first.',
      args: argTable(t.arg, {
        metric: [NodeFeeMetricEnum, 'Which series.', 'required'],
        ...SERIES_RANGE,
      }),
      resolve: async (n, args, ctx) => {
        const { nodeID } = await readNode(n, ctx, (c) => c.info.nodeId());
        return l1Fees(ctx, args, 'node', nodeID, args.metric);
      },
    },
    MetricPointConnectionRef,
  ),
}));
