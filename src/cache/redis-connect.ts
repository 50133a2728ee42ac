import { createRequire } from 'node:module';
import type { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';

/** One Redis connection: a single server or a Cluster (ioredis speaks both with one command API). */
export type RedisClient = Redis | Cluster;

type IoRedis = typeof import('ioredis');
let lib: IoRedis | undefined;
/**
 * ioredis, loaded on the first connection: a gateway without Redis never loads it (about 8 MB of
 * resident memory). ioredis is a CommonJS package, so `require` gives the same module `import` would.
 */
function ioredis(): IoRedis {
  lib ??= createRequire(import.meta.url)('ioredis') as IoRedis;
  return lib;
}

/**
 * Connects to `url`: one server, or with `cluster` a Redis Cluster seeded by the URL's host, where every
 * node is reached with the URL's credentials. Every Redis user in the gateway (cache, miss leases, head
 * bus, client budgets) connects here, so they all read the URL the same way.
 */
export function connectRedis(
  url: string,
  settings: {
    cluster: boolean;
    options: RedisOptions;
    clusterOptions?: Omit<ClusterOptions, 'redisOptions'>;
  },
): RedisClient {
  const { Cluster, Redis } = ioredis();
  if (!settings.cluster) return new Redis(url, settings.options);
  const u = new URL(url);
  return new Cluster([{ host: u.hostname, port: Number(u.port || 6379) }], {
    ...settings.clusterOptions,
    redisOptions: {
      ...settings.options,
      password: u.password ? decodeURIComponent(u.password) : undefined,
      username: u.username ? decodeURIComponent(u.username) : undefined,
    },
  });
}

/** Whether a client is a Cluster (keys of one batch may then live on different nodes). */
export const isCluster = (c: RedisClient): c is Cluster => c.isCluster;
