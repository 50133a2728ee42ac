import type { YogaServerInstance } from 'graphql-yoga';
import type { CacheClass, CachePolicy } from './cache/policy.js';
import type { CacheStore } from './cache/store.js';
import type { GatewayContext } from './context.js';
import type { FastPath } from './http/fast-path.js';
import type { GatewayMetrics } from './metrics.js';
import type { LineLevel, Logger } from './telemetry/logger.js';
import type { Transport } from './upstream/transport.js';

/** What tests and the server inject; everything has a production default. */
export interface GatewayDeps {
  /** How upstream calls reach their upstream. @default httpTransport (src/upstream/transport.ts) */
  transport?: Transport;
  /** A ready store (tests); @default from config: Redis behind an LRU, or the LRU alone. */
  store?: CacheStore;
  /** TTL overrides per cache class (tests shorten them). */
  ttlOverrides?: Partial<Record<CacheClass, number>>;
  /** Stale-window overrides per cache class. */
  staleOverrides?: Partial<Record<CacheClass, { swr: number; ifError: number }>>;
  /** Redis for per-client budgets; @default a connection of its own to REDIS_URL, or in-process without it. */
  budgetRedis?: import('ioredis').Redis | import('ioredis').Cluster;
  /** Test-only: wraps the cache policy (the differential oracle plants a wrong policy through it to prove it can fail). */
  wrapPolicy?: (policy: CachePolicy) => CachePolicy;
  /** Test-only: wraps the live feed's address touches (the oracle plants an ignored touch through it). */
  wrapTouches?: (
    touches: import('./live/touches.js').TouchVersions,
  ) => import('./live/touches.js').TouchVersions;
  /**
   * What is derived from list items instead of read from each item's own route (facts held by lists,
   * src/upstream/derivations.ts). Tests give the cache oracle's uncached reference none, and plant a wrong
   * one to show the oracle judges them. @default DERIVATIONS
   */
  derivations?: import('./upstream/derivations.js').Derivations;
  /** Test-only: smaller upstream pages for the token lists (simulated addresses hold few). */
  tokenPageSizes?: Partial<import('./loaders/tokens.js').TokenPageSizes>;
  /** @default the pino `logger` below, honouring config.logLevel */
  log?: (level: LineLevel, message: string) => void;
  /** Structured logger (request lines, Yoga's own logs; also `log` when that is not given). @default pino on stdout at config.logLevel */
  logger?: Logger;
  /** The clock of every cache decision (tests move it); sockets, leases, budgets keep real time. @default Date.now */
  now?: () => number;
}

export interface Gateway {
  yoga: YogaServerInstance<Record<string, unknown>, GatewayContext>;
  /** A websocket upgrade's client address, as budgets see it (forwarded behind TRUSTED_PROXIES). */
  wsClientOf: (req: import('node:http').IncomingMessage) => string;
  /** Whether a graphql-ws upgrade from this browser `Origin` is let in: the CORS allowlist's answer. */
  wsOriginAllowed: (origin: string) => boolean;
  store: CacheStore;
  metrics: GatewayMetrics;
  logger: Logger;
  /** The live head feed (subscriptions, head-keyed cache entries); undefined without LIVE_WS. */
  live?: import('./live/feed.js').LiveFeed;
  /** Address activity on this replica (addressActivity); undefined without LIVE_WS. */
  liveActivity?: import('./live/activity-feed.js').ActivityFeed;
  /** The route the Data API's webhook deliveries reach (WEBHOOK_URL); undefined when off. */
  webhook?: import('./live/create-live.js').Live['webhook'];
  /** Response-cache hits and direct execution before Yoga (src/http/fast-path.ts); undefined when off. */
  fastPath?: FastPath;
  /** Resolves when the shared cache answers (or after a short bound: a down cache never blocks start-up). */
  ready(): Promise<void>;
  /** Resolves once the cache's background work begun so far (refreshes, writes) is done: tests wait on it. */
  settled(): Promise<void>;
  /**
   * Reads PERSISTED_OPERATIONS_FILE again (the server calls it on SIGHUP); throws, keeping the operations it
   * had, when a file does not read. Nothing to do without persisted operations.
   */
  reloadPersistedOperations(): void;
  close(): Promise<void>;
}
