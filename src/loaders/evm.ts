import type DataLoader from 'dataloader';
import type { AddressListArgs, DataApiClient } from '../upstream/data-api.js';
import type { Page } from '../upstream/request.js';
import type { ContractMetadata, NativeTokenBalance } from '../upstream/schemas/contracts.js';
import type {
  ChainInfo,
  CurrencyCode,
  EvmBlock,
  NativeTransaction,
} from '../upstream/schemas/evm.js';
import type {
  Erc20TransferItem,
  Erc721TransferItem,
  Erc1155TransferItem,
  InternalTransactionItem,
  TransactionDetail,
  TransactionDetails,
} from '../upstream/schemas/evm-transfers.js';
import { type LoaderDeps, requestLoader } from './request-loader.js';

/**
 * Upstream pages are always fetched at one fixed size per route — the largest the route allows, since
 * the upstream charges per call, not per item — so clients asking different `first` values share pages.
 */
export const UPSTREAM_PAGE_SIZE = {
  latestBlocks: 100,
  blockTransactions: 100,
  latestTransactions: 100,
  addressLists: 100,
} as const;

export interface BlockKey {
  chainId: string;
  /** A decimal block number or a 0x block hash. */
  blockId: string;
}

export interface AddressKey {
  chainId: string;
  /** Lower-case hex. */
  address: string;
}

/** One page of an address list: its block range (startBlock inclusive, endBlock exclusive) is part of the list's identity. */
export interface AddressPageKey extends AddressKey {
  pageToken: string | null;
  startBlock?: number;
  endBlock?: number;
}

export interface EvmLoaders {
  chains: DataLoader<'all', ChainInfo[], string>;
  chain: DataLoader<string, ChainInfo, string>;
  latestBlocksPage: DataLoader<
    { chainId: string; pageToken: string | null },
    Page<EvmBlock>,
    string
  >;
  block: DataLoader<BlockKey, EvmBlock, string>;
  blockTransactionsPage: DataLoader<
    BlockKey & { pageToken: string | null },
    Page<NativeTransaction>,
    string
  >;
  latestTransactionsPage: DataLoader<
    { chainId: string; pageToken: string | null; status?: 'failed' | 'success' },
    Page<NativeTransaction>,
    string
  >;
  /** The get-transaction route: the full transaction with all its transfers and internal transactions. */
  transaction: DataLoader<{ chainId: string; txHash: string }, TransactionDetail, string>;
  /** The native token's prices of a transaction, read apart from it (head class: the current price moves). */
  transactionPrice: DataLoader<
    { chainId: string; txHash: string },
    TransactionDetail['networkTokenDetails'],
    string
  >;
  addressTransactionsPage: DataLoader<
    AddressPageKey & { sortOrder?: 'asc' | 'desc' },
    Page<TransactionDetails>,
    string
  >;
  addressNativeTransactionsPage: DataLoader<AddressPageKey, Page<NativeTransaction>, string>;
  addressErc20TransfersPage: DataLoader<AddressPageKey, Page<Erc20TransferItem>, string>;
  addressErc721TransfersPage: DataLoader<AddressPageKey, Page<Erc721TransferItem>, string>;
  addressErc1155TransfersPage: DataLoader<AddressPageKey, Page<Erc1155TransferItem>, string>;
  addressInternalTransactionsPage: DataLoader<
    AddressPageKey,
    Page<InternalTransactionItem>,
    string
  >;
  nativeBalance: DataLoader<
    AddressKey & { blockNumber?: string; currency?: CurrencyCode },
    NativeTokenBalance,
    string
  >;
  contract: DataLoader<AddressKey, ContractMetadata, string>;
  /** Makes blocks already in hand (from a list) loadable by number and by hash without another call. */
  primeBlocks(blocks: readonly EvmBlock[]): void;
}

const listArgs = (k: AddressPageKey): AddressListArgs => ({
  pageToken: k.pageToken,
  pageSize: UPSTREAM_PAGE_SIZE.addressLists,
  startBlock: k.startBlock,
  endBlock: k.endBlock,
});

export function createEvmLoaders(deps: LoaderDeps, api: DataApiClient): EvmLoaders {
  const block = requestLoader(deps, (k: BlockKey) => api.getBlock(k.chainId, k.blockId));
  return {
    chains: requestLoader(deps, () => api.listChains()),
    chain: requestLoader(deps, (chainId: string) => api.getChain(chainId)),
    latestBlocksPage: requestLoader(deps, (k: { chainId: string; pageToken: string | null }) =>
      api.listLatestBlocks(k.chainId, {
        pageToken: k.pageToken,
        pageSize: UPSTREAM_PAGE_SIZE.latestBlocks,
      }),
    ),
    block,
    blockTransactionsPage: requestLoader(deps, (k: BlockKey & { pageToken: string | null }) =>
      api.listBlockTransactions(k.chainId, k.blockId, {
        pageToken: k.pageToken,
        pageSize: UPSTREAM_PAGE_SIZE.blockTransactions,
      }),
    ),
    latestTransactionsPage: requestLoader(
      deps,
      (k: { chainId: string; pageToken: string | null; status?: 'failed' | 'success' }) =>
        api.listLatestTransactions(k.chainId, {
          pageToken: k.pageToken,
          pageSize: UPSTREAM_PAGE_SIZE.latestTransactions,
          status: k.status,
        }),
    ),
    transaction: requestLoader(deps, (k: { chainId: string; txHash: string }) =>
      api.getTransaction(k.chainId, k.txHash),
    ),
    transactionPrice: requestLoader(deps, (k: { chainId: string; txHash: string }) =>
      api.getTransactionPrice(k.chainId, k.txHash),
    ),
    addressTransactionsPage: requestLoader(
      deps,
      (k: AddressPageKey & { sortOrder?: 'asc' | 'desc' }) =>
        api.listAddressTransactions(k.chainId, k.address, {
          ...listArgs(k),
          sortOrder: k.sortOrder,
        }),
    ),
    addressNativeTransactionsPage: requestLoader(deps, (k: AddressPageKey) =>
      api.listAddressNativeTransactions(k.chainId, k.address, listArgs(k)),
    ),
    addressErc20TransfersPage: requestLoader(deps, (k: AddressPageKey) =>
      api.listAddressErc20Transfers(k.chainId, k.address, listArgs(k)),
    ),
    addressErc721TransfersPage: requestLoader(deps, (k: AddressPageKey) =>
      api.listAddressErc721Transfers(k.chainId, k.address, listArgs(k)),
    ),
    addressErc1155TransfersPage: requestLoader(deps, (k: AddressPageKey) =>
      api.listAddressErc1155Transfers(k.chainId, k.address, listArgs(k)),
    ),
    addressInternalTransactionsPage: requestLoader(deps, (k: AddressPageKey) =>
      api.listAddressInternalTransactions(k.chainId, k.address, listArgs(k)),
    ),
    nativeBalance: requestLoader(
      deps,
      (k: AddressKey & { blockNumber?: string; currency?: CurrencyCode }) =>
        api.getNativeBalance(k.chainId, k.address, {
          blockNumber: k.blockNumber,
          currency: k.currency,
        }),
    ),
    contract: requestLoader(deps, (k: AddressKey) => api.getContractMetadata(k.chainId, k.address)),
    primeBlocks(blocks) {
      for (const b of blocks) {
        block.prime({ chainId: b.chainId, blockId: b.blockNumber }, b);
        block.prime({ chainId: b.chainId, blockId: b.blockHash.toLowerCase() }, b);
      }
    },
  };
}
