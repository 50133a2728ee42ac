import type { TestProject } from 'vitest/node';
import { startRedisServer, type TestRedis } from './redis.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

let redis: TestRedis | undefined;

/** One private Redis for the whole run (see test/support/redis.ts). */
export async function setup(project: TestProject): Promise<void> {
  redis = await startRedisServer();
  project.provide('redisUrl', redis.url);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
}
