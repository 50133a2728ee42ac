import type { Plugin } from 'graphql-yoga';
import { Counter, Gauge } from 'prom-client';
import { type AcrossProcesses, createMissLease } from '../cache/miss-lease.js';
import type { CachePolicy, TtlSpec } from '../cache/policy.js';
import { connectRedis, type RedisClient } from '../cache/redis-connect.js';
import type { CacheStore } from '../cache/store.js';
import type { Config } from '../config.js';
import type { GatewayMetrics } from '../metrics.js';
import type { UpstreamRequest } from '../upstream/request.js';
import { MemoryHeadBus, RedisHeadBus } from './bus.js';
import { liveCacheHooks } from './cache-hooks.js';
import { LiveFeed } from './feed.js';
import { useEventIds } from './use-event-ids.js';
import { useLiveExtensions } from './use-live-extensions.js';

/** What the gateway needs of the live parts; every piece is inert when its setting is off. */
export interface Live {
  feed?: LiveFeed;
  acrossProcesses?: AcrossProcesses;
  tagOf(req: UpstreamRequest<unknown>, touched?: Map<string, string>): string | undefined;
  specOf(req: UpstreamRequest<unknown>): TtlSpec | undefined;
  /** The version of whole-response cache entries: the heads of the live chains. */
  epoch(): string;
  plugins: Plugin[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

type Log = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

export function createLive(
  config: Config,
  o: { store: CacheStore; policy: CachePolicy; metrics: GatewayMetrics; log: Log },
): Live {
  const registers = [o.metrics.registry];
  let leaseRedis: RedisClient | undefined;
  let acrossProcesses: AcrossProcesses | undefined;
  if (config.redisUrl && config.missLeaseMs > 0) {
    const opts = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: config.redisCommandTimeoutMs,
      retryStrategy: (n: number) => Math.min(n * 100, 2_000),
    };
    leaseRedis = connectRedis(config.redisUrl, {
      cluster: config.redisCluster,
      options: opts,
      clusterOptions: { enableOfflineQueue: false },
    });
    leaseRedis.on('error', () => {});
    const leases = new Counter({
      name: 'gateway_miss_lease_total',
      help: 'Cross-replica miss leases: held (loaded here), waited (a peer loaded), expired (loaded after the bound).',
      labelNames: ['event'],
      registers,
    });
    acrossProcesses = createMissLease({
      redis: leaseRedis,
      leaseMs: config.missLeaseMs,
      onEvent: (event) => leases.inc({ event }),
    });
  }
  const none: Live = {
    acrossProcesses,
    tagOf: () => undefined,
    specOf: () => undefined,
    epoch: () => '',
    plugins: [],
    start: async () => {},
    stop: async () => void leaseRedis?.disconnect(),
  };
  if (config.liveChains.length === 0) return none;

  new Gauge({
    name: 'gateway_live_subscribers',
    help: 'Subscriptions this replica serves now (SSE and graphql-ws).',
    registers,
    collect() {
      this.set(feed.subscriberCount());
    },
  });
  const sockets = new Gauge({
    name: 'gateway_live_upstream_sockets',
    help: 'Upstream node websockets this replica holds open (one per followed chain across all replicas).',
    registers,
  });
  let lastLog = 0;
  const bus = config.redisUrl
    ? new RedisHeadBus(config.redisUrl, config.redisCluster, (e) => {
        if (Date.now() - lastLog > 10_000) {
          lastLog = Date.now();
          o.log('warn', `live: redis ${e.message}`);
        }
      })
    : new MemoryHeadBus();
  const feed = new LiveFeed({
    chains: config.liveChains,
    bus,
    lockTtlMs: config.liveLockTtlMs,
    log: (level, message) => o.log(level, message),
    onSocket: (d) => sockets.inc(d),
  });
  const hooks = liveCacheHooks(
    feed,
    o.policy,
    config.liveChains.map((c) => c.chainId),
  );
  return {
    feed,
    acrossProcesses,
    tagOf: hooks.tagOf,
    specOf: hooks.specOf,
    epoch: hooks.epoch,
    plugins: [useLiveExtensions(feed) as Plugin, useEventIds()],
    start: () => feed.start(),
    stop: async () => {
      await feed.stop();
      leaseRedis?.disconnect();
    },
  };
}
