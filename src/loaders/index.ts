import DataLoader from 'dataloader';
import type { DataApiClient } from '../upstream/data-api.js';
import type { IcmApiClient } from '../upstream/data-api-icm.js';
import type { PrimaryApiClient } from '../upstream/data-api-primary.js';
import type { PrimaryNetApiClient } from '../upstream/data-api-primary-net.js';
import type { PrimaryTxApiClient } from '../upstream/data-api-primary-txs.js';
import type { StakingApiClient } from '../upstream/data-api-staking.js';
import type { TokensApiClient } from '../upstream/data-api-tokens.js';
import type { EvmStateClient } from '../upstream/evm-state.js';
import type { MetricsApiClient } from '../upstream/metrics-api.js';
import type { MetricsMoreClient } from '../upstream/metrics-api-more.js';
import type { NodeRpcClient } from '../upstream/node-rpc.js';
import type { Page, UpstreamRequest } from '../upstream/request.js';
import { createEvmLoaders, type EvmLoaders } from './evm.js';
import { createEvmStateLoaders, type EvmStateLoaders } from './evm-state.js';
import { createIcmLoaders, type IcmLoaders } from './icm.js';
import { createMetricsLoaders, type MetricsLoaders } from './metrics.js';
import { createMetricsMoreLoaders, type MetricsMoreLoaders } from './metrics-more.js';
import { createNodeLoaders, type NodeLoaders } from './node.js';
import { createPrimaryLoaders, type PrimaryLoaders } from './primary.js';
import { createPrimaryNetLoaders, type PrimaryNetLoaders } from './primary-net.js';
import { createPrimaryTxLoaders, type PrimaryTxLoaders } from './primary-txs.js';
import {
  cachedRequests,
  type ItemOf,
  keyIn,
  type LoaderDeps,
  listIdentityOf,
  type PagedList,
  pagedList,
} from './request-loader.js';
import { createStakingLoaders, type StakingLoaders } from './staking.js';
import { createTokenLoaders, type TokenLoaders, type TokenPageSizes } from './tokens.js';

/** Every per-request loader, grouped by upstream resource family. Created fresh for each request. */
export interface Loaders {
  evm: EvmLoaders;
  primary: PrimaryLoaders;
  /** Subnets, blockchains, UTXOs and activity by addresses, AVAX supply. */
  primaryNet: PrimaryNetLoaders;
  /** X-Chain and C-Chain atomic transactions, and an X-Chain asset's. */
  primaryTxs: PrimaryTxLoaders;
  icm: IcmLoaders;
  metrics: MetricsLoaders;
  /** Portfolio and token routes (balances, transfers, NFTs, deployments, cross-chain lists). */
  tokens: TokenLoaders;
  /** Network-wide staking: validator set, delegations, rewards, totals. */
  staking: StakingLoaders;
  /** Metrics API: staking, ICM and L1-validator fee series. */
  metricsMore: MetricsMoreLoaders;
  /** The configured nodes (node JSON-RPC). */
  node: NodeLoaders;
  /** EVM state (balances, code, storage, calls, logs, proofs) from the nodes' EVM endpoints. */
  evmState: EvmStateLoaders;
  /**
   * Any Data or Metrics API list by its client's described request, with no loader of its own:
   * `ctx.loaders.pages((api, pageToken) => api.primaryNetApi.listBlockchains(network, { pageToken, … }))`.
   * Pages are read through the shared cache like every loader's (one DataLoader for all of them:
   * one batch, one cache round trip per tick); the list's identity is its first page's request.
   */
  pages<P extends Page<unknown>>(
    describe: (api: LoaderClients, pageToken: string | null) => UpstreamRequest<P>,
  ): PagedList<ItemOf<P>, P>;
}

export interface LoaderClients {
  dataApi: DataApiClient;
  primaryApi: PrimaryApiClient;
  primaryNetApi: PrimaryNetApiClient;
  primaryTxApi: PrimaryTxApiClient;
  icmApi: IcmApiClient;
  metricsApi: MetricsApiClient;
  tokensApi: TokensApiClient;
  /** Smaller upstream pages for the token lists (tests); @default each route's largest. */
  tokenPageSizes?: Partial<TokenPageSizes>;
  stakingApi: StakingApiClient;
  metricsMoreApi: MetricsMoreClient;
  /** One client per configured node, the default first (long-lived: the JSON-RPC batching spans requests). */
  nodes: readonly NodeRpcClient[];
  /** One client per EVM endpoint of the nodes (long-lived: JSON-RPC batching spans requests). */
  evm?: readonly EvmStateClient[];
}

export function createLoaders(deps: LoaderDeps, clients: LoaderClients): Loaders {
  let requests: DataLoader<UpstreamRequest<unknown>, unknown, string> | undefined;
  const shared = () =>
    (requests ??= new DataLoader<UpstreamRequest<unknown>, unknown, string>(
      (reqs) => cachedRequests(deps, reqs),
      { cacheKeyFn: keyIn(deps), maxBatchSize: 100 },
    ));
  // Each family's loaders are made when a resolver first reaches for them: a request pays only for
  // the families its query touches (a query reaches two or three of the eleven).
  const once = <T>(make: () => T): (() => T) => {
    let made: T | undefined;
    return () => (made ??= make());
  };
  const evm = once(() => createEvmLoaders(deps, clients.dataApi));
  const primary = once(() => createPrimaryLoaders(deps, clients.primaryApi));
  const primaryNet = once(() => createPrimaryNetLoaders(deps, clients.primaryNetApi));
  const primaryTxs = once(() => createPrimaryTxLoaders(deps, clients.primaryTxApi));
  const icm = once(() => createIcmLoaders(deps, clients.icmApi));
  const metrics = once(() => createMetricsLoaders(deps, clients.metricsApi));
  const tokens = once(() => createTokenLoaders(deps, clients.tokensApi, clients.tokenPageSizes));
  const staking = once(() => createStakingLoaders(deps, clients.stakingApi));
  const metricsMore = once(() => createMetricsMoreLoaders(deps, clients.metricsMoreApi));
  const node = once(() => createNodeLoaders(deps, clients.nodes));
  const evmState = once(() => createEvmStateLoaders(deps, clients.evm ?? []));
  return {
    pages: <P extends Page<unknown>>(
      describe: (a: LoaderClients, pageToken: string | null) => UpstreamRequest<P>,
    ) =>
      pagedList(
        listIdentityOf(describe(clients, null)),
        (pageToken) => shared().load(describe(clients, pageToken)) as Promise<P>,
      ),
    get evm() {
      return evm();
    },
    get primary() {
      return primary();
    },
    get primaryNet() {
      return primaryNet();
    },
    get primaryTxs() {
      return primaryTxs();
    },
    get icm() {
      return icm();
    },
    get metrics() {
      return metrics();
    },
    get tokens() {
      return tokens();
    },
    get staking() {
      return staking();
    },
    get metricsMore() {
      return metricsMore();
    },
    get node() {
      return node();
    },
    get evmState() {
      return evmState();
    },
  };
}
