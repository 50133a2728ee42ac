import { z } from 'zod';
import { assetAmount, decimal, int, primaryChainInfo, uint64 } from './primary.js';
import { genesisData } from './primary-genesis.js';
import { pChainUtxo } from './primary-staking.js';

/**
 * Contracts of the Data API's primary-network routes for subnets, blockchains, UTXOs by address,
 * last activity, chain ids of addresses and the AVAX supply
 * (the Data API's OpenAPI spec, `data-api.openapi.json`: Subnet, Blockchain, ListPChainUtxosResponse /
 * ListUtxosResponse, LastActivityTimestamp, ChainAddressChainIdMapListResponse,
 * AvaxSupplyResponse). Unknown fields are dropped.
 */
const pageToken = z.string().optional();

export const blockchain = z.object({
  createBlockTimestamp: int,
  createBlockNumber: decimal,
  blockchainId: z.string(),
  vmId: z.string(),
  subnetId: z.string(),
  blockchainName: z.string(),
  /**
   * The spec declares a JSON number; it is an EVM chain id (may be present for non-EVM chains too),
   * kept as a decimal string (a chain id may exceed 2^53; the lossless parse keeps such a literal
   * exact).
   */
  evmChainId: uint64.optional(),
  genesisData: genesisData.optional(),
});
export type BlockchainRaw = z.infer<typeof blockchain>;

export const subnetOwnershipInfo = z.object({
  locktime: int,
  threshold: int,
  addresses: z.array(z.string()),
});

export const subnet = z.object({
  createBlockTimestamp: int,
  createBlockIndex: decimal,
  subnetId: z.string(),
  subnetOwnershipInfo: subnetOwnershipInfo,
  isL1: z.boolean(),
  l1ConversionTransactionHash: z.string().optional(),
  l1ValidatorManagerDetails: z
    .object({ blockchainId: z.string(), contractAddress: z.string() })
    .optional(),
  blockchains: z.array(blockchain),
});
export type SubnetRaw = z.infer<typeof subnet>;

export const listSubnetsResponse = z.object({ subnets: z.array(subnet), nextPageToken: pageToken });
export const listBlockchainsResponse = z.object({
  blockchains: z.array(blockchain),
  nextPageToken: pageToken,
});

/** The X-Chain / C-Chain UTXO shape (`Utxo`); the P-Chain answers `PChainUtxo` instead. */
export const indexedUtxo = z.object({
  addresses: z.array(z.string()),
  asset: assetAmount,
  consumedOnChainId: z.string(),
  createdOnChainId: z.string(),
  utxoId: z.string(),
  utxoBytes: z.string().optional(),
  consumingTxHash: z.string().optional(),
  consumingTxTimestamp: int.optional(),
  creationTxHash: z.string(),
  credentials: z
    .array(z.object({ signature: z.string().optional(), publicKey: z.string().optional() }))
    .optional(),
  groupId: int.optional(),
  locktime: int,
  outputIndex: z.string(),
  payload: z.string().optional(),
  threshold: int,
  timestamp: int,
  utxoType: z.string(),
});
export type IndexedUtxo = z.infer<typeof indexedUtxo>;

/**
 * The route answers a `oneOf` told apart by `chainInfo.chainName`: P-Chain UTXOs for the P-Chain,
 * the `Utxo` shape for the X-Chain and the C-Chain's atomic memory.
 */
export const listUtxosResponse = z.union([
  z.object({
    utxos: z.array(pChainUtxo),
    chainInfo: primaryChainInfo.extend({ chainName: z.literal('p-chain') }),
    nextPageToken: pageToken,
  }),
  z.object({
    utxos: z.array(indexedUtxo),
    chainInfo: primaryChainInfo.extend({ chainName: z.enum(['x-chain', 'c-chain']) }),
    nextPageToken: pageToken,
  }),
]);
export type ListUtxosResponse = z.infer<typeof listUtxosResponse>;

export const lastActivity = z.object({
  timestamp: int,
  blockNumber: decimal,
  txHash: z.string(),
  utxoId: z.string(),
  isConsumed: z.boolean(),
  chainName: z.enum(['p-chain', 'x-chain', 'c-chain']),
  network: z.enum(['mainnet', 'fuji']),
});
export type LastActivity = z.infer<typeof lastActivity>;

export const blockchainIds = z.enum([
  '11111111111111111111111111111111LpoYY',
  '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
  '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
  '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
  'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
]);
export const addressChainIds = z.object({
  addresses: z.array(z.object({ address: z.string(), blockchainIds: z.array(blockchainIds) })),
});
export type AddressChainIds = z.infer<typeof addressChainIds>['addresses'][number];

export const avaxSupply = z.object({
  circulatingSupply: decimal,
  totalSupply: decimal,
  totalPBurned: decimal,
  totalCBurned: decimal,
  totalXBurned: decimal,
  totalStaked: decimal,
  totalLocked: decimal,
  totalRewards: decimal,
  lastUpdated: z.string(),
  genesisUnlock: decimal,
  l1ValidatorFees: decimal,
});
export type AvaxSupply = z.infer<typeof avaxSupply>;
