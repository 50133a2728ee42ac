import { isBech32, type StakingTx } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { badRequest } from './errors.js';
import { cmpNum, lowerBound, pageOf } from './paging.js';
import type { Route } from './router.js';
import { stakingTxJson } from './shape-primary.js';

/**
 * `listLatestPrimaryNetworkTransactions` on the P-Chain: every P-Chain transaction of the world (its
 * staking transactions, ended ones included), in the `ListPChainTransactionsResponse` shape. Query
 * parameters are checked against the spec's list for this operation: an unknown name is a 400, and
 * `txTypes` is an array parameter (form, exploded: `txTypes=A&txTypes=B`), so a comma-joined value is
 * refused as an unknown type, as the real API's enum validation does.
 */

const TX_TYPES = [
  'AddValidatorTx', 'AddSubnetValidatorTx', 'AddDelegatorTx', 'CreateChainTx', 'CreateSubnetTx', 'ImportTx', 'ExportTx',
  'AdvanceTimeTx', 'RewardValidatorTx', 'RemoveSubnetValidatorTx', 'TransformSubnetTx', 'AddPermissionlessValidatorTx',
  'AddPermissionlessDelegatorTx', 'BaseTx', 'TransferSubnetOwnershipTx', 'ConvertSubnetToL1Tx', 'RegisterL1ValidatorTx',
  'SetL1ValidatorWeightTx', 'DisableL1ValidatorTx', 'IncreaseL1ValidatorBalanceTx', 'UNKNOWN', 'CreateAssetTx', 'OperationTx',
] as const;
const P_IDS = ['11111111111111111111111111111111LpoYY', 'p-chain'] as const;
/** The spec's query parameters of listLatestPrimaryNetworkTransactions. */
export const LIST_PRIMARY_TX_PARAMS = [
  'addresses', 'l1ValidationId', 'txTypes', 'startTimestamp', 'endTimestamp', 'pageToken', 'pageSize', 'sortOrder',
] as const;

function onlyKnownParams(ctx: Ctx, names: readonly string[]): void {
  for (const k of new Set(ctx.req.query.keys())) {
    if (!names.includes(k)) ctx.errors.push(`property ${k} should not exist`);
  }
}

const positionsOf = new WeakMap<StakingTx[], number[]>();
function positions(list: StakingTx[]): number[] {
  let p = positionsOf.get(list);
  if (!p) positionsOf.set(list, (p = list.map((_, i) => i)));
  return p;
}

export const primaryTxRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/transactions',
    handler: (ctx) => {
      const net = ctx.network();
      onlyKnownParams(ctx, LIST_PRIMARY_TX_PARAMS);
      ctx.enumOf('blockchainId', P_IDS, ctx.params.blockchainId);
      const size = ctx.pageSize();
      const types = ctx.req.query.getAll('txTypes');
      for (const t of types) ctx.enumOf('txTypes', TX_TYPES, t);
      const start = ctx.int('startTimestamp', { min: 0 });
      const end = ctx.int('endTimestamp', { min: 0 });
      const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      const validationId = ctx.q('l1ValidationId');
      ctx.check();
      const owners = new Set(ctx.list('addresses').map((a) => a.replace(/^[PXC]-/, '')));
      if ([...owners].some((a) => !isBech32(a, net.info.hrp))) throw badRequest('Invalid address format');
      const filters = LIST_PRIMARY_TX_PARAMS.filter((p) => p !== 'pageToken' && p !== 'pageSize');
      const list = net.stakingTxs;
      const lo = start === undefined ? 0 : lowerBound(list, (t) => t.blockTimestamp >= start);
      const hi = end === undefined ? list.length : lowerBound(list, (t) => t.blockTimestamp > end);
      const { page, next } = pageOf(positions(list), {
        lo, hi, desc: order === 'desc', size, after: ctx.cursor<number>(filters), key: (i) => i, cmp: cmpNum,
        filter: (i) => {
          const t = list[i]!;
          // The world's P-Chain transactions are primary-network stakes: none concerns an L1 validation.
          if (validationId !== undefined) return false;
          if (types.length > 0 && !types.includes(t.txType)) return false;
          return owners.size === 0 || t.ownerAddresses.some((a) => owners.has(a)) || t.rewardAddresses.some((a) => owners.has(a));
        },
      });
      return {
        ...ctx.nextPage(filters, next),
        transactions: page.map((i) => stakingTxJson(net.info, list[i]!)),
        chainInfo: { chainName: 'p-chain', network: net.info.name },
      };
    },
  },
];
