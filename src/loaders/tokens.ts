import type {
  ApiFeature,
  BalanceList,
  BlockRangeFilter,
  TokensApiClient,
} from '../upstream/data-api-tokens.js';
import type { CurrencyCode } from '../upstream/schemas/evm.js';
import type { NetworkName } from '../upstream/schemas/primary.js';
import { type LoaderDeps, pageLoader, requestLoader } from './request-loader.js';

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

export function createTokenLoaders(
  deps: LoaderDeps,
  api: TokensApiClient,
  sizes: Partial<TokenPageSizes> = {},
) {
  const s: Readonly<TokenPageSizes> = { ...TOKEN_PAGE_SIZE, ...sizes };
  const page = (pageToken: string | null, pageSize: number) => ({ pageToken, pageSize });
  /** An address's balances of one kind, by its filter `F`, a page at a time at the balance routes' size. */
  const balancesPage = <F, T>(list: BalanceList<F, T>) =>
    pageLoader(deps, ({ chainId, address, pageToken, ...f }: AddressPage & F) =>
      list(chainId, address, f as F, page(pageToken, s.balances)),
    );
  return {
    /** The page sizes in force (the route maxima unless a test asks for smaller pages). */
    pageSizes: s,
    erc20BalancesPage: balancesPage(api.listErc20Balances),
    erc721BalancesPage: balancesPage(api.listErc721Balances),
    erc1155BalancesPage: balancesPage(api.listErc1155Balances),
    collectibleBalancesPage: balancesPage(api.listCollectibleBalances),
    addressChains: requestLoader(deps, (address: string) => api.listAddressChains(address)),
    transfersPage: pageLoader(
      deps,
      ({ chainId, address, pageToken, ...f }: AddressPage & BlockRangeFilter) =>
        api.listTransfers(chainId, address, f, page(pageToken, s.tokenTransfers)),
    ),
    nftTokensPage: pageLoader(deps, (k: AddressPage) =>
      api.listNftTokens(k.chainId, k.address, page(k.pageToken, s.nftTokens)),
    ),
    nftToken: requestLoader(deps, (k: { chainId: string; address: string; tokenId: string }) =>
      api.getNftToken(k.chainId, k.address, k.tokenId),
    ),
    deploymentsPage: pageLoader(deps, (k: AddressPage) =>
      api.listContractDeployments(k.chainId, k.address, page(k.pageToken, s.contractDeployments)),
    ),
    deploymentTransaction: requestLoader(
      deps,
      (k: { chainId: string; address: string; currency?: CurrencyCode }) =>
        api.getDeploymentTransaction(k.chainId, k.address, { currency: k.currency }),
    ),
    latestBlocksPage: pageLoader(
      deps,
      ({ pageToken, ...f }: { network?: NetworkName; pageToken: string | null }) =>
        api.listLatestBlocksAllChains(f, page(pageToken, s.latestAllChains)),
    ),
    latestTransactionsPage: pageLoader(
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

export type TokenLoaders = ReturnType<typeof createTokenLoaders>;
