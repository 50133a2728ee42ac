import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientBudget } from '../../src/edge/client-budget.js';
import { allocateRedisDb } from '../support/redis-db.js';

/**
 * A refusal given stays given until its window ends, whatever happens to Redis's counter meanwhile: a
 * failover that loses the last writes (replication is asynchronous), or the insurance limiter counting
 * afresh while Redis is away. Found by `npm run chaos -- --only failover` (the live lock's primary killed:
 * an over-budget client answered once).
 */
const redisUrl = await allocateRedisDb();
let redis: Redis;

beforeAll(async () => {
  redis = new Redis(redisUrl);
});
afterAll(() => redis.quit());

describe('a client budget over a Redis that loses its counter', () => {
  it('a refused client stays refused after its counter is lost; a refund lets Redis decide again', async () => {
    const budget = createClientBudget({ perMinute: 100, redis, keyPrefix: 'test:budget' });
    expect(await budget.charge('ip:10.9.9.9', 60)).toMatchObject({ ok: true, remaining: 40 });
    const refused = await budget.charge('ip:10.9.9.9', 60);
    expect(refused).toMatchObject({ ok: false });
    // The counter is gone, as after a failover that lost it.
    await redis.flushdb();
    const again = await budget.charge('ip:10.9.9.9', 10);
    expect(again.ok).toBe(false);
    expect(again.ok === false && again.retryAfterSec).toBeGreaterThan(0);
    // Another client is not affected.
    expect((await budget.charge('ip:10.1.1.1', 10)).ok).toBe(true);
    // A refund (an admitted request that cost less than charged) sends the client back to Redis.
    await budget.settle('ip:10.9.9.9', -10);
    expect((await budget.charge('ip:10.9.9.9', 10)).ok).toBe(true);
  });
});
