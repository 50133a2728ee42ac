import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { ActivityBlock } from '../../src/live/activity.js';
import { activityChannel, RedisActivityBus } from '../../src/live/activity-bus.js';
import { allocateRedisDb } from '../support/redis-db.js';

/** The activity bus on a real Redis: once per block, bounded log, followed addresses by expiry. */
let url: string;
let a: RedisActivityBus;
let b: RedisActivityBus;

beforeAll(async () => {
  url = await allocateRedisDb();
  a = new RedisActivityBus(url, false, () => {}, 16);
  b = new RedisActivityBus(url, false, () => {}, 16);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const blk = (n: number): ActivityBlock => ({
  chainId: '9',
  number: String(n),
  head: String(n),
  events: [],
});

it('two publishers of the same blocks: each block is published once, in order, and heard by every bus', async () => {
  const heard: string[] = [];
  b.onBlock((x) => heard.push(x.number));
  // Each bus subscribes on its own schedule: polled until Redis counts both.
  const probe = new Redis(url);
  await vi.waitFor(async () =>
    expect(await probe.pubsub('NUMSUB', activityChannel(url))).toEqual([activityChannel(url), 2]),
  );
  probe.disconnect();
  const results: boolean[] = [];
  for (let n = 1; n <= 20; n++)
    results.push(...(await Promise.all([a.publish(blk(n)), b.publish(blk(n))])));
  expect(results.filter(Boolean)).toHaveLength(20);
  // A block at or below the cursor is refused even after later ones.
  expect(await a.publish(blk(3))).toBe(false);
  expect(await a.cursor('9')).toBe(20n);
  await expect.poll(() => heard.length).toBe(20);
  expect(heard).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1)));
  // The log keeps the last 16 blocks.
  const { blocks, oldest } = await b.since('9', 10n);
  expect(oldest).toBe(5n);
  expect(blocks.map((x) => x.number)).toEqual([
    '11',
    '12',
    '13',
    '14',
    '15',
    '16',
    '17',
    '18',
    '19',
    '20',
  ]);
});

it("followed addresses: the union of every replica's, an interest only ever lengthened, lapsed ones removed", async () => {
  await a.follow('9', ['0xaa', '0xbb'], 2_000);
  await b.follow('9', ['0xbb'], 1_500);
  expect((await a.followed('9', 1_600, 10)).sort()).toEqual(['0xaa', '0xbb']);
  expect(await a.followed('9', 2_001, 10)).toEqual([]);
  const redis = new Redis(url);
  expect(await redis.zcard('gw:live:{9}:act:follow')).toBe(0);
  redis.disconnect();
  // Bounded: the interests that expire last are kept.
  await a.follow('9', ['0x1', '0x2', '0x3'], 5_000);
  await a.follow('9', ['0x3'], 6_000);
  expect(await a.followed('9', 0, 1)).toEqual(['0x3']);
});
