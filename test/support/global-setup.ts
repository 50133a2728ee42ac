import type { TestProject } from 'vitest/node';
import { startRedisServer, type TestRedis } from './redis.js';
import { redisDbPool } from './redis-db.js';

let redis: TestRedis | undefined;

/**
 * One private Redis for the whole run (see test/support/redis.ts). Tests reach it only through
 * `allocateRedisDb()` (test/support/redis-db.ts): a database of their own, never a fixed number.
 */
export async function setup(project: TestProject): Promise<void> {
  redis = await startRedisServer();
  project.provide('redisDbPool', await redisDbPool(redis));
}

export async function teardown(): Promise<void> {
  await redis?.stop();
}
