import { z } from 'zod';
import { contractMetadata, nativeTokenBalance } from './contracts.js';
import { chainInfo, decimal, money } from './evm.js';
import {
  erc20Token,
  erc20Transfer,
  erc721Token,
  erc721Transfer,
  erc1155Token,
  erc1155Transfer,
} from './evm-transfers.js';

/**
 * Contracts of the Data API's portfolio and token routes (balances, an address's chains, a token's
 * transfers, an NFT collection's tokens, deployments), from the real OpenAPI spec. Lists keep their
 * item shape and are normalized to `Page<T>` by the client.
 */
const pageToken = z.string().optional();

export const TOKEN_REPUTATIONS = ['Malicious', 'Benign'] as const;

export const erc20TokenBalance = erc20Token.extend({
  chainId: z.string(),
  balance: decimal,
  balanceValue: money.optional(),
  // Required but nullable: only populated on the C-Chain.
  tokenReputation: z.enum(TOKEN_REPUTATIONS).nullable(),
});
export type Erc20TokenBalance = z.infer<typeof erc20TokenBalance>;

/** The transfers' ERC-721 token, with the chain it is held on. */
export const erc721TokenBalance = erc721Token.extend({ chainId: z.string() });
export type Erc721TokenBalance = z.infer<typeof erc721TokenBalance>;

export const erc1155TokenBalance = erc1155Token.extend({ chainId: z.string(), balance: decimal });
export type Erc1155TokenBalance = z.infer<typeof erc1155TokenBalance>;

export const collectibleBalance = z.discriminatedUnion('ercType', [
  erc721TokenBalance,
  erc1155TokenBalance,
]);
export type CollectibleBalance = z.infer<typeof collectibleBalance>;

export const listErc20BalancesResponse = z.object({
  nextPageToken: pageToken,
  nativeTokenBalance,
  erc20TokenBalances: z.array(erc20TokenBalance),
});
export const listErc721BalancesResponse = z.object({
  nextPageToken: pageToken,
  nativeTokenBalance,
  erc721TokenBalances: z.array(erc721TokenBalance),
});
export const listErc1155BalancesResponse = z.object({
  nextPageToken: pageToken,
  nativeTokenBalance,
  erc1155TokenBalances: z.array(erc1155TokenBalance),
});
export const listCollectibleBalancesResponse = z.object({
  nextPageToken: pageToken,
  collectibleBalances: z.array(collectibleBalance),
});

export const listAddressChainsResponse = z.object({
  indexedChains: z.array(chainInfo).optional(),
  unindexedChains: z.array(z.string()).optional(),
});
export type AddressChains = {
  indexedChains: z.infer<typeof chainInfo>[];
  unindexedChains: string[];
};

export const nftToken = z.discriminatedUnion('ercType', [erc721Token, erc1155Token]);
export type NftToken = z.infer<typeof nftToken>;
export const listNftTokensResponse = z.object({
  nextPageToken: pageToken,
  tokens: z.array(nftToken),
});

export const tokenTransfer = z.union([erc20Transfer, erc721Transfer, erc1155Transfer]);
/** A transfer as the list carries it, plus the chain its request named. */
export type TokenTransfer = z.infer<typeof tokenTransfer> & { chainId: string };
export const listTransfersResponse = z.object({
  nextPageToken: pageToken,
  transfers: z.array(tokenTransfer),
});

export const listContractsResponse = z.object({
  nextPageToken: pageToken,
  contracts: z.array(contractMetadata),
});
