import type { DataApiClient } from '../upstream/data-api.js';
import type { PrimaryApiClient } from '../upstream/data-api-primary.js';
import type { IcmApiClient } from '../upstream/data-api-icm.js';
import type { MetricsApiClient } from '../upstream/metrics-api.js';
import type { StakingApiClient } from '../upstream/data-api-staking.js';
import type { MetricsMoreClient } from '../upstream/metrics-api-more.js';
import { createMetricsMoreLoaders, type MetricsMoreLoaders } from './metrics-more.js';
import type { NodeRpcClient } from '../upstream/node-rpc.js';
import { createEvmLoaders, type EvmLoaders } from './evm.js';
import { createNodeLoaders, type NodeLoaders } from './node.js';
import { createPrimaryLoaders, type PrimaryLoaders } from './primary.js';
import { createIcmLoaders, type IcmLoaders } from './icm.js';
import { createMetricsLoaders, type MetricsLoaders } from './metrics.js';
import type { LoaderDeps } from './request-loader.js';
import { createStakingLoaders, type StakingLoaders } from './staking.js';

/** Every per-request loader, grouped by upstream resource family. Created fresh for each request. */
export interface Loaders {
  evm: EvmLoaders;
  primary: PrimaryLoaders;
  icm: IcmLoaders;
  metrics: MetricsLoaders;
  /** Network-wide staking: validator set, delegations, rewards, totals. */
  staking: StakingLoaders;
  /** Metrics API: staking, ICM and L1-validator fee series. */
  metricsMore: MetricsMoreLoaders;
  /** The configured nodes (node JSON-RPC). */
  node: NodeLoaders;
}

export interface LoaderClients {
  dataApi: DataApiClient;
  primaryApi: PrimaryApiClient;
  icmApi: IcmApiClient;
  metricsApi: MetricsApiClient;
  stakingApi: StakingApiClient;
  metricsMoreApi: MetricsMoreClient;
  /** One client per configured node, the default first (long-lived: the JSON-RPC batching spans requests). */
  nodes: readonly NodeRpcClient[];
}

export function createLoaders(deps: LoaderDeps, clients: LoaderClients): Loaders {
  return { evm: createEvmLoaders(deps, clients.dataApi), primary: createPrimaryLoaders(deps, clients.primaryApi),
    icm: createIcmLoaders(deps, clients.icmApi),
    metrics: createMetricsLoaders(deps, clients.metricsApi),
    staking: createStakingLoaders(deps, clients.stakingApi),
    metricsMore: createMetricsMoreLoaders(deps, clients.metricsMoreApi),
    node: createNodeLoaders(deps, clients.nodes) };
}
