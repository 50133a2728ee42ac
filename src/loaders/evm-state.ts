import DataLoader from 'dataloader';
import { gqlError } from '../errors.js';
import type { BlockPin, EvmStateClient } from '../upstream/evm-state.js';
import type { Page, UpstreamRequest } from '../upstream/request.js';
import type { EvmHeader } from '../upstream/schemas/evm-state.js';
import {
  cachedRequests,
  keyIn,
  type LoaderDeps,
  listIdentityOf,
  type PagedList,
  pagedList,
} from './request-loader.js';

/**
 * Per-request access to the EVM endpoints of the configured nodes (EVM state: balances, code,
 * storage, calls, logs, proofs). An EVM chain id is served by the endpoint whose `eth_chainId`
 * answers it (asked once, slow-moving, cached): a C-Chain, an L1's EVM, or any EVM node named in
 * NODE_RPC_URL.
 *
 * Reads of one endpoint share ONE DataLoader: what a query reads in the same tick is one cache
 * round trip, after which every miss is sent in the same tick, so the JSON-RPC client puts them in
 * one batch (≤ 40 calls per batch). `latest` is resolved once per request and chain
 * (eth_blockNumber, head class), so every read of a query names the same block and sees one state.
 */
export interface EvmEndpointHandle {
  readonly chainId: string;
  read<T>(describe: (client: EvmStateClient) => UpstreamRequest<T>): Promise<T>;
  /** A list this endpoint pages (logs by block window); its identity is the endpoint and its first page's request. */
  pages<T>(
    describe: (client: EvmStateClient, pageToken: string | null) => UpstreamRequest<Page<T>>,
  ): PagedList<T>;
  /** `latest`, a decimal block number or a 0x block hash, as a pin every read can name. */
  pin(block: string): Promise<BlockPin>;
  /** The pinned block's header (hash, state root). */
  header(pin: BlockPin): Promise<EvmHeader>;
}

export interface EvmStateLoaders {
  /** The endpoint serving an EVM chain id; BAD_USER_INPUT when no configured node serves it. */
  endpoint(chainId: string): Promise<EvmEndpointHandle>;
}

const HASH = /^0x[0-9a-f]{64}$/;

export function createEvmStateLoaders(
  deps: LoaderDeps,
  clients: readonly EvmStateClient[],
): EvmStateLoaders {
  const loaders = new Map<EvmStateClient, DataLoader<UpstreamRequest<unknown>, unknown, string>>();
  const loaderOf = (c: EvmStateClient) => {
    let l = loaders.get(c);
    if (!l) {
      l = new DataLoader((reqs) => cachedRequests(deps, reqs), {
        cacheKeyFn: keyIn(deps),
        maxBatchSize: 100,
      });
      loaders.set(c, l);
    }
    return l;
  };
  const read = <T>(c: EvmStateClient, req: UpstreamRequest<T>) =>
    loaderOf(c).load(req as UpstreamRequest<unknown>) as Promise<T>;
  const endpoints = new Map<string, Promise<EvmEndpointHandle>>();

  function handle(client: EvmStateClient, chainId: string): EvmEndpointHandle {
    const header = (pin: BlockPin): Promise<EvmHeader> => read(client, client.header(pin));
    return {
      chainId,
      read: (describe) => read(client, describe(client)),
      pages: <T>(
        describe: (c: EvmStateClient, pageToken: string | null) => UpstreamRequest<Page<T>>,
      ) =>
        pagedList<Page<T>>(`${chainId}|${listIdentityOf(describe(client, null))}`, (pageToken) =>
          read(client, describe(client, pageToken)),
        ),
      header,
      async pin(block) {
        if (block === 'latest')
          return { number: await read(client, client.blockNumber()), head: true };
        if (HASH.test(block)) {
          const h = await header({ number: '0', hash: block });
          return { number: h.number, hash: h.hash };
        }
        return { number: block };
      },
    };
  }

  async function discover(chainId: string): Promise<EvmEndpointHandle> {
    const answers = await Promise.allSettled(clients.map((c) => read(c, c.chainId())));
    const i = answers.findIndex((a) => a.status === 'fulfilled' && a.value === chainId);
    if (i >= 0) return handle(clients[i]!, chainId);
    // A node that did not answer may be the one serving the chain: its error, not "not served".
    const failed = answers.find((a): a is PromiseRejectedResult => a.status === 'rejected');
    if (failed) throw failed.reason;
    throw gqlError(
      'BAD_USER_INPUT',
      `No configured EVM node serves chain ${chainId} (NODE_RPC_URL, EVM_CHAINS)`,
      { argument: 'chainId', reason: 'EVM_CHAIN_NOT_SERVED' },
    );
  }

  return {
    endpoint(chainId) {
      let p = endpoints.get(chainId);
      if (!p) {
        p = discover(chainId);
        endpoints.set(chainId, p);
      }
      return p;
    },
  };
}
