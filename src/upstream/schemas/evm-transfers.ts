import { z } from 'zod';
import { decimal, money, nativeTransaction, networkToken, richAddress } from './evm.js';

/**
 * Contracts of the Data API's token transfers, internal transactions and transaction bundles (the
 * combined address list and the get-transaction route), from the real OpenAPI spec. A transfer inside
 * a transaction carries no block fields; the same transfer in an address list does.
 */
const int = z.number().int();
const pageToken = z.string().optional();

export const NFT_METADATA_STATUSES = [
  'UNKNOWN',
  'MISSING_TOKEN',
  'INVALID_TOKEN_URI',
  'INVALID_TOKEN_URI_SCHEME',
  'UNREACHABLE_TOKEN_URI',
  'THROTTLED_TOKEN_URI',
  'METADATA_CONTENT_TOO_LARGE',
  'INVALID_METADATA',
  'INVALID_METADATA_JSON',
  'INDEXED',
  'UNINDEXED',
] as const;

export const INTERNAL_TX_TYPES = [
  'UNKNOWN',
  'CALL',
  'CREATE',
  'CREATE2',
  'CREATE3',
  'CALLCODE',
  'DELEGATECALL',
  'STATICCALL',
] as const;

export const erc20Token = z.object({
  address: z.string(),
  name: z.string(),
  symbol: z.string(),
  decimals: int,
  logoUri: z.string().optional(),
  ercType: z.literal('ERC-20'),
  price: money.optional(),
});
export type Erc20Token = z.infer<typeof erc20Token>;

const nftMetadataBase = {
  indexStatus: z.enum(NFT_METADATA_STATUSES),
  metadataLastUpdatedTimestamp: int.optional(),
  name: z.string().optional(),
  symbol: z.string().optional(),
  imageUri: z.string().optional(),
  description: z.string().optional(),
  animationUri: z.string().optional(),
  externalUrl: z.string().optional(),
  background: z.string().optional(),
};
export const erc721Metadata = z.object({ ...nftMetadataBase, attributes: z.string().optional() });
export const erc1155Metadata = z.object({
  ...nftMetadataBase,
  decimals: int.optional(),
  properties: z.string().optional(),
});
export type Erc721Metadata = z.infer<typeof erc721Metadata>;
export type Erc1155Metadata = z.infer<typeof erc1155Metadata>;

export const erc721Token = z.object({
  address: z.string(),
  name: z.string(),
  symbol: z.string(),
  ercType: z.literal('ERC-721'),
  tokenId: z.string(),
  tokenUri: z.string(),
  metadata: erc721Metadata,
  ownerAddress: z.string().optional(),
});
export type Erc721Token = z.infer<typeof erc721Token>;

export const erc1155Token = z.object({
  address: z.string(),
  ercType: z.literal('ERC-1155'),
  tokenId: z.string(),
  tokenUri: z.string(),
  metadata: erc1155Metadata,
});
export type Erc1155Token = z.infer<typeof erc1155Token>;

const parties = { from: richAddress, to: richAddress };

export const erc20TransferDetails = z.object({
  ...parties,
  logIndex: int,
  value: decimal,
  erc20Token,
});
export const erc721TransferDetails = z.object({ ...parties, logIndex: int, erc721Token });
export const erc1155TransferDetails = z.object({
  ...parties,
  logIndex: int,
  value: decimal,
  erc1155Token,
});
export const internalTransactionDetails = z.object({
  ...parties,
  internalTxType: z.enum(INTERNAL_TX_TYPES),
  value: decimal,
  isReverted: z.boolean(),
  gasUsed: decimal,
  gasLimit: decimal,
});

/** The block fields an address list's transfer items add to the in-transaction form. */
const blockFields = {
  blockNumber: decimal,
  blockTimestamp: int,
  blockTimestampMilliseconds: int.optional(),
  blockHash: z.string(),
  txHash: z.string(),
};
export const erc20Transfer = erc20TransferDetails.extend(blockFields);
export const erc721Transfer = erc721TransferDetails.extend(blockFields);
export const erc1155Transfer = erc1155TransferDetails.extend(blockFields);
export const internalTransaction = internalTransactionDetails.extend(blockFields);

/** Where a transfer or internal transaction sits; items from either form are normalized to carry it. */
export interface InTransaction {
  chainId: string;
  txHash: string;
  blockNumber: string;
  blockHash: string;
  blockTimestamp: number;
}
export type Erc20TransferItem = z.infer<typeof erc20TransferDetails> & InTransaction;
export type Erc721TransferItem = z.infer<typeof erc721TransferDetails> & InTransaction;
export type Erc1155TransferItem = z.infer<typeof erc1155TransferDetails> & InTransaction;
export type InternalTransactionItem = z.infer<typeof internalTransactionDetails> & InTransaction;

const bundle = {
  erc20Transfers: z.array(erc20TransferDetails).optional(),
  erc721Transfers: z.array(erc721TransferDetails).optional(),
  erc1155Transfers: z.array(erc1155TransferDetails).optional(),
  internalTransactions: z.array(internalTransactionDetails).optional(),
};

/** An item of the combined address list: transfers and internals only where the address is `from` or `to`. */
export const transactionDetails = z.object({ nativeTransaction, ...bundle });
export type TransactionDetails = z.infer<typeof transactionDetails>;

export const fullNativeTransaction = nativeTransaction.extend({
  input: z.string(),
  baseFeePerGas: decimal,
  maxFeePerGas: decimal.optional(),
  maxPriorityFeePerGas: decimal.optional(),
});
export type FullNativeTransaction = z.infer<typeof fullNativeTransaction>;

export const networkTokenDetails = z.object({
  networkToken,
  currentPrice: money.optional(),
  historicalPrice: money.optional(),
});

export const teleporterMessageInfo = z.object({
  teleporterMessageId: z.string(),
  direction: z.enum(['SOURCE_TRANSACTION', 'DESTINATION_TRANSACTION']),
  sourceChainId: z.string().optional(),
  destinationChainId: z.string().optional(),
});

/** The get-transaction route: the full transaction with every transfer and internal transaction. */
export const getTransactionResponse = z.object({
  nativeTransaction: fullNativeTransaction,
  networkTokenDetails,
  teleporterMessageInfo: teleporterMessageInfo.optional(),
  ...bundle,
});
export type TransactionDetail = z.infer<typeof getTransactionResponse>;

const list = <T extends z.ZodType>(item: T) =>
  z.object({ transactions: z.array(item), nextPageToken: pageToken });
export const listTransactionDetailsResponse = list(transactionDetails);
export const listErc20TransfersResponse = list(erc20Transfer);
export const listErc721TransfersResponse = list(erc721Transfer);
export const listErc1155TransfersResponse = list(erc1155Transfer);
export const listInternalTransactionsResponse = list(internalTransaction);
