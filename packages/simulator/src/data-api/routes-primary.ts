import { isBech32, type PrimaryNetworkData, type StakingTx } from '../world/index.js';
import { PRIMARY_TX_TYPES as TX_TYPES } from './atomic-rows.js';
import type { Ctx } from './ctx.js';
import { badRequest, notFound } from './errors.js';
import { cmpNum, lowerBound, pageOf } from './paging.js';
import type { Route } from './router.js';
import { atomicTxByHash, atomicTxList } from './routes-primary-atomic.js';
import { avaxAmount, stakingTxJson } from './shape-primary.js';
import { chainKind } from './utxo-rows.js';

/** Active P-Chain staking transactions and primary-network balances by address. */

const P_IDS = ['11111111111111111111111111111111LpoYY', 'p-chain'] as const;
const BLOCKCHAIN_IDS = [
  '11111111111111111111111111111111LpoYY',
  '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
  '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
  '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
  'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
  'p-chain',
  'x-chain',
  'c-chain',
] as const;

/** `addresses=avax1…,P-avax1…,X-avax1…` → bech32 without chain prefix; 400 when one is malformed. */
function addresses(ctx: Ctx, net: PrimaryNetworkData): string[] {
  const out = ctx.list('addresses').map((a) => a.replace(/^[PXC]-/, ''));
  if (out.some((a) => !isBech32(a, net.info.hrp))) throw badRequest('Invalid address format');
  return out;
}

const chainInfo = (chainName: 'p-chain' | 'x-chain' | 'c-chain', net: PrimaryNetworkData) => ({
  chainName,
  network: net.info.name,
});

const stakingIndex = new WeakMap<StakingTx[], number[]>();
function positions(list: StakingTx[]): number[] {
  let p = stakingIndex.get(list);
  if (!p) {
    p = list.map((_, i) => i);
    stakingIndex.set(list, p);
  }
  return p;
}

function aggregate(net: PrimaryNetworkData, amount: bigint, utxoCount: number) {
  return amount > 0n ? [{ ...avaxAmount(net.info, amount), utxoCount }] : [];
}

export const primaryRoutes: Route<Ctx>[] = [
  {
    // getTxByHash: the real route answers any primary-network tx (a oneOf of P/X/C shapes); the world's
    // P-Chain transactions are its staking transactions, answered in the PChainTransaction shape.
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/transactions/:txHash',
    handler: (ctx) => {
      const net = ctx.network();
      ctx.enumOf('blockchainId', BLOCKCHAIN_IDS, ctx.params.blockchainId);
      ctx.check();
      const id = ctx.params.blockchainId!;
      const kind = chainKind(net, id);
      if (kind !== 'p') return atomicTxByHash(ctx, net, kind, ctx.params.txHash!);
      const tx = net.stakingTxs.find((t) => t.txHash === ctx.params.txHash);
      if (!tx) throw notFound(`Transaction ${ctx.params.txHash} not found on ${id}`);
      return stakingTxJson(net.info, tx);
    },
  },
  {
    // listLatestPrimaryNetworkTransactions: the world's P-Chain transactions, ended stakes included; the
    // X-Chain's and the C-Chain's atomic ones in their own shapes (routes-primary-atomic.ts).
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/transactions',
    handler: (ctx) => {
      const net = ctx.network();
      const id = ctx.enumOf('blockchainId', BLOCKCHAIN_IDS, ctx.params.blockchainId);
      const kind = chainKind(net, ctx.params.blockchainId!);
      if (kind !== 'p') return atomicTxList(ctx, net, kind);
      const size = ctx.pageSize();
      const types = ctx.list('txTypes');
      for (const t of types) ctx.enumOf('txTypes', TX_TYPES, t);
      const start = ctx.int('startTimestamp', { min: 0 });
      const end = ctx.int('endTimestamp', { min: 0 });
      const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      ctx.check();
      void id;
      const owners = new Set(addresses(ctx, net));
      const l1 = ctx.q('l1ValidationId');
      const filters = [
        'addresses',
        'l1ValidationId',
        'txTypes',
        'startTimestamp',
        'endTimestamp',
        'sortOrder',
      ];
      const list = net.stakingTxs;
      const lo = start === undefined ? 0 : lowerBound(list, (t) => t.blockTimestamp >= start);
      const hi = end === undefined ? list.length : lowerBound(list, (t) => t.blockTimestamp > end);
      const { page, next } = pageOf(positions(list), {
        lo,
        hi,
        desc: order === 'desc',
        size,
        after: ctx.cursor<number>(filters),
        key: (i) => i,
        cmp: cmpNum,
        filter: (i) => {
          const t = list[i]!;
          if (l1 !== undefined) return false; // the world's P-Chain txs touch no L1 validator
          if (types.length > 0 && !types.includes(t.txType)) return false;
          return (
            owners.size === 0 ||
            t.ownerAddresses.some((a) => owners.has(a)) ||
            t.rewardAddresses.some((a) => owners.has(a))
          );
        },
      });
      const transactions = page.map((i) => stakingTxJson(net.info, list[i]!));
      return { ...ctx.nextPage(filters, next), transactions, chainInfo: chainInfo('p-chain', net) };
    },
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/transactions:listStaking',
    handler: (ctx) => {
      const net = ctx.network();
      ctx.enumOf('blockchainId', P_IDS, ctx.params.blockchainId);
      const size = ctx.pageSize();
      const types = ctx.list('txTypes');
      for (const t of types) ctx.enumOf('txTypes', TX_TYPES, t);
      const start = ctx.int('startTimestamp', { min: 0 });
      const end = ctx.int('endTimestamp', { min: 0 });
      const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      ctx.check();
      const owners = new Set(addresses(ctx, net));
      const filters = ['addresses', 'txTypes', 'startTimestamp', 'endTimestamp', 'sortOrder'];
      const list = net.stakingTxs;
      const now = ctx.world.now;
      const lo = start === undefined ? 0 : lowerBound(list, (t) => t.blockTimestamp >= start);
      const hi = end === undefined ? list.length : lowerBound(list, (t) => t.blockTimestamp > end);
      const { page, next } = pageOf(positions(list), {
        lo,
        hi,
        desc: order === 'desc',
        size,
        after: ctx.cursor<number>(filters),
        key: (i) => i,
        cmp: cmpNum,
        filter: (i) => {
          const t = list[i]!;
          if (t.endTimestamp <= now) return false; // only active stakes
          if (types.length > 0 && !types.includes(t.txType)) return false;
          return (
            owners.size === 0 ||
            t.ownerAddresses.some((a) => owners.has(a)) ||
            t.rewardAddresses.some((a) => owners.has(a))
          );
        },
      });
      return {
        ...ctx.nextPage(filters, next),
        transactions: page.map((i) => stakingTxJson(net.info, list[i]!)),
        chainInfo: chainInfo('p-chain', net),
      };
    },
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId/balances',
    handler: (ctx) => {
      const net = ctx.network();
      const id = ctx.enumOf('blockchainId', BLOCKCHAIN_IDS, ctx.params.blockchainId);
      ctx.int('blockTimestamp', { min: 0 }); // accepted; balances are always the current ones
      ctx.check();
      const addrs = addresses(ctx, net);
      const nets = Object.values(ctx.world.networks);
      const kind =
        id === 'p-chain' || id === net.info.pChainId
          ? 'p'
          : id === 'x-chain' || nets.some((n) => n.xChainId === id)
            ? 'x'
            : 'c';
      if (kind === 'p') {
        const sum = {
          unlockedUnstaked: [0n, 0],
          unlockedStaked: [0n, 0],
          lockedStakeable: [0n, 0],
          pendingStaked: [0n, 0],
          atomic: [0n, 0],
        } as Record<string, [bigint, number]>;
        for (const a of addrs) {
          const b = net.pBalances.get(a);
          if (!b) continue;
          const add = (k: string, v: bigint, n = 1) => {
            if (v <= 0n) return;
            sum[k]![0] += v;
            sum[k]![1] += n;
          };
          add('unlockedUnstaked', b.unlockedUnstaked, b.unlockedUnstakedUtxos);
          add('unlockedStaked', b.unlockedStaked);
          add('lockedStakeable', b.lockedStakeable);
          add('pendingStaked', b.pendingStaked);
          add('atomic', b.atomicMemoryUnlocked);
        }
        const agg = (k: string) => aggregate(net, sum[k]![0], sum[k]![1]);
        return {
          balances: {
            unlockedUnstaked: agg('unlockedUnstaked'),
            unlockedStaked: agg('unlockedStaked'),
            lockedPlatform: [],
            lockedStakeable: agg('lockedStakeable'),
            lockedStaked: [],
            pendingStaked: agg('pendingStaked'),
            atomicMemoryUnlocked: agg('atomic').map((x) => ({
              ...x,
              sharedWithChainId: net.info.xChainId,
              status: 'ACCEPTED',
            })),
            atomicMemoryLocked: [],
          },
          chainInfo: chainInfo('p-chain', net),
        };
      }
      if (kind === 'x') {
        const byAsset = new Map<string, { amount: bigint; n: number }>();
        for (const a of addrs) {
          for (const u of net.xChain.utxosByAddress.get(a) ?? []) {
            const e = byAsset.get(u.assetId) ?? { amount: 0n, n: 0 };
            e.amount += u.amount;
            e.n++;
            byAsset.set(u.assetId, e);
          }
        }
        const unlocked = net.xChain.assets
          .filter((as) => byAsset.has(as.assetId))
          .map((as) => ({
            assetId: as.assetId,
            name: as.name,
            symbol: as.symbol,
            denomination: as.denomination,
            type: 'secp256k1' as const,
            amount: byAsset.get(as.assetId)!.amount.toString(),
            utxoCount: byAsset.get(as.assetId)!.n,
          }));
        return {
          balances: { locked: [], unlocked, atomicMemoryUnlocked: [], atomicMemoryLocked: [] },
          chainInfo: chainInfo('x-chain', net),
        };
      }
      let atomic = 0n;
      let n = 0;
      for (const a of addrs) {
        const v = net.cAtomicBalances.get(a);
        if (v) {
          atomic += v;
          n++;
        }
      }
      return {
        balances: {
          atomicMemoryUnlocked: aggregate(net, atomic, n).map((x) => ({
            ...x,
            sharedWithChainId: net.info.xChainId,
          })),
          atomicMemoryLocked: [],
        },
        chainInfo: chainInfo('c-chain', net),
      };
    },
  },
];
