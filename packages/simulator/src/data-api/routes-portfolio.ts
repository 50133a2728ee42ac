import type { ContractInfo, EvmChainData } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { badRequest } from './errors.js';
import { collectionTokenIds, erc721Owners, erc1155Balances } from './holdings.js';
import { pageOf } from './paging.js';
import type { Route } from './router.js';
import { chainInfoJson } from './routes-chains.js';
import { CURRENCIES, type Currency, PER_USD } from './routes-contracts.js';
import { nftMetadata, tokenUri } from './shape-evm.js';

/**
 * An address's token balances (ERC-20, ERC-721, ERC-1155, collectibles) and the chains it is active
 * on.
 */

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Lists are ordered by contract, then token id (ids padded so they sort as numbers). */
const nftKey = (token: string, tokenId: string) =>
  `${token.toLowerCase()}:${tokenId.padStart(80, '0')}`;

function contractFilter(ctx: Ctx, name: string): string[] | undefined {
  const list = ctx.list(name);
  if (list.length === 0) return undefined;
  for (const a of list)
    if (!HEX_ADDRESS.test(a)) ctx.errors.push(`${name} must contain only EVM addresses`);
  return list.map((a) => a.toLowerCase());
}

/** `blockNumber` (decimal, at most the head) or the head. */
function atBlock(ctx: Ctx, chain: EvmChainData): number {
  const raw = ctx.q('blockNumber');
  if (raw !== undefined && !/^\d+$/.test(raw))
    ctx.errors.push('blockNumber must be a decimal block number');
  ctx.check();
  const head = chain.head().number;
  const at = raw === undefined ? head : Number(raw);
  if (at > head) throw badRequest(`blockNumber ${at} is after the latest indexed block ${head}`);
  return at;
}

function nativeBalanceJson(
  ctx: Ctx,
  chain: EvmChainData,
  address: string,
  at: number,
  currency: Currency,
) {
  const token = chain.info.networkToken;
  const balance = chain.nativeBalance(address, at);
  const priced = token.symbol === 'AVAX';
  const unit = ctx.world.market.avaxUsd * PER_USD[currency];
  const whole = Number(balance / 10n ** 12n) / 1e6;
  return {
    name: token.name,
    symbol: token.symbol,
    decimals: token.decimals,
    logoUri: token.logoUri,
    chainId: chain.info.chainId,
    ...(priced ? { price: { currencyCode: currency, value: unit } } : {}),
    balance: balance.toString(),
    ...(priced
      ? { balanceValue: { currencyCode: currency, value: Math.round(whole * unit * 100) / 100 } }
      : {}),
  };
}

/**
 * An unpriced token is what the indexer's security analysis flags. The spec's enum for this
 * required, "nullable" field holds no null (its description says null when unknown; the gateway
 * accepts both), so the simulator always answers a value.
 */
const reputation = (_chain: EvmChainData, c: ContractInfo) =>
  c.priceUsd === undefined ? 'Malicious' : 'Benign';

function erc721BalanceJson(
  chain: EvmChainData,
  c: ContractInfo,
  tokenId: string,
  owner: string,
  ts: number,
) {
  return {
    address: c.address,
    name: c.name,
    symbol: c.symbol ?? '',
    ercType: 'ERC-721' as const,
    tokenId,
    tokenUri: tokenUri(c, tokenId),
    metadata: { ...nftMetadata(c, tokenId, ts), attributes: '[]' },
    ownerAddress: owner,
    chainId: chain.info.chainId,
  };
}

function erc1155BalanceJson(
  chain: EvmChainData,
  c: ContractInfo,
  tokenId: string,
  balance: bigint,
  ts: number,
) {
  return {
    address: c.address,
    ercType: 'ERC-1155' as const,
    tokenId,
    tokenUri: tokenUri(c, tokenId),
    metadata: { ...nftMetadata(c, tokenId, ts), decimals: 0, properties: '{}' },
    chainId: chain.info.chainId,
    balance: balance.toString(),
  };
}

/** An address's NFTs: ERC-721 it owns and ERC-1155 it holds, as keyed list items. */
function nfts(
  chain: EvmChainData,
  address: string,
  at: number,
  kinds: { erc721: boolean; erc1155: boolean },
) {
  const key = address.toLowerCase();
  const out: { key: string; json: unknown; contract: string }[] = [];
  if (kinds.erc721) {
    for (const h of erc721Owners(chain).values()) {
      if (h.owner.toLowerCase() !== key) continue;
      out.push({
        key: nftKey(h.token.address, h.tokenId),
        contract: h.token.address.toLowerCase(),
        json: erc721BalanceJson(chain, h.token, h.tokenId, h.owner, h.timestamp),
      });
    }
  }
  if (kinds.erc1155) {
    for (const b of erc1155Balances(chain, key, at).values()) {
      const c = chain.contract(b.token);
      if (!c) continue;
      const ts =
        collectionTokenIds(chain, c.address).find((t) => t.tokenId === b.tokenId)?.timestamp ?? 0;
      out.push({
        key: nftKey(c.address, b.tokenId),
        contract: c.address.toLowerCase(),
        json: erc1155BalanceJson(chain, c, b.tokenId, b.balance, ts),
      });
    }
  }
  return out.sort((a, b) => cmpStr(a.key, b.key));
}

function nftRoute(
  template: string,
  listName: string,
  kinds: { erc721: boolean; erc1155: boolean },
  o: { blockNumber: boolean; native: boolean },
): Route<Ctx> {
  const filters = o.blockNumber ? ['blockNumber', 'contractAddress'] : ['contractAddress'];
  return {
    method: 'GET',
    template,
    handler: (ctx) => {
      const chain = ctx.chain();
      const address = ctx.evmAddress();
      ctx.only('pageToken', 'pageSize', ...filters);
      const size = ctx.pageSize(1, 500);
      const only = contractFilter(ctx, 'contractAddress');
      if (!o.blockNumber) ctx.check();
      const at = o.blockNumber ? atBlock(ctx, chain) : chain.head().number;
      const items = nfts(chain, address, at, kinds).filter(
        (x) => !only || only.includes(x.contract),
      );
      const { page, next } = pageOf(items, {
        desc: false,
        size,
        after: ctx.cursor<string>(filters),
        key: (x) => x.key,
        cmp: cmpStr,
      });
      return {
        ...ctx.nextPage(filters, next),
        ...(o.native
          ? { nativeTokenBalance: nativeBalanceJson(ctx, chain, address, at, 'usd') }
          : {}),
        [listName]: page.map((x) => x.json),
      };
    },
  };
}

const ERC20_FILTERS = ['blockNumber', 'filterSpamTokens', 'contractAddresses', 'currency'];

export const portfolioRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/chains/:chainId/addresses/:address/balances:listErc20',
    handler: (ctx) => {
      const chain = ctx.chain();
      const address = ctx.evmAddress();
      ctx.only('pageToken', 'pageSize', ...ERC20_FILTERS);
      const size = ctx.pageSize(1, 500);
      const filterSpam = ctx.bool('filterSpamTokens') ?? true;
      const only = contractFilter(ctx, 'contractAddresses');
      const currency = ctx.enumOf('currency', CURRENCIES) ?? 'usd';
      const at = atBlock(ctx, chain);
      const rate = PER_USD[currency];
      const items = [...chain.erc20Balances(address, at)]
        .map(([token, balance]) => ({ token, balance, c: chain.contract(token)! }))
        .filter(
          (x) =>
            x.c &&
            (!only || only.includes(x.token)) &&
            !(filterSpam && reputation(chain, x.c) === 'Malicious'),
        )
        .sort((a, b) => cmpStr(a.token, b.token));
      const { page, next } = pageOf(items, {
        desc: false,
        size,
        after: ctx.cursor<string>(ERC20_FILTERS),
        key: (x) => x.token,
        cmp: cmpStr,
      });
      return {
        ...ctx.nextPage(ERC20_FILTERS, next),
        nativeTokenBalance: nativeBalanceJson(ctx, chain, address, at, currency),
        erc20TokenBalances: page.map(({ c, balance }) => {
          const decimals = c.decimals ?? 18;
          const price = c.priceUsd === undefined ? undefined : c.priceUsd * rate;
          const whole =
            Number(balance / 10n ** BigInt(Math.max(decimals - 6, 0))) /
            10 ** Math.min(decimals, 6);
          return {
            address: c.address,
            name: c.name,
            symbol: c.symbol ?? '',
            decimals,
            logoUri: c.logoUri,
            ercType: 'ERC-20' as const,
            ...(price === undefined ? {} : { price: { currencyCode: currency, value: price } }),
            chainId: chain.info.chainId,
            balance: balance.toString(),
            ...(price === undefined
              ? {}
              : {
                  balanceValue: {
                    currencyCode: currency,
                    value: Math.round(whole * price * 100) / 100,
                  },
                }),
            tokenReputation: reputation(chain, c),
          };
        }),
      };
    },
  },
  nftRoute(
    '/v1/chains/:chainId/addresses/:address/balances:listErc721',
    'erc721TokenBalances',
    { erc721: true, erc1155: false },
    { blockNumber: false, native: true },
  ),
  nftRoute(
    '/v1/chains/:chainId/addresses/:address/balances:listErc1155',
    'erc1155TokenBalances',
    { erc721: false, erc1155: true },
    { blockNumber: true, native: true },
  ),
  nftRoute(
    '/v1/chains/:chainId/addresses/:address/balances:listCollectibles',
    'collectibleBalances',
    { erc721: true, erc1155: true },
    { blockNumber: false, native: false },
  ),
  {
    method: 'GET',
    template: '/v1/address/:address/chains',
    handler: (ctx) => {
      const address = ctx.evmAddress();
      ctx.only();
      ctx.check();
      const indexed = ctx.world.chains.filter(
        (c) => ctx.world.chain(c.chainId)!.activity(address) !== undefined,
      );
      return { indexedChains: indexed.map(chainInfoJson), unindexedChains: [] };
    },
  },
];
