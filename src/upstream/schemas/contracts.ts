import { z } from 'zod';
import { decimal, money } from './evm.js';

/**
 * Contracts of the Data API's contract metadata (a union on `ercType`) and native balance routes,
 * from the real OpenAPI spec.
 */
export const RESOURCE_LINK_TYPES = [
  'Blog',
  'CoinGecko',
  'CoinMarketCap',
  'Discord',
  'Documentation',
  'Facebook',
  'Github',
  'Instagram',
  'LinkedIn',
  'Medium',
  'Reddit',
  'Support',
  'Telegram',
  'TikTok',
  'Twitter',
  'Website',
  'Whitepaper',
  'Youtube',
] as const;

export const imageAsset = z.object({
  assetId: z.string().optional(),
  imageUri: z.string().optional(),
});
export type ImageAsset = z.infer<typeof imageAsset>;

export const resourceLink = z.object({ type: z.enum(RESOURCE_LINK_TYPES), url: z.string() });

export const deploymentDetails = z.object({
  txHash: z.string(),
  deployerAddress: z.string(),
  deployerContractAddress: z.string().optional(),
});
export type DeploymentDetails = z.infer<typeof deploymentDetails>;

const pricingProviders = z.object({ coingeckoCoinId: z.string().optional() });

const contractBase = {
  name: z.string().optional(),
  description: z.string().optional(),
  officialSite: z.string().optional(),
  email: z.string().optional(),
  logoAsset: imageAsset.optional(),
  bannerAsset: imageAsset.optional(),
  color: z.string().optional(),
  resourceLinks: z.array(resourceLink).optional(),
  tags: z.array(z.string()).optional(),
  address: z.string(),
  deploymentDetails: deploymentDetails.optional(),
};

export const erc20Contract = z.object({
  ...contractBase,
  ercType: z.literal('ERC-20'),
  symbol: z.string().optional(),
  decimals: z.number().int(),
  pricingProviders: pricingProviders.optional(),
});
export const erc721Contract = z.object({
  ...contractBase,
  ercType: z.literal('ERC-721'),
  symbol: z.string().optional(),
});
export const erc1155Contract = z.object({
  ...contractBase,
  ercType: z.literal('ERC-1155'),
  symbol: z.string().optional(),
  pricingProviders: pricingProviders.optional(),
});
export const unknownContract = z.object({ ...contractBase, ercType: z.literal('UNKNOWN') });

export const contractMetadata = z.discriminatedUnion('ercType', [
  erc20Contract,
  erc721Contract,
  erc1155Contract,
  unknownContract,
]);
export type ContractMetadataRaw = z.infer<typeof contractMetadata>;
/** Contract metadata with the chain it was read on (the upstream answer does not name it). */
export type ContractMetadata = ContractMetadataRaw & { chainId: string };

export const nativeTokenBalance = z.object({
  name: z.string(),
  symbol: z.string(),
  decimals: z.number().int(),
  logoUri: z.string().optional(),
  chainId: z.string(),
  price: money.optional(),
  balance: decimal,
  balanceValue: money.optional(),
});
export type NativeTokenBalance = z.infer<typeof nativeTokenBalance>;

export const getNativeBalanceResponse = z.object({ nativeTokenBalance });
