import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMissLease } from '../../src/cache/miss-lease.js';
import { allocateRedisDb } from '../support/redis-db.js';

/**
 * The cross-replica miss lease over a real Redis. Each replica first reads the shared store, misses,
 * then asks for the lease; a peer can load, store and release between the two. The lease alone then
 * lets the late replica load the key a second time: it must read the store again once it holds it.
 */
let redis: Redis;

beforeAll(async () => {
  const url = await allocateRedisDb();
  redis = new Redis(url);
});
afterAll(() => redis?.disconnect());

describe('miss lease', () => {
  it('a value stored between a replica’s miss and its lease is taken from the store, not loaded again', async () => {
    const store = new Map<string, string>();
    let loads = 0;
    const load = async () => {
      loads++;
      store.set('k', 'v');
      return 'v';
    };
    const readBack = async () => store.get('k');
    const a = createMissLease({ redis, leaseMs: 2_000 });
    const b = createMissLease({ redis, leaseMs: 2_000 });
    // Replica b has read the store and missed (the store is empty); then a loads the key whole: it
    // takes the lease, loads, stores and releases.
    expect(await readBack()).toBeUndefined();
    expect(await a('k', load, readBack)).toBe('v');
    // Only now does b ask for the lease, which is free again.
    expect(await b('k', load, readBack)).toBe('v');
    expect(loads).toBe(1);
    // b let the lease go at once: nothing waits on it.
    expect(await redis.exists('k:lease')).toBe(0);
  });

  it('leases asked for in one tick start their loads in one tick, however their re-reads answer', async () => {
    // A DataLoader batch of EVM reads asks for its leases together; its loads must start together, or
    // the JSON-RPC calls they make split into batches of one (seen in the tracing test under load).
    const lease = createMissLease({ redis, leaseMs: 2_000 });
    const started: string[] = [];
    // How many loads had started by the first macrotask after the first load began (awaited below:
    // the loads may all finish before that macrotask runs).
    let startedTogether: Promise<number> | undefined;
    const load = (v: string) => async () => {
      startedTogether ??= new Promise((r) => setImmediate(() => r(started.length)));
      started.push(v);
      return v;
    };
    const slowMiss = () =>
      new Promise<string | undefined>((r) => setTimeout(() => r(undefined), 40));
    const got = await Promise.all([
      lease('t1', load('a'), async () => undefined),
      lease('t2', load('b'), slowMiss),
    ]);
    expect(got).toEqual(['a', 'b']);
    expect(started.sort()).toEqual(['a', 'b']);
    expect(await startedTogether).toBe(2);
  });

  it('the holder loads when the store still misses, and waiters take its value', async () => {
    const store = new Map<string, string>();
    let loads = 0;
    let loading = false;
    let readsWhileLoading = 0;
    const load = async () => {
      loads++;
      loading = true;
      // The holder's load lasts until the waiters are polling the store for its value.
      await vi.waitFor(() => expect(readsWhileLoading).toBeGreaterThanOrEqual(2), {
        timeout: 1_500,
        interval: 5,
      });
      store.set('k2', 'v2');
      loading = false;
      return 'v2';
    };
    const readBack = async () => {
      if (loading) readsWhileLoading++;
      return store.get('k2');
    };
    const replicas = [1, 2, 3].map(() => createMissLease({ redis, leaseMs: 2_000, pollMs: 5 }));
    const got = await Promise.all(replicas.map((r) => r('k2', load, readBack)));
    expect(got).toEqual(['v2', 'v2', 'v2']);
    expect(loads).toBe(1);
  });
});
