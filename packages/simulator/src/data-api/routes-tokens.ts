import type { IcmMessage } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { badRequest, notFound } from './errors.js';
import {
  allBlocks,
  allIcmMessages,
  allTransactions,
  cmp2,
  cmp3,
  collectionTokenIds,
  deploymentsBy,
  tokenTransfers,
} from './holdings.js';
import { cmpNum, lowerBound, pageOf } from './paging.js';
import type { Route } from './router.js';
import { CURRENCIES, contractJson, PER_USD } from './routes-contracts.js';
import { transactionJson } from './routes-transactions.js';
import {
  blockFields,
  blockJson,
  nativeTx,
  nftMetadata,
  tokenUri,
  transferDetails,
} from './shape-evm.js';
import { icmMessageJson } from './shape-primary.js';

/**
 * A token's transfers, an NFT collection's tokens and one token, an address's deployments and a
 * contract's deployment transaction; the newest blocks, transactions and ICM messages of every
 * chain. Every route refuses query parameters it does not declare.
 */

const NETWORKS = ['mainnet', 'fuji', 'testnet'] as const;
const onNetwork = (network: (typeof NETWORKS)[number] | undefined, isTestnet: boolean) =>
  network === undefined || (network === 'mainnet') !== isTestnet;

function nftJson(
  ctx: Ctx,
  collection: string,
  t: { tokenId: string; timestamp: number; owner?: string },
) {
  const c = ctx.chain().contract(collection)!;
  if (c.ercType === 'ERC-721') {
    return {
      address: c.address,
      name: c.name,
      symbol: c.symbol ?? '',
      ercType: 'ERC-721' as const,
      tokenId: t.tokenId,
      tokenUri: tokenUri(c, t.tokenId),
      metadata: { ...nftMetadata(c, t.tokenId, t.timestamp), attributes: '[]' },
      ...(t.owner ? { ownerAddress: t.owner } : {}),
    };
  }
  return {
    address: c.address,
    ercType: 'ERC-1155' as const,
    tokenId: t.tokenId,
    tokenUri: tokenUri(c, t.tokenId),
    metadata: { ...nftMetadata(c, t.tokenId, t.timestamp), decimals: 0, properties: '{}' },
  };
}

/** The NFT collection of `:address` (ERC-721 or ERC-1155); 404 for any other address. */
function collection(ctx: Ctx): string {
  const chain = ctx.chain();
  const address = ctx.evmAddress();
  const c = chain.contract(address);
  if (!c || (c.ercType !== 'ERC-721' && c.ercType !== 'ERC-1155'))
    throw notFound(`No NFT collection found at ${address} on chain ${chain.info.chainId}`);
  return address;
}

const ICM_FILTERS = [
  'sourceBlockchainId',
  'destinationBlockchainId',
  'blockchainId',
  'to',
  'from',
  'network',
];

export const tokenRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/chains/:chainId/tokens/:address/transfers',
    handler: (ctx) => {
      const chain = ctx.chain();
      const address = ctx.evmAddress();
      ctx.only('pageToken', 'pageSize', 'startBlock', 'endBlock');
      const size = ctx.pageSize();
      const startBlock = ctx.int('startBlock', { min: 0 });
      const endBlock = ctx.int('endBlock', { min: 0 });
      if (startBlock !== undefined && endBlock !== undefined && startBlock >= endBlock)
        ctx.errors.push('startBlock must be less than endBlock');
      ctx.check();
      const items = tokenTransfers(chain, address);
      const lo =
        startBlock === undefined ? 0 : lowerBound(items, (t) => t.tx.blockNumber >= startBlock);
      const hi =
        endBlock === undefined
          ? items.length
          : lowerBound(items, (t) => t.tx.blockNumber >= endBlock);
      const filters = ['startBlock', 'endBlock'];
      const { page, next } = pageOf(items, {
        lo,
        hi,
        desc: true,
        size,
        after: ctx.cursor<[number, number]>(filters),
        key: (t) => t.key,
        cmp: cmp2,
      });
      return {
        ...ctx.nextPage(filters, next),
        transfers: page.map((t) => ({
          ...transferDetails(chain, t.transfer, t.tx.timestamp),
          ...blockFields(t.tx),
        })),
      };
    },
  },
  {
    method: 'GET',
    template: '/v1/chains/:chainId/nfts/collections/:address/tokens',
    handler: (ctx) => {
      const address = collection(ctx);
      ctx.only('pageToken', 'pageSize');
      const size = ctx.pageSize();
      ctx.check();
      const ids = collectionTokenIds(ctx.chain(), address);
      const { page, next } = pageOf(
        ids.map((t, i) => ({ t, i })),
        { desc: false, size, after: ctx.cursor<number>([]), key: (x) => x.i, cmp: cmpNum },
      );
      return { ...ctx.nextPage([], next), tokens: page.map((x) => nftJson(ctx, address, x.t)) };
    },
  },
  {
    method: 'GET',
    template: '/v1/chains/:chainId/nfts/collections/:address/tokens/:tokenId',
    handler: (ctx) => {
      const address = collection(ctx);
      ctx.only();
      ctx.check();
      const id = ctx.params.tokenId!;
      if (!/^\d{1,78}$/.test(id)) throw badRequest('tokenId must be a decimal token id');
      const t = collectionTokenIds(ctx.chain(), address).find((x) => x.tokenId === id);
      if (!t) throw notFound(`Token ${id} of ${address} not found`);
      return nftJson(ctx, address, t);
    },
  },
  {
    method: 'GET',
    template: '/v1/chains/:chainId/contracts/:address/deployments',
    handler: (ctx) => {
      const chain = ctx.chain();
      const address = ctx.evmAddress();
      ctx.only('pageToken', 'pageSize');
      const size = ctx.pageSize();
      ctx.check();
      const { page, next } = pageOf(deploymentsBy(chain, address), {
        desc: true,
        size,
        after: ctx.cursor<number>([]),
        key: (d) => d.seq,
        cmp: cmpNum,
      });
      return { ...ctx.nextPage([], next), contracts: page.map((d) => contractJson(d.contract)) };
    },
  },
  {
    method: 'GET',
    template: '/v1/chains/:chainId/contracts/:address/transactions:getDeployment',
    handler: (ctx) => {
      const chain = ctx.chain();
      const address = ctx.evmAddress();
      ctx.only('currency');
      const currency = ctx.enumOf('currency', CURRENCIES) ?? 'usd';
      ctx.check();
      const c = chain.contract(address);
      const tx = c ? chain.tx(c.deployment.txHash) : undefined;
      if (!tx)
        throw notFound(
          `No deployment transaction found for ${address} on chain ${chain.info.chainId}`,
        );
      const out = transactionJson(ctx, chain, tx) as {
        networkTokenDetails: Record<string, { currencyCode: string; value: number } | unknown>;
      };
      for (const k of ['currentPrice', 'historicalPrice']) {
        const p = out.networkTokenDetails[k] as { currencyCode: string; value: number } | undefined;
        if (p)
          out.networkTokenDetails[k] = {
            currencyCode: currency,
            value: p.value * PER_USD[currency],
          };
      }
      return out;
    },
  },
  {
    method: 'GET',
    template: '/v1/blocks',
    handler: (ctx) => {
      ctx.only('pageToken', 'pageSize', 'network');
      const size = ctx.pageSize();
      const network = ctx.enumOf('network', NETWORKS);
      ctx.check();
      const testnet = new Map(ctx.world.chains.map((c) => [c.chainId, c.isTestnet]));
      const { page, next } = pageOf(allBlocks(ctx.world), {
        desc: true,
        size,
        after: ctx.cursor<[number, number, number]>(['network']),
        key: (b) => b.key,
        cmp: cmp3,
        filter: (b) => onNetwork(network, testnet.get(b.block.chainId)!),
      });
      return { ...ctx.nextPage(['network'], next), blocks: page.map((b) => blockJson(b.block)) };
    },
  },
  {
    method: 'GET',
    template: '/v1/transactions',
    handler: (ctx) => {
      ctx.only('pageToken', 'pageSize', 'network', 'status');
      const size = ctx.pageSize();
      const network = ctx.enumOf('network', NETWORKS);
      const status = ctx.enumOf('status', ['failed', 'success'] as const);
      ctx.check();
      const want = status === undefined ? undefined : status === 'success' ? 1 : 0;
      const { page, next } = pageOf(allTransactions(ctx.world), {
        desc: true,
        size,
        after: ctx.cursor<[number, number, number]>(['network', 'status']),
        key: (t) => t.key,
        cmp: cmp3,
        filter: (t) =>
          onNetwork(network, t.chain.info.isTestnet) &&
          (want === undefined || t.tx.status === want),
      });
      return {
        ...ctx.nextPage(['network', 'status'], next),
        transactions: page.map((t) => nativeTx(t.chain, t.tx)),
      };
    },
  },
  {
    method: 'GET',
    template: '/v1/icm/messages',
    handler: (ctx) => {
      ctx.only('pageToken', 'pageSize', ...ICM_FILTERS);
      const size = ctx.pageSize();
      const network = ctx.enumOf('network', NETWORKS);
      const [from, to] = [ctx.q('from')?.toLowerCase(), ctx.q('to')?.toLowerCase()];
      for (const [k, v] of [
        ['from', from],
        ['to', to],
      ] as const)
        if (v !== undefined && !/^0x[0-9a-f]{40}$/.test(v))
          ctx.errors.push(`${k} must be an EVM address`);
      ctx.check();
      // Blockchain ids, or EVM chain ids for the source and destination filters (as the spec says).
      const [src, dst, any] = [
        ctx.q('sourceBlockchainId'),
        ctx.q('destinationBlockchainId'),
        ctx.q('blockchainId'),
      ];
      const keep = (m: IcmMessage) =>
        (network === undefined || (network === 'mainnet') === (m.network === 'mainnet')) &&
        (src === undefined || m.sourceBlockchainId === src || m.sourceEvmChainId === src) &&
        (dst === undefined ||
          m.destinationBlockchainId === dst ||
          m.destinationEvmChainId === dst) &&
        (any === undefined || m.sourceBlockchainId === any || m.destinationBlockchainId === any) &&
        (from === undefined || m.from.toLowerCase() === from) &&
        (to === undefined || m.to.toLowerCase() === to);
      const { page, next } = pageOf<IcmMessage, [number, number]>(allIcmMessages(ctx.world), {
        desc: true,
        size,
        after: ctx.cursor<[number, number]>(ICM_FILTERS),
        key: (m) => [m.timestamp, m.seq],
        cmp: cmp2,
        filter: keep,
      });
      return {
        ...ctx.nextPage(ICM_FILTERS, next),
        messages: page.map((m) => icmMessageJson(ctx.world, m)),
      };
    },
  },
];
