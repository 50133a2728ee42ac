import type { DataApiClient } from '../upstream/data-api.js';
import type { PrimaryApiClient } from '../upstream/data-api-primary.js';
import { createEvmLoaders, type EvmLoaders } from './evm.js';
import { createPrimaryLoaders, type PrimaryLoaders } from './primary.js';
import type { LoaderDeps } from './request-loader.js';

/** Every per-request loader, grouped by upstream resource family. Created fresh for each request. */
export interface Loaders {
  evm: EvmLoaders;
  primary: PrimaryLoaders;
}

export interface LoaderClients {
  dataApi: DataApiClient;
  primaryApi: PrimaryApiClient;
}

export function createLoaders(deps: LoaderDeps, clients: LoaderClients): Loaders {
  return { evm: createEvmLoaders(deps, clients.dataApi), primary: createPrimaryLoaders(deps, clients.primaryApi) };
}
