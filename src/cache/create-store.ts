import type { Config } from '../config.js';
import type { GatewayMetrics } from '../metrics.js';
import { RedisStore } from './redis-store.js';
import { type CacheStore, MemoryStore } from './store.js';
import { TieredStore } from './tiered-store.js';

/** The gateway's store from its configuration: the LRU, with Redis behind it when REDIS_URL is set. */
export function createStore(
  config: Config,
  log: (level: 'warn', message: string) => void,
  metrics: GatewayMetrics,
  now: () => number = Date.now,
): CacheStore {
  const lru = new MemoryStore({
    maxEntries: config.memoryCacheMaxEntries,
    maxBytes: memoryBudget(config).store,
  });
  if (!config.redisUrl) return lru;
  let lastLogged = 0;
  const redis = new RedisStore({
    url: config.redisUrl,
    cluster: config.redisCluster,
    commandTimeoutMs: config.redisCommandTimeoutMs,
    now,
    onError: (op, e) => {
      metrics.redisErrors.inc({ op });
      // Redis being down is expected to be survivable: say so, at most every 10 s.
      if (now() - lastLogged > 10_000) {
        lastLogged = now();
        log(
          'warn',
          `redis ${op} failed (${e.message}); serving from the upstreams until it is back`,
        );
      }
    },
  });
  return new TieredStore(lru, redis, 60_000, now, (tier, hits, misses) => {
    if (hits) metrics.cacheTierReads.inc({ tier, result: 'hit' }, hits);
    if (misses) metrics.cacheTierReads.inc({ tier, result: 'miss' }, misses);
  });
}

/**
 * MEMORY_CACHE_MAX_BYTES split between the LRU's entries (three quarters: upstream answers, whole
 * responses, page snapshots) and the parsed values the read-through keeps of the hottest of them.
 */
export function memoryBudget(config: Pick<Config, 'memoryCacheMaxBytes'>): {
  store: number;
  parsed: number;
} {
  const parsed = Math.floor(config.memoryCacheMaxBytes / 4);
  return { store: config.memoryCacheMaxBytes - parsed, parsed };
}
