import { type BlockchainRecord, type SubnetRecord, subnetsOf } from '../world/subnets.js';
import type { Ctx } from './ctx.js';
import { notFound } from './errors.js';
import { only } from './operation-params.js';
import { pageOf } from './paging.js';
import type { Route } from './router.js';

/** Subnets and blockchains of a network (lists and by id) and the AVAX supply. */

function blockchainJson(b: BlockchainRecord) {
  return {
    createBlockTimestamp: b.createBlockTimestamp,
    createBlockNumber: String(b.createBlockNumber),
    blockchainId: b.blockchainId,
    vmId: b.vmId,
    subnetId: b.subnetId,
    blockchainName: b.name,
    ...(b.evmChainId !== undefined
      ? { evmChainId: b.evmChainId, genesisData: { config: { chainId: b.evmChainId } } }
      : {}),
    ...(b.rawGenesis !== undefined ? { genesisData: b.rawGenesis } : {}),
  };
}

function subnetJson(s: SubnetRecord) {
  return {
    createBlockTimestamp: s.createBlockTimestamp,
    createBlockIndex: String(s.createBlockIndex),
    subnetId: s.subnetId,
    ownerAddresses: s.owners,
    threshold: s.threshold,
    locktime: s.locktime,
    subnetOwnershipInfo: { locktime: s.locktime, threshold: s.threshold, addresses: s.owners },
    isL1: s.isL1,
    ...(s.l1ConversionTxHash ? { l1ConversionTransactionHash: s.l1ConversionTxHash } : {}),
    ...(s.manager ? { l1ValidatorManagerDetails: s.manager } : {}),
    blockchains: s.blockchains.map(blockchainJson),
  };
}

/** A list ascending by creation, paged by position (`listSubnets`, `listBlockchains`). */
function createdList<T>(ctx: Ctx, operationId: string, items: readonly T[]) {
  only(ctx, operationId);
  const size = ctx.pageSize(1, 10_000, 100);
  const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
  ctx.check();
  const filters = ['sortOrder'];
  const idx = items.map((_, i) => i);
  const { page, next } = pageOf(idx, {
    desc: order === 'desc',
    size,
    after: ctx.cursor<number>(filters),
    key: (i) => i,
    cmp: (a, b) => a - b,
  });
  return { page: page.map((i) => items[i]!), next: ctx.nextPage(filters, next) };
}

export const subnetRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/networks/:network/subnets',
    handler: (ctx) => {
      const { page, next } = createdList(
        ctx,
        'listSubnets',
        subnetsOf(ctx.world.seed, ctx.network()).subnets,
      );
      return { ...next, subnets: page.map(subnetJson) };
    },
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/subnets/:subnetId',
    handler: (ctx) => {
      const net = ctx.network();
      only(ctx, 'getSubnetById');
      ctx.check();
      const s = subnetsOf(ctx.world.seed, net).subnetById.get(ctx.params.subnetId!);
      if (!s) throw notFound(`Subnet ${ctx.params.subnetId} not found`);
      return subnetJson(s);
    },
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains',
    handler: (ctx) => {
      const { page, next } = createdList(
        ctx,
        'listBlockchains',
        subnetsOf(ctx.world.seed, ctx.network()).blockchains,
      );
      return { ...next, blockchains: page.map(blockchainJson) };
    },
  },
  {
    method: 'GET',
    template: '/v1/networks/:network/blockchains/:blockchainId',
    handler: (ctx) => {
      const net = ctx.network();
      only(ctx, 'getBlockchainById');
      ctx.check();
      const b = subnetsOf(ctx.world.seed, net).blockchainById.get(ctx.params.blockchainId!);
      if (!b) throw notFound(`Blockchain ${ctx.params.blockchainId} not found`);
      return blockchainJson(b);
    },
  },
  {
    method: 'GET',
    template: '/v1/avax/supply',
    handler: (ctx) => {
      only(ctx, 'getAvaxSupply');
      ctx.check();
      // Mainnet's supply (the route takes no network); it moves with the world's version.
      const v = BigInt(ctx.world.version);
      const n = (base: bigint, step: bigint) =>
        `${base + v * step}.${(123_456_789n + v).toString().padStart(9, '0')}`;
      return {
        circulatingSupply: n(454_257_251n, 10n),
        totalSupply: n(454_257_251n, 10n),
        totalPBurned: n(15_039n, 1n),
        totalCBurned: n(4_868_917n, 3n),
        totalXBurned: n(45_577n, 0n),
        totalStaked: n(199_605_247n, 5n),
        totalLocked: n(36_162_978n, 0n),
        totalRewards: n(99_186_786n, 4n),
        lastUpdated: new Date((ctx.world.now + Number(v) * 60) * 1000).toISOString(),
        genesisUnlock: '360000000',
        l1ValidatorFees: n(6_786n, 1n),
      };
    },
  },
];
