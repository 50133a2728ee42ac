import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { TEST_REDIS_DATABASES, type TestRedis } from './redis.js';

/**
 * Redis databases for tests, allocated instead of picked by hand: `await allocateRedisDb()` (at the
 * top level of a test file or in a `beforeAll`) returns a URL on a database nobody else in the run
 * holds, already flushed. A file that needs two databases calls it twice; two gateways that must share
 * one (replicas) share one call's URL.
 *
 * The allocator is an INCR on a counter in database 0 of the run's Redis (database 0 is the
 * allocator's: no test gets it), so it is atomic across vitest's worker processes. The n-th
 * allocation gets database 1 + (n - 1) mod (databases - 1).
 *
 * - On the private `redis-server` (test/support/redis.ts, started with TEST_REDIS_DATABASES
 *   databases) the numbers wrap around: one run allocates about a hundred, so a database comes back
 *   only after many whole runs (watch-mode reruns), when the file that held it has long finished; and
 *   every allocation flushes what it hands out.
 * - On the `REDIS_URL` fallback (no `redis-server` binary) the server is not ours and may have only
 *   the default 16 databases, which one run can outnumber while their holders still run: there the
 *   allocator never wraps and throws, naming the fix, once the databases run out. The global setup
 *   resets the counter at the start of a run; a watch-mode run going on past the databases fails
 *   the same way (restart vitest).
 */
export interface RedisDbPool {
  /** The server, without a database. */
  url: string;
  /** How many databases the server has (CONFIG GET databases). */
  databases: number;
  /** Whether numbers are reused once all were handed out (the private server only, see above). */
  wrap: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    redisDbPool: RedisDbPool;
  }
}

export const ALLOCATOR_KEY = 'test:redis-db-allocator';

const serverUrl = (url: string) => url.replace(/\/\d*$/, '');
const dbUrl = (url: string, db: number) => `${serverUrl(url)}/${db}`;

async function withClient<T>(url: string, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  client.on('error', () => {});
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}

/**
 * The pool of a server the run starts with (the global setup; scripts with a server of their own):
 * reads its database count and resets the counter.
 */
export async function redisDbPool(redis: Pick<TestRedis, 'url' | 'owned'>): Promise<RedisDbPool> {
  return withClient(dbUrl(redis.url, 0), async (client) => {
    let databases = redis.owned ? TEST_REDIS_DATABASES : 16;
    try {
      const reply = (await client.call('CONFIG', 'GET', 'databases')) as string[];
      databases = Number(reply[1]) || databases;
    } catch {
      // A managed Redis may refuse CONFIG: assume Redis's default.
    }
    if (databases < 2)
      throw new Error(`the Redis at ${redis.url} has a single database; tests need more`);
    await client.del(ALLOCATOR_KEY);
    return { url: serverUrl(redis.url), databases, wrap: redis.owned };
  });
}

/** Allocates a database from `pool` (see the comment above): a URL on it, flushed. */
export async function allocateRedisDbFrom(pool: RedisDbPool): Promise<string> {
  const usable = pool.databases - 1;
  const url = await withClient(dbUrl(pool.url, 0), async (client) => {
    const n = await client.incr(ALLOCATOR_KEY);
    if (n > usable && !pool.wrap)
      throw new Error(
        `Redis database allocation #${n}, but the server at ${pool.url} has only ${usable} databases besides the allocator's 0: install redis-server (the suite then starts its own with ${TEST_REDIS_DATABASES}), or start this one with --databases ${TEST_REDIS_DATABASES} and restart vitest`,
      );
    return dbUrl(pool.url, 1 + ((n - 1) % usable));
  });
  await withClient(url, (client) => client.flushdb());
  return url;
}

/** A Redis database of the run's private server for this test file alone, flushed. */
export function allocateRedisDb(): Promise<string> {
  return allocateRedisDbFrom(inject('redisDbPool'));
}
