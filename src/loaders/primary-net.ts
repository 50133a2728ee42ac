import type { PrimaryChainAlias, SortOrder } from '../upstream/data-api-primary.js';
import {
  addressesNeedPost,
  type PrimaryNetApiClient,
  UTXO_PAGE_SIZE,
  type UtxoFilter,
} from '../upstream/data-api-primary-net.js';
import type { NetworkName } from '../upstream/schemas/primary.js';
import { type LoaderDeps, pageLoader, requestLoader } from './request-loader.js';

/**
 * Loaders for subnets, blockchains, UTXOs and activity by addresses, and the AVAX supply. Pages are
 * fetched at one fixed size per route so different `first` values share cached pages. Subnet and
 * blockchain pages are fetched at 100, not the route's 10000: each item carries its genesis data
 * (tens of KiB for an EVM chain), so a 10000-item answer would run into the upstream body cap.
 */
export const PRIMARY_NET_PAGE_SIZE = { subnets: 100, blockchains: 100 } as const;

/**
 * The page size of a UTXO list: the largest its route allows (GET 100; the V2 POST, for long lists,
 * 1024).
 */
export const utxoPageSize = (addresses: readonly string[]): number =>
  UTXO_PAGE_SIZE[addressesNeedPost(addresses) ? 'POST' : 'GET'];

export interface NetListPageKey {
  network: NetworkName;
  sortOrder?: SortOrder;
  pageToken: string | null;
}

export interface UtxoPageKey extends UtxoFilter {
  network: NetworkName;
  chain: PrimaryChainAlias;
  addresses: readonly string[];
  pageToken: string | null;
}

export function createPrimaryNetLoaders(deps: LoaderDeps, api: PrimaryNetApiClient) {
  return {
    subnetsPage: pageLoader(deps, ({ network, sortOrder, pageToken }: NetListPageKey) =>
      api.listSubnets(
        network,
        { sortOrder },
        { pageToken, pageSize: PRIMARY_NET_PAGE_SIZE.subnets },
      ),
    ),
    subnet: requestLoader(deps, (k: { network: NetworkName; subnetId: string }) =>
      api.getSubnet(k.network, k.subnetId),
    ),
    blockchain: requestLoader(deps, (k: { network: NetworkName; blockchainId: string }) =>
      api.getBlockchain(k.network, k.blockchainId),
    ),
    utxosPage: pageLoader(
      deps,
      ({ network, chain, addresses, pageToken, ...filter }: UtxoPageKey) =>
        api.listUtxos(network, chain, addresses, filter, {
          pageToken,
          pageSize: utxoPageSize(addresses),
        }),
    ),
    lastActivity: requestLoader(
      deps,
      (k: { network: NetworkName; chain: PrimaryChainAlias; addresses: readonly string[] }) =>
        api.getLastActivity(k.network, k.chain, k.addresses),
    ),
    addressChainIds: requestLoader(
      deps,
      (k: { network: NetworkName; addresses: readonly string[] }) =>
        api.getChainIdsForAddresses(k.network, k.addresses),
    ),
    avaxSupply: requestLoader(deps, () => api.getAvaxSupply()),
  };
}

export type PrimaryNetLoaders = ReturnType<typeof createPrimaryNetLoaders>;
