import { createHash } from 'node:crypto';
import { cb58 } from '../world/encoding.js';
import { AVAX_USD, type PrimaryNetworkData, type StakingTx } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { pageOf } from './paging.js';
import type { Route } from './router.js';
import { CURRENCIES, PER_USD } from './routes-contracts.js';
import { avaxAmount } from './shape-primary.js';

/**
 * Delegations and staking rewards, derived from the world's staking transactions: a delegation is
 * an AddDelegatorTx / AddPermissionlessDelegatorTx (pending before its start, completed once ended,
 * active between); a reward is pending while its stake runs and historical once it has ended (paid
 * to the stake's reward addresses, in a UTXO of the reward transaction).
 */

export const LIST_DELEGATORS_PARAMS = [
  'pageToken',
  'pageSize',
  'rewardAddresses',
  'sortOrder',
  'delegationStatus',
  'nodeIds',
] as const;
export const PENDING_REWARDS_PARAMS = [
  'addresses',
  'pageToken',
  'pageSize',
  'nodeIds',
  'sortOrder',
] as const;
export const HISTORICAL_REWARDS_PARAMS = [
  'addresses',
  'pageToken',
  'pageSize',
  'nodeIds',
  'sortOrder',
  'currency',
] as const;

const NODE_ID = /^NodeID-[1-9A-HJ-NP-Za-km-z]{20,60}$/;
const isDelegation = (t: StakingTx) =>
  t.txType === 'AddDelegatorTx' || t.txType === 'AddPermissionlessDelegatorTx';
const statusOf = (t: StakingTx, now: number) =>
  t.startTimestamp > now ? 'pending' : t.endTimestamp <= now ? 'completed' : 'active';
const cmp = (a: [number, string], b: [number, string]) =>
  a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
const key = (t: StakingTx): [number, string] => [t.startTimestamp, t.txHash];
const derivedId = (label: string) =>
  cb58(new Uint8Array(createHash('sha256').update(label).digest()));

/** Bech32 addresses of this network, bare or with a P-/X- prefix; returned without the prefix. */
function addressList(ctx: Ctx, name: string, net: PrimaryNetworkData): string[] | undefined {
  const raw = ctx.q(name);
  if (raw === undefined) return undefined;
  const out = raw
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '')
    .map((a) => a.replace(/^[PX]-/, ''));
  if (out.some((a) => !a.startsWith(`${net.info.hrp}1`)))
    ctx.errors.push(`${name} must be a comma separated list of ${net.info.hrp} addresses`);
  return out;
}

function nodeList(ctx: Ctx): string[] | undefined {
  const raw = ctx.q('nodeIds');
  if (raw === undefined) return undefined;
  const out = raw
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  if (out.some((n) => !NODE_ID.test(n)))
    ctx.errors.push('nodeIds must be a comma separated list of node ids');
  return out;
}

/** The validator fee a delegation pays: its validator's period covering the delegation's start. */
function feeOf(net: PrimaryNetworkData, t: StakingTx): string {
  const v = net.validatorsByNode
    .get(t.nodeId)
    ?.find((p) => p.startTimestamp <= t.startTimestamp && t.startTimestamp < p.endTimestamp);
  return v?.delegationFee ?? '2.0000';
}

function netReward(gross: bigint, fee: string): bigint {
  return (gross * BigInt(Math.round((100 - Number(fee)) * 10_000))) / 1_000_000n;
}

function delegatorJson(net: PrimaryNetworkData, t: StakingTx, now: number) {
  const fee = feeOf(net, t);
  const status = statusOf(t, now);
  const base = {
    txHash: t.txHash,
    nodeId: t.nodeId,
    rewardAddresses: [...t.rewardAddresses],
    amountDelegated: String(t.amountStaked),
    delegationFee: fee,
    startTimestamp: t.startTimestamp,
    endTimestamp: t.endTimestamp,
  };
  const gross = t.estimatedReward;
  if (status === 'completed')
    return {
      ...base,
      grossReward: String(gross),
      netReward: String(netReward(gross, fee)),
      delegationStatus: status,
    };
  return {
    ...base,
    estimatedGrossReward: String(gross),
    estimatedNetReward: String(netReward(gross, fee)),
    delegationStatus: status,
  };
}

/** The stakes a reward list covers: those of the given reward addresses or node ids. */
function stakesOf(
  net: PrimaryNetworkData,
  addresses: string[] | undefined,
  nodeIds: string[] | undefined,
): StakingTx[] {
  return net.stakingTxs.filter(
    (t) =>
      (addresses === undefined || t.rewardAddresses.some((a) => addresses.includes(a))) &&
      (nodeIds === undefined || nodeIds.includes(t.nodeId)),
  );
}

function rewardCommon(t: StakingTx) {
  return {
    addresses: [...t.rewardAddresses],
    txHash: t.txHash,
    amountStaked: String(t.amountStaked),
    nodeId: t.nodeId,
    startTimestamp: t.startTimestamp,
    endTimestamp: t.endTimestamp,
    rewardType: isDelegation(t) ? ('DELEGATOR' as const) : ('VALIDATOR' as const),
  };
}

/** Reward lists are sorted by the stake's end (when a reward is, or will be, paid). */
const byEnd = (t: StakingTx): [number, string] => [t.endTimestamp, t.txHash];

export const rewardRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/networks/:network/delegators',
    handler: (ctx) => {
      const net = ctx.network();
      ctx.allowOnly(LIST_DELEGATORS_PARAMS);
      const size = ctx.pageSize();
      const rewardAddresses = addressList(ctx, 'rewardAddresses', net);
      const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      const status = ctx.enumOf('delegationStatus', ['completed', 'active', 'pending'] as const);
      const nodeIds = nodeList(ctx);
      ctx.check();
      const now = ctx.world.now;
      const items = net.stakingTxs
        .filter((t) => isDelegation(t) && (status === undefined || statusOf(t, now) === status))
        .filter(
          (t) =>
            (nodeIds === undefined || nodeIds.includes(t.nodeId)) &&
            (rewardAddresses === undefined ||
              t.rewardAddresses.some((a) => rewardAddresses.includes(a))),
        )
        .sort((a, b) => cmp(key(a), key(b)));
      const filters = LIST_DELEGATORS_PARAMS.slice(2);
      const { page, next } = pageOf(items, {
        desc: order === 'desc',
        size,
        after: ctx.cursor<[number, string]>(filters),
        key,
        cmp,
      });
      return {
        ...ctx.nextPage(filters, next),
        delegators: page.map((t) => delegatorJson(net, t, now)),
      };
    },
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/rewards:listPending',
    handler: (ctx) => {
      const net = ctx.network();
      ctx.allowOnly(PENDING_REWARDS_PARAMS);
      const size = ctx.pageSize();
      const addresses = addressList(ctx, 'addresses', net);
      const nodeIds = nodeList(ctx);
      const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      if (addresses === undefined && nodeIds === undefined)
        ctx.errors.push('One of addresses or nodeIds is required');
      ctx.check();
      const now = ctx.world.now;
      const items = stakesOf(net, addresses, nodeIds)
        .filter((t) => t.endTimestamp > now)
        .sort((a, b) => cmp(byEnd(a), byEnd(b)));
      const filters = PENDING_REWARDS_PARAMS.filter((p) => p !== 'pageToken' && p !== 'pageSize');
      const { page, next } = pageOf(items, {
        desc: order === 'desc',
        size,
        after: ctx.cursor<[number, string]>(filters),
        key: byEnd,
        cmp,
      });
      const pendingRewards = page.map((t) => ({
        ...rewardCommon(t),
        progress:
          t.startTimestamp > now
            ? 0
            : Math.round(
                ((now - t.startTimestamp) / (t.endTimestamp - t.startTimestamp)) * 10_000,
              ) / 100,
        estimatedReward: avaxAmount(net.info, t.estimatedReward),
      }));
      return { ...ctx.nextPage(filters, next), pendingRewards };
    },
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/rewards',
    handler: (ctx) => {
      const net = ctx.network();
      ctx.allowOnly(HISTORICAL_REWARDS_PARAMS);
      const size = ctx.pageSize();
      const addresses = addressList(ctx, 'addresses', net);
      const nodeIds = nodeList(ctx);
      const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      const currency = ctx.enumOf('currency', CURRENCIES) ?? 'usd';
      if (addresses === undefined && nodeIds === undefined)
        ctx.errors.push('At least one of addresses or nodeIds is required');
      ctx.check();
      const now = ctx.world.now;
      const items = stakesOf(net, addresses, nodeIds)
        .filter((t) => t.endTimestamp <= now)
        .sort((a, b) => cmp(byEnd(a), byEnd(b)));
      const filters = HISTORICAL_REWARDS_PARAMS.filter(
        (p) => p !== 'pageToken' && p !== 'pageSize',
      );
      const { page, next } = pageOf(items, {
        desc: order === 'desc',
        size,
        after: ctx.cursor<[number, string]>(filters),
        key: byEnd,
        cmp,
      });
      const historicalRewards = page.map((t) => {
        const rewardTxHash =
          net.validators.find((v) => v.txHash === t.txHash)?.rewardTxHash ??
          derivedId(`reward-tx|${t.txHash}`);
        // A price only for rewards older than a day, as the spec says.
        const priced = now - t.endTimestamp > 86_400;
        return {
          ...rewardCommon(t),
          utxoId: derivedId(`reward-utxo|${t.txHash}`),
          outputIndex: 0,
          reward: {
            ...avaxAmount(net.info, t.estimatedReward),
            ...(priced
              ? { historicalPrice: { currencyCode: currency, value: AVAX_USD * PER_USD[currency] } }
              : {}),
          },
          rewardTxHash,
        };
      });
      return { ...ctx.nextPage(filters, next), historicalRewards };
    },
  },
];
