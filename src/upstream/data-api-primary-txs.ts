import type { z } from 'zod';
import type { PageArgs } from './data-api.js';
import { dataApiBinding } from './data-api-binding.js';
import type { SortOrder } from './data-api-primary.js';
import type { HttpClient, RequestOptions } from './http.js';
import type { Page, UpstreamRequest } from './request.js';
import type { NetworkName, PrimaryChainInfo } from './schemas/primary.js';
import {
  type CChainAtomicTxRaw,
  cChainAtomicTransaction,
  listCChainAtomicTransactionsResponse,
  listXChainTransactionsResponse,
  type XChainTxRaw,
  xChainTransaction,
} from './schemas/primary-atomic.js';
import type { PrimaryNetworkTxType } from './schemas/primary-staking.js';

/**
 * X-Chain and C-Chain (atomic) transactions of the Data API's primary-network routes: the list and the
 * by-hash route answer a `oneOf` over the three chains, and the chain in the path decides which member
 * comes back (real paths, from the Data API's OpenAPI spec). Also an X-Chain asset's transactions
 * (listAssetTransactions). The P-Chain member lives with the staking routes (data-api-primary.ts).
 */
export type AtomicChain = 'x-chain' | 'c-chain';

export interface AtomicTxFilter {
  /** Bech32 X/C addresses, sent comma-separated as the real API wants them. */
  addresses?: readonly string[];
  txTypes?: readonly PrimaryNetworkTxType[];
  startTimestamp?: number;
  endTimestamp?: number;
  sortOrder?: SortOrder;
}

export interface AssetTxFilter {
  txTypes?: readonly PrimaryNetworkTxType[];
  startTimestamp?: number;
  endTimestamp?: number;
}

export type XChainTxPage = Page<XChainTxRaw> & { chainInfo: PrimaryChainInfo };
export type CChainTxPage = Page<CChainAtomicTxRaw> & { chainInfo: PrimaryChainInfo };

export interface PrimaryTxApiClient {
  listXChainTransactions(
    network: NetworkName,
    filter: AtomicTxFilter,
    page: PageArgs,
  ): UpstreamRequest<XChainTxPage>;
  listCChainTransactions(
    network: NetworkName,
    filter: AtomicTxFilter,
    page: PageArgs,
  ): UpstreamRequest<CChainTxPage>;
  getXChainTransaction(network: NetworkName, txHash: string): UpstreamRequest<XChainTxRaw>;
  getCChainTransaction(network: NetworkName, txHash: string): UpstreamRequest<CChainAtomicTxRaw>;
  listAssetTransactions(
    network: NetworkName,
    assetId: string,
    filter: AssetTxFilter,
    page: PageArgs,
  ): UpstreamRequest<XChainTxPage>;
}

const seg = encodeURIComponent;
const sortedTypes = (t: readonly string[] | undefined) =>
  t && t.length > 0 ? [...t].sort() : undefined;

export function createPrimaryTxApiClient(
  http: HttpClient,
  opts: RequestOptions = {},
): PrimaryTxApiClient {
  const { page: listPage, one } = dataApiBinding(http, opts);
  /**
   * One page of a transaction list route. `txTypes` is a repeated (array) query parameter on the
   * wire, joined only in the cache key; `addresses` is one comma-separated parameter.
   */
  const txPage = <T>(
    resource: 'data.xChainTransactions' | 'data.cChainTransactions' | 'data.assetTransactions',
    path: string,
    schema: z.ZodType<{ transactions: T[]; chainInfo: PrimaryChainInfo; nextPageToken?: string }>,
    filter: AtomicTxFilter,
    paging: PageArgs,
  ) =>
    listPage({
      resource,
      path,
      paging,
      query: {
        addresses: filter.addresses?.length ? filter.addresses.join(',') : undefined,
        txTypes: sortedTypes(filter.txTypes)?.join(','),
        startTimestamp: filter.startTimestamp,
        endTimestamp: filter.endTimestamp,
        sortOrder: filter.sortOrder,
      },
      schema,
      items: (res) => res.transactions,
      extra: (res) => ({ chainInfo: res.chainInfo }),
      wire: { txTypes: sortedTypes(filter.txTypes) },
    });
  const txs = (network: NetworkName, chain: AtomicChain) =>
    `/v1/networks/${seg(network)}/blockchains/${chain}/transactions`;

  return {
    listXChainTransactions: (network, filter, paging) =>
      txPage(
        'data.xChainTransactions',
        txs(network, 'x-chain'),
        listXChainTransactionsResponse,
        filter,
        paging,
      ),
    listCChainTransactions: (network, filter, paging) =>
      txPage(
        'data.cChainTransactions',
        txs(network, 'c-chain'),
        listCChainAtomicTransactionsResponse,
        filter,
        paging,
      ),
    getXChainTransaction: (network, txHash) =>
      one('data.xChainTransaction', `${txs(network, 'x-chain')}/${seg(txHash)}`, xChainTransaction),
    getCChainTransaction: (network, txHash) =>
      one(
        'data.cChainTransaction',
        `${txs(network, 'c-chain')}/${seg(txHash)}`,
        cChainAtomicTransaction,
      ),
    listAssetTransactions: (network, assetId, filter, paging) =>
      txPage(
        'data.assetTransactions',
        `/v1/networks/${seg(network)}/blockchains/x-chain/assets/${seg(assetId)}/transactions`,
        listXChainTransactionsResponse,
        filter,
        paging,
      ),
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const DATA_API_PRIMARY_TXS_RESOURCES = [
  'data.xChainTransactions',
  'data.cChainTransactions',
  'data.assetTransactions',
  'data.xChainTransaction',
  'data.cChainTransaction',
] as const;
