import DataLoader from 'dataloader';
import type { NodeRpcClient } from '../upstream/node-rpc.js';
import type { Page, UpstreamRequest } from '../upstream/request.js';
import {
  cachedRequests,
  keyIn,
  type LoaderDeps,
  listIdentityOf,
  type PagedList,
  pagedList,
} from './request-loader.js';

/**
 * Per-request access to the configured nodes. Reads of one node share ONE DataLoader, whatever the
 * method: the fields of one query that ask a node something in the same tick form one batch, which
 * becomes one cache round trip (one Redis MGET) after which every miss calls its client in the same
 * tick. That keeps the JSON-RPC layer's own tick batching intact: ten EVM fields become one batch
 * request to `/ext/bc/C/rpc`, while node-style calls (no batches there) go out concurrently, each
 * distinct call once.
 */
/** `getUTXOs` pages are fetched at the node's largest limit (larger ones are cut to it): clients share pages. */
export const NODE_UTXO_PAGE_SIZE = 1024;

export interface NodeHandle {
  readonly name: string;
  readonly isDefault: boolean;
  /** A cacheable read: deduplicated in this request, served by the shared cache, TTL per method. */
  read<T>(describe: (client: NodeRpcClient) => UpstreamRequest<T>): Promise<T>;
  /**
   * A call that is never cached (admin methods, issuing transactions): straight to the node, and the
   * response that contains it is marked uncacheable.
   */
  call<T>(describe: (client: NodeRpcClient) => UpstreamRequest<T>): Promise<T>;
  /**
   * A list the node pages itself (`getUTXOs`): `describe` gives the request for one page, read like
   * any other; the list's identity is this node and its first page's request.
   */
  pages<T>(
    describe: (client: NodeRpcClient, pageToken: string | null) => UpstreamRequest<Page<T>>,
  ): PagedList<T>;
  /** The identity of a list the node answers whole (peers): this node and the request. */
  identityOf(describe: (client: NodeRpcClient) => UpstreamRequest<unknown>): string;
}

export interface NodeLoaders {
  /** Configured node names, the default first. */
  readonly names: readonly string[];
  readonly defaultName: string;
  /** The named node (the default when name is omitted); undefined for a name that is not configured. */
  get(name?: string | null): NodeHandle | undefined;
}

export function createNodeLoaders(
  deps: LoaderDeps,
  clients: readonly NodeRpcClient[],
): NodeLoaders {
  const handles = new Map<string, NodeHandle>();
  const defaultName = clients[0]?.name ?? 'default';

  function handle(client: NodeRpcClient): NodeHandle {
    const run = <T>(req: UpstreamRequest<T>): Promise<T> => {
      // Told to the response cache: something uncacheable went into this response.
      deps.observer?.served({
        key: keyIn(deps)(req as UpstreamRequest<unknown>),
        label: req.resource,
        freshMs: 0,
        stale: false,
      });
      return req.run({ scope: deps.scope });
    };
    const reads = new DataLoader<UpstreamRequest<unknown>, unknown, string>(
      (reqs) => cachedRequests(deps, reqs),
      {
        cacheKeyFn: keyIn(deps),
        maxBatchSize: 100,
      },
    );
    const read = <T>(describe: (c: NodeRpcClient) => UpstreamRequest<T>): Promise<T> => {
      const req = describe(client);
      // A never-cached method must not pass through the read-through, even by mistake.
      if (deps.policy.classOf(req.resource) === 'never') return run(req);
      return reads.load(req) as Promise<T>;
    };
    const identityOf = (describe: (c: NodeRpcClient) => UpstreamRequest<unknown>) =>
      `${client.name}|${listIdentityOf(describe(client))}`;
    return {
      name: client.name,
      isDefault: client.name === defaultName,
      read,
      call: <T>(describe: (c: NodeRpcClient) => UpstreamRequest<T>) => run(describe(client)),
      pages: <T>(
        describe: (c: NodeRpcClient, pageToken: string | null) => UpstreamRequest<Page<T>>,
      ) =>
        pagedList<Page<T>>(
          identityOf((c) => describe(c, null)),
          (pageToken) => read((c) => describe(c, pageToken)),
        ),
      identityOf,
    };
  }

  return {
    names: clients.map((c) => c.name),
    defaultName,
    get(name) {
      const wanted = name ?? defaultName;
      let h = handles.get(wanted);
      if (!h) {
        const client = clients.find((c) => c.name === wanted);
        if (!client) return undefined;
        h = handle(client);
        handles.set(wanted, h);
      }
      return h;
    },
  };
}
