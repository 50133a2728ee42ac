import DataLoader from 'dataloader';
import type { DataApiClient } from '../upstream/data-api.js';
import type { IcmApiClient } from '../upstream/data-api-icm.js';
import type { PrimaryApiClient } from '../upstream/data-api-primary.js';
import type { PrimaryNetApiClient } from '../upstream/data-api-primary-net.js';
import type { PrimaryTxApiClient } from '../upstream/data-api-primary-txs.js';
import type { StakingApiClient } from '../upstream/data-api-staking.js';
import type { TokensApiClient } from '../upstream/data-api-tokens.js';
import type { Derivations } from '../upstream/derivations.js';
import type { EvmStateClient } from '../upstream/evm-state.js';
import type { MetricsApiClient } from '../upstream/metrics-api.js';
import type { MetricsNetworkClient } from '../upstream/metrics-api-network.js';
import type { NodeRpcClient } from '../upstream/node-rpc.js';
import type { Page, UpstreamRequest } from '../upstream/request.js';
import { createEvmLoaders, type EvmLoaders } from './evm.js';
import { createEvmStateLoaders, type EvmStateLoaders } from './evm-state.js';
import { createIcmLoaders, type IcmLoaders } from './icm.js';
import { createMetricsLoaders, type MetricsLoaders } from './metrics.js';
import { createMetricsNetworkLoaders, type MetricsNetworkLoaders } from './metrics-network.js';
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
  metricsNetwork: MetricsNetworkLoaders;
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
  /** What is derived instead of read (src/upstream/derivations.ts). */
  derivations: Derivations;
  metricsNetworkApi: MetricsNetworkClient;
  /** One client per configured node, the default first (long-lived: the JSON-RPC batching spans requests). */
  nodes: readonly NodeRpcClient[];
  /** One client per EVM endpoint of the nodes (long-lived: JSON-RPC batching spans requests). */
  evm?: readonly EvmStateClient[];
}

export function createLoaders(deps: LoaderDeps, clients: LoaderClients): Loaders {
  // The family getters are defined from FAMILIES when the class is, out of the type checker's sight.
  return new RequestLoaders(deps, clients) as RequestLoaders & FamilyLoaders;
}

/**
 * A request's execution is over: its loaders let go of what they hold (their DataLoaders, the pages and
 * entities those cached). The request's context outlives its answer: Pothos keeps a context's own
 * DataLoaders in a WeakMap keyed by the context, and on Node 20's V8 such an entry survives every
 * young-generation collection (see telemetry/request-slot.ts), so without this everything the loaders
 * read would be promoted to the old generation before it is freed. A loader used after its release
 * is made again, empty: correct, only without the request's earlier answers.
 */
export function releaseLoaders(loaders: Loaders): void {
  if (loaders instanceof RequestLoaders) loaders.release();
}

/** The families of loaders: every member of `Loaders` but `pages`. */
type FamilyLoaders = Omit<Loaders, 'pages'>;
type Family = keyof FamilyLoaders;

/** How each family is made from a request's dependencies and the long-lived clients. */
const FAMILIES: { [F in Family]: (deps: LoaderDeps, api: LoaderClients) => FamilyLoaders[F] } = {
  evm: (deps, api) => createEvmLoaders(deps, api.dataApi),
  primary: (deps, api) => createPrimaryLoaders(deps, api.primaryApi),
  primaryNet: (deps, api) => createPrimaryNetLoaders(deps, api.primaryNetApi),
  primaryTxs: (deps, api) => createPrimaryTxLoaders(deps, api.primaryTxApi),
  icm: (deps, api) => createIcmLoaders(deps, api.icmApi),
  metrics: (deps, api) => createMetricsLoaders(deps, api.metricsApi),
  tokens: (deps, api) => createTokenLoaders(deps, api.tokensApi, api.tokenPageSizes),
  staking: (deps, api) => createStakingLoaders(deps, api.stakingApi, api.derivations),
  metricsNetwork: (deps, api) => createMetricsNetworkLoaders(deps, api.metricsNetworkApi),
  node: (deps, api) => createNodeLoaders(deps, api.nodes),
  evmState: (deps, api) => createEvmStateLoaders(deps, api.evm ?? []),
};

/** What a request's loaders have made so far. */
type Made = Partial<FamilyLoaders> & {
  requests?: DataLoader<UpstreamRequest<unknown>, unknown, string>;
};

/**
 * One request's loaders. Each family's loaders are made when a resolver first reaches for them: a
 * request pays only for the families its query touches (a query reaches two or three of the eleven).
 * A class, so the getters (one per family of FAMILIES) live once on its prototype and a request
 * allocates only what it uses.
 */
class RequestLoaders implements Pick<Loaders, 'pages'> {
  static {
    for (const family of Object.keys(FAMILIES) as Family[]) {
      // As a class getter would be: on the prototype, not enumerable, configurable.
      Object.defineProperty(RequestLoaders.prototype, family, {
        configurable: true,
        get(this: RequestLoaders) {
          return this.#family(family);
        },
      });
    }
  }

  readonly #deps: LoaderDeps;
  readonly #clients: LoaderClients;
  /**
   * The loaders made so far: the shared page loader and each family reached for. One object, so that
   * releasing them (`release`) cannot miss a family added later.
   */
  #made: Made = {};

  constructor(deps: LoaderDeps, clients: LoaderClients) {
    this.#deps = deps;
    this.#clients = clients;
  }

  release(): void {
    this.#made = {};
  }

  #family<F extends Family>(family: F): FamilyLoaders[F] {
    const made: Partial<FamilyLoaders> = this.#made;
    const loaders = made[family] ?? FAMILIES[family](this.#deps, this.#clients);
    made[family] = loaders;
    return loaders;
  }

  pages<P extends Page<unknown>>(
    describe: (a: LoaderClients, pageToken: string | null) => UpstreamRequest<P>,
  ): PagedList<ItemOf<P>, P> {
    const deps = this.#deps;
    const clients = this.#clients;
    this.#made.requests ??= new DataLoader<UpstreamRequest<unknown>, unknown, string>(
      (reqs) => cachedRequests(deps, reqs),
      { cacheKeyFn: keyIn(deps), maxBatchSize: 100 },
    );
    const shared = this.#made.requests;
    return pagedList(
      listIdentityOf(describe(clients, null)),
      (pageToken) => shared.load(describe(clients, pageToken)) as Promise<P>,
    );
  }
}
