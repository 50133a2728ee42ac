import type { Ctx } from './ctx.js';
import { badRequest } from './errors.js';
import { pageOf } from './paging.js';
import type { Route } from './router.js';
import { l1ValidatorJson, validatorJson } from './shape-primary.js';

/** Validation periods of one primary-network node, and L1 validators. */

const NODE_ID = /^NodeID-[1-9A-HJ-NP-Za-km-z]{20,60}$/;
const byStart = (a: [number, string], b: [number, string]) =>
  a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

export const validatorRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/networks/:network/validators/:nodeId',
    handler: (ctx) => {
      const net = ctx.network();
      const nodeId = ctx.params.nodeId!;
      if (!NODE_ID.test(nodeId)) throw badRequest('Invalid NodeID format: expected NodeID-<cb58>');
      const size = ctx.pageSize();
      const status = ctx.enumOf('validationStatus', [
        'completed',
        'active',
        'pending',
        'removed',
      ] as const);
      const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      ctx.check();
      const filters = ['validationStatus', 'sortOrder'];
      // Periods are held ascending by start time; the cursor is (start time, tx hash).
      const periods = net.validatorsByNode.get(nodeId) ?? [];
      const { page, next } = pageOf(periods, {
        desc: order === 'desc',
        size,
        after: ctx.cursor<[number, string]>(filters),
        key: (v) => [v.startTimestamp, v.txHash] as [number, string],
        cmp: byStart,
        filter: status === undefined ? undefined : (v) => v.status === status,
      });
      return { ...ctx.nextPage(filters, next), validators: page.map(validatorJson) };
    },
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/l1Validators',
    handler: (ctx) => {
      const net = ctx.network();
      const size = ctx.pageSize();
      const includeInactive = ctx.bool('includeInactiveL1Validators') ?? false;
      const validationId = ctx.q('l1ValidationId');
      const nodeId = ctx.q('nodeId');
      if (nodeId !== undefined && !NODE_ID.test(nodeId))
        ctx.errors.push("nodeId must be a valid node ID in format 'NodeID-HASH'");
      const subnetId = ctx.q('subnetId');
      ctx.check();
      const filters = ['includeInactiveL1Validators', 'l1ValidationId', 'nodeId', 'subnetId'];
      // Newest first by creation time; the cursor is (creation time, validation id).
      const { page, next } = pageOf(net.l1Validators, {
        desc: true,
        size,
        after: ctx.cursor<[number, string]>(filters),
        key: (v) => [v.creationTimestamp, v.validationId] as [number, string],
        cmp: byStart,
        filter: (v) =>
          (includeInactive || v.active) &&
          (validationId === undefined ||
            v.validationId === validationId ||
            v.validationIdHex === validationId) &&
          (nodeId === undefined || v.nodeId === nodeId) &&
          (subnetId === undefined || v.subnetId === subnetId),
      });
      return {
        ...ctx.nextPage(filters, next),
        validators: page.map(l1ValidatorJson),
        blockHeight: String(net.pChainHeight),
      };
    },
  },
];
