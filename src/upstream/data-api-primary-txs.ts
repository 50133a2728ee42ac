import type { PageArgs } from './data-api.js';
import type { SortOrder } from './data-api-primary.js';
import type { HttpClient, Query, RequestOptions } from './http.js';
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
 * comes back (real paths, `../shared/upstream/README.md`). Also an X-Chain asset's transactions
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
  /**
   * One list call: `txTypes` is a repeated (array) query parameter on the wire, joined only in the
   * cache key; `addresses` is one comma-separated parameter.
   */
  const listCall = <T>(
    resource: UpstreamRequest<T>['resource'],
    path: string,
    filter: AtomicTxFilter,
    { pageToken, pageSize }: PageArgs,
    fetchPage: (wire: Query) => Promise<T>,
  ): UpstreamRequest<T> => {
    const types = sortedTypes(filter.txTypes);
    const query = {
      pageToken: pageToken ?? undefined,
      pageSize,
      addresses: filter.addresses?.length ? filter.addresses.join(',') : undefined,
      txTypes: types?.join(','),
      startTimestamp: filter.startTimestamp,
      endTimestamp: filter.endTimestamp,
      sortOrder: filter.sortOrder,
    };
    return {
      upstream: 'data-api',
      resource,
      method: 'GET',
      path,
      query,
      pageToken,
      run: () => fetchPage({ ...query, txTypes: types }),
    };
  };
  const byHash = <T>(
    resource: UpstreamRequest<T>['resource'],
    path: string,
    run: () => Promise<T>,
  ): UpstreamRequest<T> => ({
    upstream: 'data-api',
    resource,
    method: 'GET',
    path,
    query: {},
    run,
  });
  const txs = (network: NetworkName, chain: AtomicChain) =>
    `/v1/networks/${seg(network)}/blockchains/${chain}/transactions`;

  return {
    listXChainTransactions(network, filter, page) {
      const path = txs(network, 'x-chain');
      return listCall('data.xChainTransactions', path, filter, page, async (wire) => {
        const res = await http.getJson(path, wire, listXChainTransactionsResponse, opts);
        return {
          items: res.transactions,
          nextPageToken: res.nextPageToken || null,
          chainInfo: res.chainInfo,
        };
      });
    },
    listCChainTransactions(network, filter, page) {
      const path = txs(network, 'c-chain');
      return listCall('data.cChainTransactions', path, filter, page, async (wire) => {
        const res = await http.getJson(path, wire, listCChainAtomicTransactionsResponse, opts);
        return {
          items: res.transactions,
          nextPageToken: res.nextPageToken || null,
          chainInfo: res.chainInfo,
        };
      });
    },
    getXChainTransaction(network, txHash) {
      const path = `${txs(network, 'x-chain')}/${seg(txHash)}`;
      return byHash('data.xChainTransaction', path, () =>
        http.getJson(path, {}, xChainTransaction, opts),
      );
    },
    getCChainTransaction(network, txHash) {
      const path = `${txs(network, 'c-chain')}/${seg(txHash)}`;
      return byHash('data.cChainTransaction', path, () =>
        http.getJson(path, {}, cChainAtomicTransaction, opts),
      );
    },
    listAssetTransactions(network, assetId, filter, page) {
      const path = `/v1/networks/${seg(network)}/blockchains/x-chain/assets/${seg(assetId)}/transactions`;
      return listCall('data.assetTransactions', path, filter, page, async (wire) => {
        const res = await http.getJson(path, wire, listXChainTransactionsResponse, opts);
        return {
          items: res.transactions,
          nextPageToken: res.nextPageToken || null,
          chainInfo: res.chainInfo,
        };
      });
    },
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
