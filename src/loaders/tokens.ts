import type DataLoader from 'dataloader';
import type {
  ApiFeature,
  BlockRangeFilter,
  Erc20BalanceFilter,
  Erc1155BalanceFilter,
  TokensApiClient,
} from '../upstream/data-api-tokens.js';
import type { Page } from '../upstream/request.js';
import type { ContractMetadata } from '../upstream/schemas/contracts.js';
import type {
  ChainInfo,
  CurrencyCode,
  EvmBlock,
  NativeTransaction,
} from '../upstream/schemas/evm.js';
import type { TransactionDetail } from '../upstream/schemas/evm-transfers.js';
import type {
  AddressChains,
  CollectibleBalance,
  Erc20TokenBalance,
  Erc721TokenBalance,
  Erc1155TokenBalance,
  NftToken,
  TokenTransfer,
} from '../upstream/schemas/portfolio.js';
import type { NetworkName } from '../upstream/schemas/primary.js';
import { type LoaderDeps, requestLoader } from './request-loader.js';

/**
 * Portfolio and token loaders. Pages are fetched at each route's largest size (the upstream charges
 * per call, not per item), so clients asking different `first` values share cached pages.
 */
export const TOKEN_PAGE_SIZE = {
  /** The balance routes take up to 500 items a page. */
  balances: 500,
  tokenTransfers: 100,
  nftTokens: 100,
  contractDeployments: 100,
  latestAllChains: 100,
} as const;
export type TokenPageSizes = { -readonly [K in keyof typeof TOKEN_PAGE_SIZE]: number };

interface AddressPage {
  chainId: string;
  /** Lower-case hex. */
  address: string;
  pageToken: string | null;
}

export interface TokenLoaders {
  /** The page sizes in force (the route maxima unless a test asks for smaller pages). */
  readonly pageSizes: TokenPageSizes;
  erc20BalancesPage: DataLoader<AddressPage & Erc20BalanceFilter, Page<Erc20TokenBalance>, string>;
  erc721BalancesPage: DataLoader<
    AddressPage & { contractAddress?: string },
    Page<Erc721TokenBalance>,
    string
  >;
  erc1155BalancesPage: DataLoader<
    AddressPage & Erc1155BalanceFilter,
    Page<Erc1155TokenBalance>,
    string
  >;
  collectibleBalancesPage: DataLoader<
    AddressPage & { contractAddress?: string },
    Page<CollectibleBalance>,
    string
  >;
  addressChains: DataLoader<string, AddressChains, string>;
  transfersPage: DataLoader<AddressPage & BlockRangeFilter, Page<TokenTransfer>, string>;
  nftTokensPage: DataLoader<AddressPage, Page<NftToken>, string>;
  nftToken: DataLoader<{ chainId: string; address: string; tokenId: string }, NftToken, string>;
  deploymentsPage: DataLoader<AddressPage, Page<ContractMetadata>, string>;
  deploymentTransaction: DataLoader<
    { chainId: string; address: string; currency?: CurrencyCode },
    TransactionDetail,
    string
  >;
  latestBlocksPage: DataLoader<
    { network?: NetworkName; pageToken: string | null },
    Page<EvmBlock>,
    string
  >;
  latestTransactionsPage: DataLoader<
    { network?: NetworkName; status?: 'failed' | 'success'; pageToken: string | null },
    Page<NativeTransaction>,
    string
  >;
  supportedChains: DataLoader<{ network?: NetworkName; feature?: ApiFeature }, ChainInfo[], string>;
}

export function createTokenLoaders(
  deps: LoaderDeps,
  api: TokensApiClient,
  sizes: Partial<TokenPageSizes> = {},
): TokenLoaders {
  const s: TokenPageSizes = { ...TOKEN_PAGE_SIZE, ...sizes };
  const page = (pageToken: string | null, pageSize: number) => ({ pageToken, pageSize });
  return {
    pageSizes: s,
    erc20BalancesPage: requestLoader(
      deps,
      ({ chainId, address, pageToken, ...f }: AddressPage & Erc20BalanceFilter) =>
        api.listErc20Balances(chainId, address, f, page(pageToken, s.balances)),
    ),
    erc721BalancesPage: requestLoader(
      deps,
      ({ chainId, address, pageToken, ...f }: AddressPage & { contractAddress?: string }) =>
        api.listErc721Balances(chainId, address, f, page(pageToken, s.balances)),
    ),
    erc1155BalancesPage: requestLoader(
      deps,
      ({ chainId, address, pageToken, ...f }: AddressPage & Erc1155BalanceFilter) =>
        api.listErc1155Balances(chainId, address, f, page(pageToken, s.balances)),
    ),
    collectibleBalancesPage: requestLoader(
      deps,
      ({ chainId, address, pageToken, ...f }: AddressPage & { contractAddress?: string }) =>
        api.listCollectibleBalances(chainId, address, f, page(pageToken, s.balances)),
    ),
    addressChains: requestLoader(deps, (address: string) => api.listAddressChains(address)),
    transfersPage: requestLoader(
      deps,
      ({ chainId, address, pageToken, ...f }: AddressPage & BlockRangeFilter) =>
        api.listTransfers(chainId, address, f, page(pageToken, s.tokenTransfers)),
    ),
    nftTokensPage: requestLoader(deps, (k: AddressPage) =>
      api.listNftTokens(k.chainId, k.address, page(k.pageToken, s.nftTokens)),
    ),
    nftToken: requestLoader(deps, (k: { chainId: string; address: string; tokenId: string }) =>
      api.getNftToken(k.chainId, k.address, k.tokenId),
    ),
    deploymentsPage: requestLoader(deps, (k: AddressPage) =>
      api.listContractDeployments(k.chainId, k.address, page(k.pageToken, s.contractDeployments)),
    ),
    deploymentTransaction: requestLoader(
      deps,
      (k: { chainId: string; address: string; currency?: CurrencyCode }) =>
        api.getDeploymentTransaction(k.chainId, k.address, { currency: k.currency }),
    ),
    latestBlocksPage: requestLoader(
      deps,
      ({ pageToken, ...f }: { network?: NetworkName; pageToken: string | null }) =>
        api.listLatestBlocksAllChains(f, page(pageToken, s.latestAllChains)),
    ),
    latestTransactionsPage: requestLoader(
      deps,
      ({
        pageToken,
        ...f
      }: {
        network?: NetworkName;
        status?: 'failed' | 'success';
        pageToken: string | null;
      }) => api.listLatestTransactionsAllChains(f, page(pageToken, s.latestAllChains)),
    ),
    supportedChains: requestLoader(deps, (f: { network?: NetworkName; feature?: ApiFeature }) =>
      api.supportedChains(f),
    ),
  };
}
