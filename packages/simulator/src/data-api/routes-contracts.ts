import type { ContractInfo } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { badRequest, notFound } from './errors.js';
import type { Route } from './router.js';

/** Native balance (with a price in the asked currency) and contract metadata. */

import { CURRENCY_CODES as CURRENCIES, type CurrencyCode as Currency } from '../spec.js';

export { CURRENCIES, type Currency };

/** Units of each currency per USD (fixed: the simulator has no price feed). */
export const PER_USD: Record<Currency, number> = {
  usd: 1,
  eur: 0.92,
  aud: 1.52,
  cad: 1.37,
  chf: 0.88,
  clp: 940,
  cny: 7.2,
  czk: 23,
  dkk: 6.9,
  gbp: 0.79,
  hkd: 7.8,
  huf: 360,
  jpy: 150,
  nzd: 1.66,
};

export function contractJson(c: ContractInfo) {
  const common = {
    name: c.name,
    description: c.description,
    ...(c.officialSite ? { officialSite: c.officialSite } : {}),
    logoAsset: { imageUri: c.logoUri },
    ...(c.color ? { color: c.color } : {}),
    resourceLinks: c.officialSite ? [{ type: 'Website' as const, url: c.officialSite }] : [],
    tags: [...c.tags],
    address: c.address,
    deploymentDetails: {
      txHash: c.deployment.txHash,
      deployerAddress: c.deployment.deployerAddress,
    },
    ercType: c.ercType,
  };
  const pricing = c.coingeckoCoinId
    ? { pricingProviders: { coingeckoCoinId: c.coingeckoCoinId } }
    : {};
  switch (c.ercType) {
    case 'ERC-20':
      return { ...common, symbol: c.symbol, decimals: c.decimals ?? 18, ...pricing };
    case 'ERC-721':
      return { ...common, symbol: c.symbol };
    case 'ERC-1155':
      return { ...common, symbol: c.symbol, ...pricing };
    default:
      return common;
  }
}

export const contractRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: '/v1/chains/:chainId/addresses/:address/balances:getNative',
    handler: (ctx) => {
      const chain = ctx.chain();
      const address = ctx.evmAddress();
      const currency = ctx.enumOf('currency', CURRENCIES) ?? 'usd';
      const rawBlock = ctx.q('blockNumber');
      if (rawBlock !== undefined && !/^\d+$/.test(rawBlock))
        ctx.errors.push('blockNumber must be a decimal block number');
      ctx.check();
      const head = chain.head().number;
      const at = rawBlock === undefined ? head : Number(rawBlock);
      if (at > head)
        throw badRequest(`blockNumber ${at} is after the latest indexed block ${head}`);
      const balance = chain.nativeBalance(address, at);
      const token = chain.info.networkToken;
      const priced = token.symbol === 'AVAX';
      const unit = ctx.world.market.avaxUsd * PER_USD[currency];
      const whole = Number(balance / 10n ** 12n) / 1e6; // balance in AVAX, 6 decimals of precision
      return {
        nativeTokenBalance: {
          name: token.name,
          symbol: token.symbol,
          decimals: token.decimals,
          logoUri: token.logoUri,
          chainId: chain.info.chainId,
          ...(priced ? { price: { currencyCode: currency, value: unit } } : {}),
          balance: balance.toString(),
          ...(priced
            ? {
                balanceValue: {
                  currencyCode: currency,
                  value: Math.round(whole * unit * 100) / 100,
                },
              }
            : {}),
        },
      };
    },
  },
  {
    method: 'GET',
    template: '/v1/chains/:chainId/addresses/:address',
    handler: (ctx) => {
      const chain = ctx.chain();
      const address = ctx.evmAddress();
      const c = chain.contract(address);
      if (!c) throw notFound(`No contract found at ${address} on chain ${chain.info.chainId}`);
      return contractJson(c);
    },
  },
];
