import { builder } from '../builder.js';
import { l1FeeSeries } from './l1-fee-series.js';
import { L1ValidatorRef } from './l1-validator.js';
import { NodeFeeMetricEnum, ValidationFeeMetricEnum } from './network-metrics-types.js';
import { NetworkNodeRef, readNode } from './network-node.js';

/**
 * L1 validator fee series on the entities they describe: one validation (`L1Validator.feeMetrics`,
 * `getMetricsByValidationId`) and one node (`getMetricsByNodeId`): an L1 validator's node
 * (`L1Validator.nodeFeeMetrics`) and a configured node (`NetworkNode.l1FeeMetrics`, after its
 * `info.getNodeID`). The routes describe mainnet's L1s.
 */
builder.objectFields(L1ValidatorRef, (t) => ({
  feeMetrics: l1FeeSeries(t, 'feeMetrics', {
    metrics: ValidationFeeMetricEnum,
    scope: 'validation',
    description:
      'Daily fees this validation paid (`getMetricsByValidationId`; mainnet), newest first.',
    target: (v) => ({ network: v.network, id: v.validationId }),
  }),
  nodeFeeMetrics: l1FeeSeries(t, 'nodeFeeMetrics', {
    metrics: NodeFeeMetricEnum,
    scope: 'node',
    description:
      "Daily fees paid by all of this validator's node's L1 validations " +
      '(`getMetricsByNodeId`; mainnet), newest first.',
    target: (v) => ({ network: v.network, id: v.nodeId }),
  }),
}));

builder.objectFields(NetworkNodeRef, (t) => ({
  l1FeeMetrics: l1FeeSeries(t, 'l1FeeMetrics', {
    metrics: NodeFeeMetricEnum,
    scope: 'node',
    description:
      "Daily fees paid by this node's L1 validations (`getMetricsByNodeId`, mainnet L1s; " +
      'needs info.getNodeID), newest first.',
    target: async (n, ctx) => ({ id: (await readNode(n, ctx, (c) => c.info.nodeId())).nodeID }),
  }),
}));
