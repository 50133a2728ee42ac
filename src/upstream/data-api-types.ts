import type { Page, UpstreamRequest } from './request.js';
import type { ContractMetadata, NativeTokenBalance } from './schemas/contracts.js';
import type { ChainInfo, CurrencyCode, EvmBlock, NativeTransaction } from './schemas/evm.js';
import type {
  Erc20TransferItem,
  Erc721TransferItem,
  Erc1155TransferItem,
  InternalTransactionItem,
  TransactionDetail,
  TransactionDetails,
} from './schemas/evm-transfers.js';

/** An address list route: one page, within a block range. */
export type AddressList<T> = (
  chainId: string,
  address: string,
  page: AddressListArgs,
) => UpstreamRequest<Page<T>>;

/**
 * The Data API (a.k.a. Glacier): real paths from its OpenAPI spec (`data-api.openapi.json`). Each method describes
 * one upstream call; nothing here knows about GraphQL or the cache. Lists are normalized to `Page<T>`.
 */
export interface DataApiClient {
  listChains(network?: 'mainnet' | 'fuji' | 'testnet'): UpstreamRequest<ChainInfo[]>;
  getChain(chainId: string): UpstreamRequest<ChainInfo>;
  listLatestBlocks(chainId: string, page: PageArgs): UpstreamRequest<Page<EvmBlock>>;
  getBlock(chainId: string, blockId: string): UpstreamRequest<EvmBlock>;
  listBlockTransactions(
    chainId: string,
    blockId: string,
    page: PageArgs,
  ): UpstreamRequest<Page<NativeTransaction>>;
  listLatestTransactions(
    chainId: string,
    page: PageArgs & { status?: 'failed' | 'success' },
  ): UpstreamRequest<Page<NativeTransaction>>;
  getTransaction(chainId: string, txHash: string): UpstreamRequest<TransactionDetail>;
  /**
   * The same route read for the transaction's own fields only (`nativeTransaction`): cached apart, so a
   * list that held a plain transfer can answer it (its list item is the transaction, see `plainTransfer`).
   */
  getTransactionItem(chainId: string, txHash: string): UpstreamRequest<NativeTransaction>;
  /** Whether a listed transaction's full page adds nothing to its list item (src/upstream/derivations.ts). */
  plainTransfer(tx: NativeTransaction): boolean;
  /** The same call, for the native token's price now: cached apart, as head data (see the cache policy). */
  getTransactionPrice(
    chainId: string,
    txHash: string,
  ): UpstreamRequest<TransactionDetail['networkTokenDetails']>;
  /** The combined list: each item is the native transaction plus the transfers and internals the address is in. */
  listAddressTransactions(
    chainId: string,
    address: string,
    page: AddressListArgs & { sortOrder?: 'asc' | 'desc' },
  ): UpstreamRequest<Page<TransactionDetails>>;
  listAddressNativeTransactions: AddressList<NativeTransaction>;
  listAddressErc20Transfers: AddressList<Erc20TransferItem>;
  listAddressErc721Transfers: AddressList<Erc721TransferItem>;
  listAddressErc1155Transfers: AddressList<Erc1155TransferItem>;
  listAddressInternalTransactions: AddressList<InternalTransactionItem>;
  getNativeBalance(
    chainId: string,
    address: string,
    o: { blockNumber?: string; currency?: CurrencyCode },
  ): UpstreamRequest<NativeTokenBalance>;
  getContractMetadata(chainId: string, address: string): UpstreamRequest<ContractMetadata>;
}

export interface PageArgs {
  pageToken: string | null;
  pageSize: number;
}

/** Address lists take a block range: startBlock inclusive, endBlock exclusive. */
export interface AddressListArgs extends PageArgs {
  startBlock?: number;
  endBlock?: number;
}
