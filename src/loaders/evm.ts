import type DataLoader from 'dataloader';
import type { DataApiClient } from '../upstream/data-api.js';
import type { Page } from '../upstream/request.js';
import type { ChainInfo, EvmBlock, NativeTransaction, TransactionDetail } from '../upstream/schemas/evm.js';
import { requestLoader, type LoaderDeps } from './request-loader.js';

/**
 * Upstream pages are always fetched at one fixed size per route — the largest the route allows, since
 * the upstream charges per call, not per item — so clients asking different `first` values share pages.
 */
export const UPSTREAM_PAGE_SIZE = {
  latestBlocks: 100,
  blockTransactions: 100,
} as const;

export interface BlockKey {
  chainId: string;
  /** A decimal block number or a 0x block hash. */
  blockId: string;
}

export interface EvmLoaders {
  chains: DataLoader<'all', ChainInfo[], string>;
  chain: DataLoader<string, ChainInfo, string>;
  latestBlocksPage: DataLoader<{ chainId: string; pageToken: string | null }, Page<EvmBlock>, string>;
  block: DataLoader<BlockKey, EvmBlock, string>;
  blockTransactionsPage: DataLoader<BlockKey & { pageToken: string | null }, Page<NativeTransaction>, string>;
  transaction: DataLoader<{ chainId: string; txHash: string }, TransactionDetail, string>;
  /** Makes blocks already in hand (from a list) loadable by number and by hash without another call. */
  primeBlocks(blocks: readonly EvmBlock[]): void;
}

export function createEvmLoaders(deps: LoaderDeps, api: DataApiClient): EvmLoaders {
  const block = requestLoader(deps, (k: BlockKey) => api.getBlock(k.chainId, k.blockId));
  return {
    chains: requestLoader(deps, () => api.listChains()),
    chain: requestLoader(deps, (chainId: string) => api.getChain(chainId)),
    latestBlocksPage: requestLoader(deps, (k: { chainId: string; pageToken: string | null }) =>
      api.listLatestBlocks(k.chainId, { pageToken: k.pageToken, pageSize: UPSTREAM_PAGE_SIZE.latestBlocks }),
    ),
    block,
    blockTransactionsPage: requestLoader(deps, (k: BlockKey & { pageToken: string | null }) =>
      api.listBlockTransactions(k.chainId, k.blockId, { pageToken: k.pageToken, pageSize: UPSTREAM_PAGE_SIZE.blockTransactions }),
    ),
    transaction: requestLoader(deps, (k: { chainId: string; txHash: string }) => api.getTransaction(k.chainId, k.txHash)),
    primeBlocks(blocks) {
      for (const b of blocks) {
        block.prime({ chainId: b.chainId, blockId: b.blockNumber }, b);
        block.prime({ chainId: b.chainId, blockId: b.blockHash.toLowerCase() }, b);
      }
    },
  };
}
