import type { DataApiClient } from '../upstream/data-api.js';
import { createEvmLoaders, type EvmLoaders } from './evm.js';
import type { LoaderDeps } from './request-loader.js';

/** Every per-request loader, grouped by upstream resource family. Created fresh for each request. */
export interface Loaders {
  evm: EvmLoaders;
}

export interface LoaderClients {
  dataApi: DataApiClient;
}

export function createLoaders(deps: LoaderDeps, clients: LoaderClients): Loaders {
  return { evm: createEvmLoaders(deps, clients.dataApi) };
}
