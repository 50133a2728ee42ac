import type { DATA_API_EVM_RESOURCES } from './data-api.js';
import type { DATA_API_ICM_RESOURCES } from './data-api-icm.js';
import type { DATA_API_PRIMARY_RESOURCES } from './data-api-primary.js';
import type { DATA_API_PRIMARY_NET_RESOURCES } from './data-api-primary-net.js';
import type { DATA_API_PRIMARY_TXS_RESOURCES } from './data-api-primary-txs.js';
import type { DATA_API_STAKING_RESOURCES } from './data-api-staking.js';
import type { DATA_API_TOKENS_RESOURCES } from './data-api-tokens.js';
import type { EVM_STATE_RESOURCES } from './evm-state.js';
import type { METRICS_API_RESOURCES } from './metrics-api.js';
import type { METRICS_API_MORE_RESOURCES } from './metrics-api-network.js';
import type { NODE_RPC_RESOURCES } from './node-rpc.js';
import type { NODE_RPC_C_RESOURCES } from './node-rpc-c.js';
import type { NODE_RPC_X_RESOURCES } from './node-rpc-x.js';
import type { SIGNATURE_AGGREGATOR_RESOURCES } from './signature-aggregator.js';

/**
 * Every upstream resource the gateway reads: each client declares the names its requests use (its
 * `…_RESOURCES`), and this is their union. The cache gives each a class in `cache/policy.ts`
 * (`RESOURCE_CLASS`, checked to be complete): the cache knows these names, the upstream layer knows
 * nothing of the cache.
 */
export type ResourceKind =
  | (typeof DATA_API_EVM_RESOURCES)[number]
  | (typeof DATA_API_PRIMARY_RESOURCES)[number]
  | (typeof DATA_API_STAKING_RESOURCES)[number]
  | (typeof DATA_API_PRIMARY_TXS_RESOURCES)[number]
  | (typeof DATA_API_PRIMARY_NET_RESOURCES)[number]
  | (typeof DATA_API_ICM_RESOURCES)[number]
  | (typeof DATA_API_TOKENS_RESOURCES)[number]
  | (typeof SIGNATURE_AGGREGATOR_RESOURCES)[number]
  | (typeof METRICS_API_RESOURCES)[number]
  | (typeof METRICS_API_MORE_RESOURCES)[number]
  | (typeof NODE_RPC_RESOURCES)[number]
  | (typeof NODE_RPC_X_RESOURCES)[number]
  | (typeof EVM_STATE_RESOURCES)[number]
  | (typeof NODE_RPC_C_RESOURCES)[number];
