import type { Plugin } from 'graphql-yoga';
import { Counter, Gauge } from 'prom-client';
import { type AcrossProcesses, createMissLease } from '../cache/miss-lease.js';
import type { CachePolicy, TtlSpec } from '../cache/policy.js';
import { connectRedis, type RedisClient } from '../cache/redis-connect.js';
import type { CacheStore } from '../cache/store.js';
import type { Config } from '../config.js';
import type { GatewayMetrics } from '../metrics.js';
import type { LineLevel } from '../telemetry/logger.js';
import type { HttpClient } from '../upstream/http.js';
import type { UpstreamRequest } from '../upstream/request.js';
import { RedisActivityBus } from './activity-bus.js';
import { MemoryActivityBus } from './activity-bus-memory.js';
import { ActivityFeed } from './activity-feed.js';
import { ActivityGate } from './activity-gate.js';
import { ActivitySource } from './activity-source.js';
import { MemoryHeadBus, RedisHeadBus } from './bus.js';
import { liveCacheHooks } from './cache-hooks.js';
import { LiveFeed } from './feed.js';
import type { RpcSocket } from './rpc-socket.js';
import { type SpendOf, type SubscriberBudget, spendOf } from './subscriber-budget.js';
import { AddressTouches, type TouchVersions } from './touches.js';
import { useActivityEventIds } from './use-activity-event-ids.js';
import { useEventIds } from './use-event-ids.js';
import { useLiveExtensions } from './use-live-extensions.js';
import { createWebhooks, type Webhooks } from './webhooks.js';

export type { SpendOf, SubscriberBudget } from './subscriber-budget.js';

/** What the gateway needs of the live parts; every piece is inert when its setting is off. */
export interface Live {
  feed?: LiveFeed;
  activity?: { feed: ActivityFeed; gate: ActivityGate };
  /** `icmMessage`: its per-client gate, and the budget its polls are charged to (none: budgets off). */
  icm?: {
    gate: ActivityGate;
    /** Every identity of a request, as the budgets charge it. */
    identify: (headers: Headers, peer: string | undefined) => readonly string[];
    spend?: SpendOf;
  };
  /** The Data API's webhook deliveries (WEBHOOK_URL); undefined when off. */
  webhook?: Webhooks['route'];
  acrossProcesses?: AcrossProcesses;
  tagOf(req: UpstreamRequest<unknown>, touched?: Map<string, string>): string | undefined;
  specOf(req: UpstreamRequest<unknown>): TtlSpec | undefined;
  /** The version of whole-response cache entries: the heads of the live chains. */
  epoch(): string;
  plugins: Plugin[];
  start(): Promise<void>;
  stop(): Promise<void>;
}

type Log = (level: LineLevel, message: string) => void;

export function createLive(
  config: Config,
  options: {
    store: CacheStore;
    policy: CachePolicy;
    metrics: GatewayMetrics;
    log: Log;
    /** Who a request is, for the per-client subscription limit (the composition root's identifier). */
    clientOf: (headers: Headers, peer: string | undefined) => string;
    /** The Data API's client, for the webhook registration (WEBHOOK_URL). */
    dataApiHttp: HttpClient;
    /** Every identity of a request (the budgets' identifier), for charging a subscription's polls. */
    identify?: (headers: Headers, peer: string | undefined) => readonly string[];
    /** The clients' budgets (undefined: budgets off). */
    budget?: SubscriberBudget;
    /** Test-only: wraps the address touches (the oracle plants a defect through it). */
    wrapTouches?: (t: TouchVersions) => TouchVersions;
  },
): Live {
  const registers = [options.metrics.registry];
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
  const lockHeld = new Gauge({
    name: 'gateway_live_lock_held',
    help: "1 while this replica holds the chain's live lock and follows the node's websocket (exactly one replica per chain should), else 0.",
    labelNames: ['chain'],
    registers,
  });
  for (const c of config.liveChains) lockHeld.set({ chain: c.chainId }, 0);
  new Gauge({
    name: 'gateway_live_head_block',
    help: 'The last head this replica delivered, per chain (its increase is the heads received).',
    labelNames: ['chain'],
    registers,
    collect() {
      for (const c of config.liveChains) {
        const h = feed.head(c.chainId);
        if (h) this.set({ chain: c.chainId }, Number(h.number));
      }
    },
  });
  let lastLog = 0;
  const warn = (e: Error) => {
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      options.log('warn', `live: redis ${e.message}`);
    }
  };
  const bus = config.redisUrl
    ? new RedisHeadBus(config.redisUrl, config.redisCluster, warn)
    : new MemoryHeadBus();
  const dedupe = config.webhook.url
    ? { window: config.webhook.windowBlocks, cap: 100 * config.webhook.windowBlocks }
    : { window: 0, cap: 0 };
  const activityBus = config.redisUrl
    ? new RedisActivityBus(
        config.redisUrl,
        config.redisCluster,
        warn,
        config.activity.logBlocks,
        dedupe,
      )
    : new MemoryActivityBus(config.activity.logBlocks, dedupe);
  const activityCu = new Counter({
    name: 'gateway_live_activity_upstream_cu_total',
    help: "Compute units of the address-activity reader's own node calls (the published prices), by method.",
    labelNames: ['chain', 'method'],
    registers,
  });
  const activitySources = new Map(
    config.liveChains.map((c) => [
      c.chainId,
      new ActivitySource({
        chainId: c.chainId,
        bus: activityBus,
        now: Date.now,
        maxBackfill: 256,
        onCall: (method, cu) => activityCu.inc({ chain: c.chainId, method }, cu),
        maxFollowed: config.activity.followedPerChain,
        log: (level, message) => options.log(level, message),
      }),
    ]),
  );
  // The activity reader's calls (address activity and ICM receipts) serve no request: system work, on the
  // holder's node socket, counted here by chain and method.
  const readerCalls = new Counter({
    name: 'gateway_live_reader_calls_total',
    help: "Node calls the address-activity reader made on the holder's websocket (system work: no request scope, no client charged), by chain and method.",
    labelNames: ['chain', 'method', 'work'],
    registers,
  });
  const metered = (socket: RpcSocket, chain: string): RpcSocket => ({
    closed: socket.closed,
    close: () => socket.close(),
    request: (method, params) => {
      readerCalls.inc({ chain, method, work: 'system' });
      return socket.request(method, params);
    },
  });
  const activity = new ActivityFeed({
    bus: activityBus,
    shares: {
      capacity: config.activity.followedPerChain,
      perClient: config.activity.addressesPerClient,
    },
  });
  new Gauge({
    name: 'gateway_live_activity_subscribers',
    help: 'addressActivity subscriptions this replica serves now.',
    registers,
    collect() {
      this.set(activity.subscriberCount());
    },
  });
  new Gauge({
    name: 'gateway_live_activity_block',
    help: 'The last block whose address activity this replica delivered, per chain.',
    labelNames: ['chain'],
    registers,
    collect() {
      for (const [chain, n] of activity.lastBlocks()) this.set({ chain }, Number(n));
    },
  });
  const feed = new LiveFeed({
    chains: config.liveChains,
    bus,
    lockTtlMs: config.liveLockTtlMs,
    touches:
      config.touches && (options.wrapTouches ?? ((t) => t))(new AddressTouches(config.touches)),
    log: (level, message) => options.log(level, message),
    onSocket: (d, chain) => {
      sockets.inc(d);
      lockHeld.inc({ chain }, d);
    },
    afterHeads: (chainId, head, socket, blocks) =>
      activitySources.get(chainId)!.upTo(head, metered(socket, chainId), blocks),
  });
  const webhooks = config.webhook.url
    ? createWebhooks(config, {
        bus: activityBus,
        heads: bus,
        feed,
        registers,
        log: options.log,
        warn,
        http: options.dataApiHttp,
      })
    : undefined;
  const hooks = liveCacheHooks(
    feed,
    options.policy,
    config.liveChains.map((c) => c.chainId),
  );
  return {
    feed,
    activity: {
      feed: activity,
      gate: new ActivityGate(
        config.activity.subscriptionsPerClient,
        config.activity.maxAddresses,
        options.clientOf,
      ),
    },
    icm: {
      gate: new ActivityGate(
        config.activity.icmSubscriptionsPerClient,
        config.activity.maxAddresses,
        options.clientOf,
      ),
      identify: options.identify ?? ((headers, peer) => [options.clientOf(headers, peer)]),
      spend: options.budget && spendOf(options.budget),
    },
    webhook: webhooks?.route,
    acrossProcesses,
    tagOf: hooks.tagOf,
    specOf: hooks.specOf,
    epoch: hooks.epoch,
    plugins: [useLiveExtensions(feed) as Plugin, useEventIds(), useActivityEventIds() as Plugin],
    start: async () => {
      await feed.start();
      activity.start();
      webhooks?.start();
    },
    stop: async () => {
      await webhooks?.stop();
      await feed.stop();
      await activity.stop();
      leaseRedis?.disconnect();
    },
  };
}
