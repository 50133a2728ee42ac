import { z } from 'zod';
import type { PageArgs } from './data-api.js';
import { dataApiBinding } from './data-api-binding.js';
import { type HttpClient, type RequestOptions, withCall } from './http.js';
import type { Page, UpstreamRequest } from './request.js';
import type { ContractMetadata } from './schemas/contracts.js';
import {
  type ChainInfo,
  type CurrencyCode,
  type EvmBlock,
  evmBlock,
  listChainsResponse,
  listNativeTransactionsResponse,
  type NativeTransaction,
} from './schemas/evm.js';
import { getTransactionResponse, type TransactionDetail } from './schemas/evm-transfers.js';
import {
  type AddressChains,
  type CollectibleBalance,
  type Erc20TokenBalance,
  type Erc721TokenBalance,
  type Erc1155TokenBalance,
  listAddressChainsResponse,
  listCollectibleBalancesResponse,
  listContractsResponse,
  listErc20BalancesResponse,
  listErc721BalancesResponse,
  listErc1155BalancesResponse,
  listNftTokensResponse,
  listTransfersResponse,
  type NftToken,
  nftToken,
  type TokenTransfer,
} from './schemas/portfolio.js';
import type { NetworkName } from './schemas/primary.js';

/**
 * The Data API's portfolio and token routes: an address's token balances and chains, a token's
 * transfers, an NFT collection's tokens, contract deployments, the latest blocks and transactions
 * across chains and the filtered chain list. Query parameters are named and serialised as the spec
 * says (`contractAddresses` comma-separated, booleans as `true`/`false`); nothing here knows
 * GraphQL.
 */
export type ApiFeature = 'nftIndexing' | 'webhooks' | 'teleporter';

export interface Erc20BalanceFilter {
  blockNumber?: string;
  filterSpamTokens?: boolean;
  /** Lower-case addresses, sent comma-separated. */
  contractAddresses?: string[];
  currency?: CurrencyCode;
}
export interface Erc1155BalanceFilter {
  blockNumber?: string;
  contractAddress?: string;
}
export interface BlockRangeFilter {
  startBlock?: number;
  endBlock?: number;
}

/** An address's balance list route: one page, by the route's filter `F`. */
export type BalanceList<F, T> = (
  chainId: string,
  address: string,
  f: F,
  page: PageArgs,
) => UpstreamRequest<Page<T>>;

export interface TokensApiClient {
  listErc20Balances: BalanceList<Erc20BalanceFilter, Erc20TokenBalance>;
  listErc721Balances: BalanceList<{ contractAddress?: string }, Erc721TokenBalance>;
  listErc1155Balances: BalanceList<Erc1155BalanceFilter, Erc1155TokenBalance>;
  listCollectibleBalances: BalanceList<{ contractAddress?: string }, CollectibleBalance>;
  listAddressChains(address: string): UpstreamRequest<AddressChains>;
  listTransfers(
    chainId: string,
    address: string,
    f: BlockRangeFilter,
    page: PageArgs,
  ): UpstreamRequest<Page<TokenTransfer>>;
  listNftTokens(chainId: string, address: string, page: PageArgs): UpstreamRequest<Page<NftToken>>;
  getNftToken(chainId: string, address: string, tokenId: string): UpstreamRequest<NftToken>;
  listContractDeployments(
    chainId: string,
    address: string,
    page: PageArgs,
  ): UpstreamRequest<Page<ContractMetadata>>;
  getDeploymentTransaction(
    chainId: string,
    address: string,
    f: { currency?: CurrencyCode },
  ): UpstreamRequest<TransactionDetail>;
  listLatestBlocksAllChains(
    f: { network?: NetworkName },
    page: PageArgs,
  ): UpstreamRequest<Page<EvmBlock>>;
  listLatestTransactionsAllChains(
    f: { network?: NetworkName; status?: 'failed' | 'success' },
    page: PageArgs,
  ): UpstreamRequest<Page<NativeTransaction>>;
  supportedChains(f: { network?: NetworkName; feature?: ApiFeature }): UpstreamRequest<ChainInfo[]>;
}

const seg = encodeURIComponent;
// Across chains a block is only identifiable with its chain: here `chainId` is required, not
// implied.
const blocksOfAllChains = z.object({
  blocks: z.array(evmBlock.extend({ chainId: z.string() })),
  nextPageToken: z.string().optional(),
});
type Resource = UpstreamRequest<unknown>['resource'];
type Query = UpstreamRequest<unknown>['query'];

export function createTokensApiClient(
  http: HttpClient,
  opts: RequestOptions = {},
): TokensApiClient {
  const { get, one, page: listPage } = dataApiBinding(http, opts);
  /** One page of a list route: `items` picks the list out of the answer. */
  const page = <S extends z.ZodType<{ nextPageToken?: string }>, T>(
    resource: Resource,
    path: string,
    query: Query,
    paging: PageArgs,
    schema: S,
    items: (res: z.output<S>) => T[],
  ): UpstreamRequest<Page<T>> => listPage({ resource, path, paging, query, schema, items });

  const balances = (chainId: string, address: string, kind: string) =>
    `/v1/chains/${seg(chainId)}/addresses/${seg(address)}/balances:${kind}`;
  /**
   * An address's balances of one token standard: `data.<standard>Balances`, `balances:list<Standard>`,
   * the list under `<standard>TokenBalances`; `query` the filter as the route names it.
   */
  const tokenBalances =
    <Std extends 'Erc20' | 'Erc721' | 'Erc1155', F, T>(
      standard: Std,
      schema: z.ZodType<{ nextPageToken?: string } & Record<`${Lowercase<Std>}TokenBalances`, T[]>>,
      query: (f: F) => Query,
    ) =>
    (chainId: string, address: string, f: F, p: PageArgs) => {
      const kind = standard.toLowerCase() as Lowercase<Std>;
      return page(
        `data.${kind}Balances`,
        balances(chainId, address, `list${standard}`),
        query(f),
        p,
        schema,
        (r) => r[`${kind}TokenBalances`],
      );
    };
  const nfts = (chainId: string, address: string) =>
    `/v1/chains/${seg(chainId)}/nfts/collections/${seg(address)}/tokens`;
  const contracts = (chainId: string, address: string) =>
    `/v1/chains/${seg(chainId)}/contracts/${seg(address)}`;
  const withChain =
    (chainId: string) =>
    <T extends object>(item: T) => ({ ...item, chainId });

  return {
    listErc20Balances: tokenBalances('Erc20', listErc20BalancesResponse, (f) => ({
      blockNumber: f.blockNumber,
      filterSpamTokens: f.filterSpamTokens,
      contractAddresses: f.contractAddresses?.length ? f.contractAddresses.join(',') : undefined,
      currency: f.currency,
    })),
    listErc721Balances: tokenBalances('Erc721', listErc721BalancesResponse, (f) => ({
      contractAddress: f.contractAddress,
    })),
    listErc1155Balances: tokenBalances('Erc1155', listErc1155BalancesResponse, (f) => ({
      blockNumber: f.blockNumber,
      contractAddress: f.contractAddress,
    })),
    listCollectibleBalances(chainId, address, f, p) {
      return page(
        'data.collectibleBalances',
        balances(chainId, address, 'listCollectibles'),
        { contractAddress: f.contractAddress },
        p,
        listCollectibleBalancesResponse,
        (r) => r.collectibleBalances,
      );
    },
    listAddressChains(address) {
      const path = `/v1/address/${seg(address)}/chains`;
      return get('data.addressChains', path, {}, async (call) => {
        const r = await http.getJson(path, {}, listAddressChainsResponse, withCall(opts, call));
        return { indexedChains: r.indexedChains ?? [], unindexedChains: r.unindexedChains ?? [] };
      });
    },
    listTransfers(chainId, address, f, p) {
      const path = `/v1/chains/${seg(chainId)}/tokens/${seg(address)}/transfers`;
      return page(
        'data.tokenTransfers',
        path,
        { startBlock: f.startBlock, endBlock: f.endBlock },
        p,
        listTransfersResponse,
        (r) => r.transfers.map(withChain(chainId)),
      );
    },
    listNftTokens(chainId, address, p) {
      return page(
        'data.nftTokens',
        nfts(chainId, address),
        {},
        p,
        listNftTokensResponse,
        (r) => r.tokens,
      );
    },
    getNftToken: (chainId, address, tokenId) =>
      one('data.nftToken', `${nfts(chainId, address)}/${seg(tokenId)}`, nftToken),
    listContractDeployments(chainId, address, p) {
      return page(
        'data.contractDeployments',
        `${contracts(chainId, address)}/deployments`,
        {},
        p,
        listContractsResponse,
        (r) => r.contracts.map(withChain(chainId)),
      );
    },
    getDeploymentTransaction: (chainId, address, f) =>
      one(
        'data.deploymentTransaction',
        `${contracts(chainId, address)}/transactions:getDeployment`,
        getTransactionResponse,
        { currency: f.currency },
      ),
    listLatestBlocksAllChains(f, p) {
      return page(
        'data.latestBlocksAllChains',
        '/v1/blocks',
        { network: f.network },
        p,
        blocksOfAllChains,
        (r) => r.blocks,
      );
    },
    listLatestTransactionsAllChains(f, p) {
      return page(
        'data.latestTransactionsAllChains',
        '/v1/transactions',
        { network: f.network, status: f.status },
        p,
        listNativeTransactionsResponse,
        (r) => r.transactions,
      );
    },
    supportedChains(f) {
      const path = '/v1/chains';
      const query: Query = { network: f.network, feature: f.feature };
      return get(
        'data.chains',
        path,
        query,
        async (call) =>
          (await http.getJson(path, query, listChainsResponse, withCall(opts, call))).chains,
      );
    },
  };
}

/** The resources this client's requests name (their cache classes: `cache/policy.ts`). */
export const DATA_API_TOKENS_RESOURCES = [
  'data.erc20Balances',
  'data.erc721Balances',
  'data.erc1155Balances',
  'data.collectibleBalances',
  'data.addressChains',
  'data.tokenTransfers',
  'data.nftTokens',
  'data.nftToken',
  'data.contractDeployments',
  'data.deploymentTransaction',
  'data.latestBlocksAllChains',
  'data.latestTransactionsAllChains',
] as const;
