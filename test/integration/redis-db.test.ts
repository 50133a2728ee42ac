import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hasRedisServer, startRedisServer, type TestRedis } from '../support/redis.js';
import {
  ALLOCATOR_KEY,
  allocateRedisDb,
  allocateRedisDbFrom,
  type RedisDbPool,
  redisDbPool,
} from '../support/redis-db.js';

/** The Redis database allocator (test/support/redis-db.ts) every test file gets its Redis from. */
const dbOf = (url: string) => Number(new URL(url).pathname.slice(1));

async function onDb<T>(url: string, use: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(url);
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}

describe('the run’s pool', () => {
  it('hands out a database of its own, never the allocator’s 0, empty', async () => {
    const pool = inject('redisDbPool');
    const [one, two] = [await allocateRedisDb(), await allocateRedisDb()];
    expect(one).not.toBe(two);
    for (const url of [one, two]) {
      expect(url.startsWith(`${pool.url}/`)).toBe(true);
      expect(dbOf(url)).toBeGreaterThanOrEqual(1);
      expect(dbOf(url)).toBeLessThan(pool.databases);
      expect(await onDb(url, (client) => client.dbsize())).toBe(0);
    }
  });
});

// On a server of its own: the counter's state and the wrap-around would disturb the run's pool.
// Skipped only on a machine without the redis-server binary (tests then share REDIS_URL's server, which
// this block must not wrap or reset); CI and the README's set-up have the binary, so it runs there.
describe.skipIf(!hasRedisServer())('on a private server', () => {
  let redis: TestRedis;
  let pool: RedisDbPool;
  beforeAll(async () => {
    redis = await startRedisServer();
    pool = await redisDbPool(redis);
  });
  afterAll(() => redis?.stop());

  it('reads the server’s database count and starts counting afresh', async () => {
    expect(pool).toEqual({ url: redis.url, databases: 1024, wrap: true });
    await allocateRedisDbFrom(pool);
    await onDb(`${redis.url}/0`, (client) => client.set(ALLOCATOR_KEY, '500'));
    const again = await redisDbPool(redis);
    expect(dbOf(await allocateRedisDbFrom(again))).toBe(1);
  });

  it('two allocations from concurrent connections never collide', async () => {
    const lane = () => Promise.all(Array.from({ length: 40 }, () => allocateRedisDbFrom(pool)));
    const [left, right] = await Promise.all([lane(), lane()]);
    const all = [...left, ...right];
    expect(new Set(all).size).toBe(80);
    expect(all.every((url) => dbOf(url) >= 1 && dbOf(url) < 1024)).toBe(true);
  });

  it('a database comes back empty, though someone wrote to it before', async () => {
    await redisDbPool(redis);
    for (const db of [1, 2])
      await onDb(`${redis.url}/${db}`, (client) => client.set('left-over', 'x'));
    const urls = [await allocateRedisDbFrom(pool), await allocateRedisDbFrom(pool)];
    expect(urls.map(dbOf)).toEqual([1, 2]);
    for (const url of urls) expect(await onDb(url, (client) => client.dbsize())).toBe(0);
    expect(await onDb(`${redis.url}/0`, (client) => client.get(ALLOCATOR_KEY))).toBe('2');
  });

  it('past the last database: wraps around (flushed) on our own server, a clear error on a borrowed one', async () => {
    await redisDbPool(redis);
    const small = { ...pool, databases: 4 };
    const first = await allocateRedisDbFrom(small);
    await onDb(first, (client) => client.set('held', 'x'));
    const more = [await allocateRedisDbFrom(small), await allocateRedisDbFrom(small)];
    expect([first, ...more].map(dbOf)).toEqual([1, 2, 3]);
    const wrapped = await allocateRedisDbFrom(small);
    expect(dbOf(wrapped)).toBe(1);
    expect(await onDb(wrapped, (client) => client.dbsize())).toBe(0);

    await redisDbPool(redis);
    const borrowed = { ...small, wrap: false };
    for (let i = 0; i < 3; i++) await allocateRedisDbFrom(borrowed);
    await expect(allocateRedisDbFrom(borrowed)).rejects.toThrow(
      /allocation #4, but the server at .* has only 3 databases besides the allocator's 0: install redis-server/,
    );
  });
});
