import { z } from 'zod';
import { decimal, int, primaryChainInfo } from './primary.js';

/** PrimaryNetworkBlock / GetPrimaryNetworkBlockResponse of the Data API (P- and X-Chain blocks). */
export const primaryNetworkBlock = z.object({
  blockNumber: decimal,
  blockHash: z.string(),
  parentHash: z.string(),
  blockTimestamp: int,
  blockType: z.string(),
  txCount: int,
  transactions: z.array(z.string()),
  blockSizeBytes: int,
  l1ValidatorsAccruedFees: z.number().optional(),
  activeL1Validators: z.number().optional(),
  currentSupply: z.string().optional(),
  proposerDetails: z
    .object({
      proposerId: z.string().optional(),
      proposerParentId: z.string().optional(),
      proposerNodeId: z.string().optional(),
      proposerPChainHeight: z.number().optional(),
      proposerTimestamp: z.number().optional(),
    })
    .optional(),
});
export type PrimaryNetworkBlockRaw = z.infer<typeof primaryNetworkBlock>;

export const listPrimaryNetworkBlocksResponse = z.object({
  blocks: z.array(primaryNetworkBlock),
  chainInfo: primaryChainInfo,
  nextPageToken: z.string().optional(),
});

/** XChainVertex of the Data API: a vertex of the X-Chain's pre-Cortina DAG. */
export const xChainVertex = z.object({
  vertexHash: z.string(),
  parentHashes: z.array(z.string()),
  vertexHeight: int,
  vertexIndex: int,
  vertexTimestamp: int,
  txCount: int,
  transactions: z.array(z.string()),
  vertexSizeBytes: int,
});
export type XChainVertexRaw = z.infer<typeof xChainVertex>;

export const listXChainVerticesResponse = z.object({
  vertices: z.array(xChainVertex),
  chainInfo: primaryChainInfo,
  nextPageToken: z.string().optional(),
});

/** XChainAssetDetails of the Data API (getAssetDetails). */
export const xChainAssetDetails = z.object({
  assetId: z.string(),
  name: z.string(),
  symbol: z.string(),
  denomination: int,
  type: z.enum(['secp256k1', 'nft']),
  createdAtTimestamp: int,
  cap: z.enum(['fixed', 'variable']),
});
export type XChainAssetDetailsRaw = z.infer<typeof xChainAssetDetails>;
