import type { z } from 'zod';
import { dataApiBinding } from './data-api-binding.js';
import type { AddressListArgs, DataApiClient, PageArgs } from './data-api-types.js';
import { DERIVATIONS, type Derivations } from './derivations.js';
import { type HttpClient, type RequestOptions, withCall } from './http.js';
import type { Page, UpstreamRequest } from './request.js';
import { contractMetadata, getNativeBalanceResponse } from './schemas/contracts.js';
import {
  chainInfo,
  type EvmBlock,
  type EvmBlockRaw,
  evmBlock,
  listChainsResponse,
  listEvmBlocksResponse,
  listNativeTransactionsResponse,
  type NativeTransaction,
} from './schemas/evm.js';
import {
  getTransactionResponse,
  listErc20TransfersResponse,
  listErc721TransfersResponse,
  listErc1155TransfersResponse,
  listInternalTransactionsResponse,
  listTransactionDetailsResponse,
  type TransactionDetail,
  type TransactionDetails,
} from './schemas/evm-transfers.js';

export type { AddressListArgs, DataApiClient, PageArgs };

const seg = encodeURIComponent;
type Resource = UpstreamRequest<unknown>['resource'];

export function createDataApiClient(
  http: HttpClient,
  opts: RequestOptions = {},
  derivations: Derivations = DERIVATIONS,
): DataApiClient {
  const { get, page: listPage } = dataApiBinding(http, opts);

  /** One page of a list route whose items sit under `transactions`, mapped to the item shape the graph uses. */
  const page = <S extends z.ZodType<{ transactions: unknown[]; nextPageToken?: string }>, T>(
    resource: Resource,
    path: string,
    {
      pageToken,
      pageSize,
      ...query
    }: PageArgs & Record<string, string | number | undefined | null>,
    schema: S,
    map: (item: z.output<S>['transactions'][number]) => T,
  ): UpstreamRequest<Page<T>> =>
    listPage({
      resource,
      path,
      paging: { pageToken, pageSize },
      query: query as UpstreamRequest<T>['query'],
      schema,
      items: (res) => res.transactions.map(map),
    });

  const withChain = (chainId: string, b: EvmBlockRaw): EvmBlock => ({
    ...b,
    chainId: b.chainId ?? chainId,
  });
  const addressPath = (chainId: string, address: string, suffix: string) =>
    `/v1/chains/${seg(chainId)}/addresses/${seg(address)}${suffix}`;
  // List items of the transfer routes carry their block and transaction; only the chain is implied by the request.
  const inChain =
    <T extends object>(chainId: string) =>
    (item: T) => ({ ...item, chainId });
  const same = <T>(item: T) => item;
  /** An address's transfers of one token standard: `data.address<Standard>Transfers`, `:list<Standard>`. */
  const tokenTransfers =
    <S extends z.ZodType<{ transactions: object[]; nextPageToken?: string }>>(
      standard: 'Erc20' | 'Erc721' | 'Erc1155',
      schema: S,
    ) =>
    (chainId: string, address: string, args: AddressListArgs) =>
      page(
        `data.address${standard}Transfers`,
        addressPath(chainId, address, `/transactions:list${standard}`),
        { ...args },
        schema,
        inChain(chainId),
      );

  const transactionPrice = (
    chainId: string,
    txHash: string,
  ): UpstreamRequest<TransactionDetail['networkTokenDetails']> => {
    const path = `/v1/chains/${seg(chainId)}/transactions/${seg(txHash)}`;
    return {
      ...get(
        'data.transactionPrice',
        path,
        {},
        async (call) =>
          (await http.getJson(path, {}, getTransactionResponse, withCall(opts, call)))
            .networkTokenDetails,
      ),
      variant: 'price',
    };
  };
  /** A GET whose answer is reshaped (an item picked out, the chain added). */
  const read = <S extends z.ZodType, T>(
    resource: Resource,
    path: string,
    query: UpstreamRequest<T>['query'],
    schema: S,
    f: (res: z.output<S>) => T,
  ): UpstreamRequest<T> =>
    get(resource, path, query, async (call) =>
      f(await http.getJson(path, query, schema, withCall(opts, call))),
    );

  const getTransactionItem = (
    chainId: string,
    txHash: string,
  ): UpstreamRequest<NativeTransaction> => ({
    ...read(
      'data.transaction',
      `/v1/chains/${seg(chainId)}/transactions/${seg(txHash)}`,
      {},
      getTransactionResponse,
      (d) => d.nativeTransaction,
    ),
    variant: 'item',
  });
  /**
   * The plain transfers among a page's items, each as its own transaction's fields: a later
   * `transaction(hash)` for one of them is answered from here, and what its full page would add is
   * derived (nothing ran: src/upstream/derivations.ts). Any other transaction still reads its page.
   */
  const plainTransfers =
    (pick: (item: unknown) => NativeTransaction) =>
    (items: readonly unknown[]): { request: UpstreamRequest<unknown>; value: unknown }[] =>
      items
        .map(pick)
        .filter((tx) => derivations.plainTransfer(tx))
        .map((tx) => ({
          request: getTransactionItem(tx.chainId, tx.txHash.toLowerCase()),
          value: tx,
        }));
  const asTransaction = (item: unknown) => item as NativeTransaction;
  const plainOfTransactions = plainTransfers(asTransaction);
  const plainOfDetails = plainTransfers((item) => (item as TransactionDetails).nativeTransaction);

  const getBlock = (chainId: string, blockId: string): UpstreamRequest<EvmBlock> =>
    read('data.block', `/v1/chains/${seg(chainId)}/blocks/${seg(blockId)}`, {}, evmBlock, (b) =>
      withChain(chainId, b),
    );

  return {
    listChains: (network) =>
      read('data.chains', '/v1/chains', { network }, listChainsResponse, (r) => r.chains),
    getChain: (chainId) => read('data.chain', `/v1/chains/${seg(chainId)}`, {}, chainInfo, same),
    listLatestBlocks: (chainId, paging) => ({
      ...listPage({
        resource: 'data.latestBlocks',
        path: `/v1/chains/${seg(chainId)}/blocks`,
        paging,
        schema: listEvmBlocksResponse,
        items: (res) => res.blocks.map((b) => withChain(chainId, b)),
      }),
      // A listed block is the block's own answer (the two routes share one schema, `EvmBlock`), and
      // an accepted block never changes: a later read of it by number or hash is served from here.
      facts: (p) =>
        (p as Page<EvmBlock>).items.flatMap((b) => [
          { request: getBlock(chainId, b.blockNumber), value: b },
          { request: getBlock(chainId, b.blockHash.toLowerCase()), value: b },
        ]),
    }),
    getBlock,
    listBlockTransactions: (chainId, blockId, args) => ({
      ...page(
        'data.blockTransactions',
        `/v1/chains/${seg(chainId)}/blocks/${seg(blockId)}/transactions`,
        { ...args },
        listNativeTransactionsResponse,
        same,
      ),
      itemFacts: plainOfTransactions,
    }),
    listLatestTransactions: (chainId, args) => ({
      ...page(
        'data.latestTransactions',
        `/v1/chains/${seg(chainId)}/transactions`,
        { ...args },
        listNativeTransactionsResponse,
        same,
      ),
      itemFacts: plainOfTransactions,
    }),
    getTransaction(chainId, txHash) {
      const path = `/v1/chains/${seg(chainId)}/transactions/${seg(txHash)}`;
      // The same answer carries the price now: stored apart as it loads, so a cold read costs one call.
      return {
        ...read('data.transaction', path, {}, getTransactionResponse, same),
        derived: [
          {
            request: transactionPrice(chainId, txHash) as UpstreamRequest<unknown>,
            from: (d) => (d as TransactionDetail).networkTokenDetails,
          },
        ],
      };
    },
    getTransactionPrice: transactionPrice,
    getTransactionItem,
    plainTransfer: (tx) => derivations.plainTransfer(tx),
    listAddressTransactions: (chainId, address, args) => ({
      ...page(
        'data.addressTransactions',
        addressPath(chainId, address, '/transactions'),
        { ...args },
        listTransactionDetailsResponse,
        same,
      ),
      itemFacts: plainOfDetails,
    }),
    listAddressNativeTransactions: (chainId, address, args) => ({
      ...page(
        'data.addressNativeTransactions',
        addressPath(chainId, address, '/transactions:listNative'),
        { ...args },
        listNativeTransactionsResponse,
        same,
      ),
      itemFacts: plainOfTransactions,
    }),
    listAddressErc20Transfers: tokenTransfers('Erc20', listErc20TransfersResponse),
    listAddressErc721Transfers: tokenTransfers('Erc721', listErc721TransfersResponse),
    listAddressErc1155Transfers: tokenTransfers('Erc1155', listErc1155TransfersResponse),
    listAddressInternalTransactions: (chainId, address, args) =>
      page(
        'data.addressInternalTransactions',
        addressPath(chainId, address, '/transactions:listInternals'),
        { ...args },
        listInternalTransactionsResponse,
        inChain(chainId),
      ),
    getNativeBalance: (chainId, address, { blockNumber, currency }) =>
      read(
        'data.nativeBalance',
        addressPath(chainId, address, '/balances:getNative'),
        { blockNumber, currency },
        getNativeBalanceResponse,
        (r) => r.nativeTokenBalance,
      ),
    getContractMetadata: (chainId, address) =>
      read('data.contract', addressPath(chainId, address, ''), {}, contractMetadata, (c) => ({
        ...c,
        chainId,
      })),
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const DATA_API_EVM_RESOURCES = [
  'data.chains',
  'data.chain',
  'data.latestBlocks',
  'data.block',
  'data.blockTransactions',
  'data.transaction',
  'data.transactionPrice',
  'data.latestTransactions',
  'data.addressTransactions',
  'data.addressNativeTransactions',
  'data.addressErc20Transfers',
  'data.addressErc721Transfers',
  'data.addressErc1155Transfers',
  'data.addressInternalTransactions',
  'data.nativeBalance',
  'data.contract',
] as const;
