import type {
  AssetTxFilter,
  AtomicTxFilter,
  PrimaryTxApiClient,
} from '../upstream/data-api-primary-txs.js';
import type { NetworkName } from '../upstream/schemas/primary.js';
import { type LoaderDeps, pageLoader, requestLoader } from './request-loader.js';

/** X-Chain and C-Chain atomic transactions, and an X-Chain asset's transactions (one page size each). */
export const ATOMIC_TX_PAGE_SIZE = 100;

export interface AtomicTxPageKey extends AtomicTxFilter {
  network: NetworkName;
  pageToken: string | null;
}
export interface AssetTxPageKey extends AssetTxFilter {
  network: NetworkName;
  assetId: string;
  pageToken: string | null;
}
type ByHash = { network: NetworkName; txHash: string };

export function createPrimaryTxLoaders(deps: LoaderDeps, api: PrimaryTxApiClient) {
  const page = (pageToken: string | null) => ({ pageToken, pageSize: ATOMIC_TX_PAGE_SIZE });
  return {
    xChainTxPage: pageLoader(deps, ({ network, pageToken, ...filter }: AtomicTxPageKey) =>
      api.listXChainTransactions(network, filter, page(pageToken)),
    ),
    cChainTxPage: pageLoader(deps, ({ network, pageToken, ...filter }: AtomicTxPageKey) =>
      api.listCChainTransactions(network, filter, page(pageToken)),
    ),
    xChainTx: requestLoader(deps, ({ network, txHash }: ByHash) =>
      api.getXChainTransaction(network, txHash),
    ),
    cChainTx: requestLoader(deps, ({ network, txHash }: ByHash) =>
      api.getCChainTransaction(network, txHash),
    ),
    assetTxPage: pageLoader(deps, ({ network, assetId, pageToken, ...filter }: AssetTxPageKey) =>
      api.listAssetTransactions(network, assetId, filter, page(pageToken)),
    ),
  };
}

export type PrimaryTxLoaders = ReturnType<typeof createPrimaryTxLoaders>;
