import type { HttpClient, RequestOptions } from './http.js';
import type { Page, UpstreamRequest } from './request.js';
import {
  chainInfo,
  evmBlock,
  getTransactionResponse,
  listChainsResponse,
  listEvmBlocksResponse,
  listNativeTransactionsResponse,
  type ChainInfo,
  type EvmBlock,
  type EvmBlockRaw,
  type NativeTransaction,
  type TransactionDetail,
} from './schemas/evm.js';

/**
 * The Data API (a.k.a. Glacier): real paths from `../shared/upstream/README.md`. Each method describes
 * one upstream call; nothing here knows about GraphQL or the cache. Lists are normalized to `Page<T>`.
 */
export interface DataApiClient {
  listChains(network?: 'mainnet' | 'fuji' | 'testnet'): UpstreamRequest<ChainInfo[]>;
  getChain(chainId: string): UpstreamRequest<ChainInfo>;
  listLatestBlocks(chainId: string, page: PageArgs): UpstreamRequest<Page<EvmBlock>>;
  getBlock(chainId: string, blockId: string): UpstreamRequest<EvmBlock>;
  listBlockTransactions(chainId: string, blockId: string, page: PageArgs): UpstreamRequest<Page<NativeTransaction>>;
  getTransaction(chainId: string, txHash: string): UpstreamRequest<TransactionDetail>;
}

export interface PageArgs {
  pageToken: string | null;
  pageSize: number;
}

const seg = encodeURIComponent;

export function createDataApiClient(http: HttpClient, opts: RequestOptions = {}): DataApiClient {
  const get = <T>(
    resource: UpstreamRequest<T>['resource'],
    path: string,
    query: UpstreamRequest<T>['query'],
    run: () => Promise<T>,
    pageToken?: string | null,
  ): UpstreamRequest<T> => ({ upstream: 'data-api', resource, method: 'GET', path, query, pageToken, run });

  const withChain = (chainId: string, b: EvmBlockRaw): EvmBlock => ({ ...b, chainId: b.chainId ?? chainId });

  return {
    listChains(network) {
      const path = '/v1/chains';
      const query = { network };
      return get('data.chains', path, query, async () => (await http.getJson(path, query, listChainsResponse, opts)).chains);
    },
    getChain(chainId) {
      const path = `/v1/chains/${seg(chainId)}`;
      return get('data.chain', path, {}, () => http.getJson(path, {}, chainInfo, opts));
    },
    listLatestBlocks(chainId, { pageToken, pageSize }) {
      const path = `/v1/chains/${seg(chainId)}/blocks`;
      const query = { pageToken: pageToken ?? undefined, pageSize };
      return get(
        'data.latestBlocks',
        path,
        query,
        async () => {
          const res = await http.getJson(path, query, listEvmBlocksResponse, opts);
          return { items: res.blocks.map((b) => withChain(chainId, b)), nextPageToken: res.nextPageToken || null };
        },
        pageToken,
      );
    },
    getBlock(chainId, blockId) {
      const path = `/v1/chains/${seg(chainId)}/blocks/${seg(blockId)}`;
      return get('data.block', path, {}, async () => withChain(chainId, await http.getJson(path, {}, evmBlock, opts)));
    },
    listBlockTransactions(chainId, blockId, { pageToken, pageSize }) {
      const path = `/v1/chains/${seg(chainId)}/blocks/${seg(blockId)}/transactions`;
      const query = { pageToken: pageToken ?? undefined, pageSize };
      return get(
        'data.blockTransactions',
        path,
        query,
        async () => {
          const res = await http.getJson(path, query, listNativeTransactionsResponse, opts);
          return { items: res.transactions, nextPageToken: res.nextPageToken || null };
        },
        pageToken,
      );
    },
    getTransaction(chainId, txHash) {
      const path = `/v1/chains/${seg(chainId)}/transactions/${seg(txHash)}`;
      return get('data.transaction', path, {}, () => http.getJson(path, {}, getTransactionResponse, opts));
    },
  };
}
