import type { AddressListArgs, DataApiClient } from '../upstream/data-api.js';
import type { CurrencyCode, EvmBlock, NativeTransaction } from '../upstream/schemas/evm.js';
import { cachedRequests, type LoaderDeps, pageLoader, requestLoader } from './request-loader.js';

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

const listArgs = (k: AddressPageKey): AddressListArgs => ({
  pageToken: k.pageToken,
  pageSize: UPSTREAM_PAGE_SIZE.addressLists,
  startBlock: k.startBlock,
  endBlock: k.endBlock,
});

export function createEvmLoaders(deps: LoaderDeps, api: DataApiClient) {
  const blocks = requestLoader(deps, (k: BlockKey) => api.getBlock(k.chainId, k.blockId));
  // Blocks this request already holds (from a list, or read by the other of number and hash), by
  // `chainId:number` and `chainId:hash`. A list page hands over a hundred of them and most requests
  // never look one up: they are indexed at the first lookup, not when handed over.
  const held = new Map<string, EvmBlock>();
  const handed: (readonly EvmBlock[])[] = [];
  const block = {
    load(k: BlockKey): Promise<EvmBlock> {
      for (const list of handed.splice(0))
        for (const b of list) {
          held.set(`${b.chainId}:${b.blockNumber}`, b);
          held.set(`${b.chainId}:${b.blockHash.toLowerCase()}`, b);
        }
      const b = held.get(`${k.chainId}:${k.blockId}`);
      return b ? Promise.resolve(b) : blocks.load(k);
    },
  };
  return {
    chains: requestLoader(deps, () => api.listChains()),
    chain: requestLoader(deps, (chainId: string) => api.getChain(chainId)),
    latestBlocksPage: pageLoader(deps, (k: { chainId: string; pageToken: string | null }) =>
      api.listLatestBlocks(k.chainId, {
        pageToken: k.pageToken,
        pageSize: UPSTREAM_PAGE_SIZE.latestBlocks,
      }),
    ),
    block,
    blockTransactionsPage: pageLoader(deps, (k: BlockKey & { pageToken: string | null }) =>
      api.listBlockTransactions(k.chainId, k.blockId, {
        pageToken: k.pageToken,
        pageSize: UPSTREAM_PAGE_SIZE.blockTransactions,
      }),
    ),
    latestTransactionsPage: pageLoader(
      deps,
      (k: { chainId: string; pageToken: string | null; status?: 'failed' | 'success' }) =>
        api.listLatestTransactions(k.chainId, {
          pageToken: k.pageToken,
          pageSize: UPSTREAM_PAGE_SIZE.latestTransactions,
          status: k.status,
        }),
    ),
    /** The get-transaction route: the full transaction with all its transfers and internal transactions. */
    transaction: requestLoader(deps, (k: { chainId: string; txHash: string }) =>
      api.getTransaction(k.chainId, k.txHash),
    ),
    /**
     * A transaction's own fields: a list that held it as a plain transfer stored them (src/upstream/data-api.ts);
     * otherwise they are read through the full page's cache entry (one call, shared with `transaction`).
     */
    transactionItem: requestLoader(deps, (k: { chainId: string; txHash: string }) => ({
      ...api.getTransactionItem(k.chainId, k.txHash),
      run: async () => {
        const [full] = await cachedRequests(deps, [api.getTransaction(k.chainId, k.txHash)]);
        if (full instanceof Error) throw full;
        return full!.nativeTransaction;
      },
    })),
    /** Whether a listed transaction's full page adds nothing to it (src/upstream/derivations.ts). */
    plainTransfer: (tx: NativeTransaction) => api.plainTransfer(tx),
    /** The native token's prices of a transaction, read apart from it (head class: the current price moves). */
    transactionPrice: requestLoader(deps, (k: { chainId: string; txHash: string }) =>
      api.getTransactionPrice(k.chainId, k.txHash),
    ),
    addressTransactionsPage: pageLoader(
      deps,
      (k: AddressPageKey & { sortOrder?: 'asc' | 'desc' }) =>
        api.listAddressTransactions(k.chainId, k.address, {
          ...listArgs(k),
          sortOrder: k.sortOrder,
        }),
    ),
    addressNativeTransactionsPage: pageLoader(deps, (k: AddressPageKey) =>
      api.listAddressNativeTransactions(k.chainId, k.address, listArgs(k)),
    ),
    addressErc20TransfersPage: pageLoader(deps, (k: AddressPageKey) =>
      api.listAddressErc20Transfers(k.chainId, k.address, listArgs(k)),
    ),
    addressErc721TransfersPage: pageLoader(deps, (k: AddressPageKey) =>
      api.listAddressErc721Transfers(k.chainId, k.address, listArgs(k)),
    ),
    addressErc1155TransfersPage: pageLoader(deps, (k: AddressPageKey) =>
      api.listAddressErc1155Transfers(k.chainId, k.address, listArgs(k)),
    ),
    addressInternalTransactionsPage: pageLoader(deps, (k: AddressPageKey) =>
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
    /** Makes blocks already in hand (from a list) loadable by number and by hash without another call. */
    primeBlocks(list: readonly EvmBlock[]) {
      handed.push(list);
    },
  };
}

export type EvmLoaders = ReturnType<typeof createEvmLoaders>;
