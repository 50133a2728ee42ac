import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisStore } from '../../src/cache/redis-store.js';
import { RedisHeadBus } from '../../src/live/bus.js';
import type { Head } from '../../src/live/head.js';
import { startRedisCluster, type TestRedisCluster } from '../support/redis-cluster.js';

/**
 * A Redis Cluster that requires a password: every Redis user of the gateway reaches every node with the
 * URL's credentials. Before src/cache/redis-connect.ts, the head bus (and the miss lease) seeded their
 * Cluster with the host and port only, so each node refused them (NOAUTH) while the cache worked.
 */
const PASSWORD = 'p@ss:w0rd/with-symbols';
let cluster: TestRedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster({ password: PASSWORD });
}, 30_000);
afterAll(async () => {
  await cluster?.stop();
});

const head = (n: number): Head => ({
  chainId: '43114',
  number: String(n),
  hash: `0x${n.toString(16).padStart(64, '0')}`,
  parentHash: `0x${(n - 1).toString(16).padStart(64, '0')}`,
  timestamp: 1_700_000_000 + n,
  gasUsed: '21000',
  gasLimit: '15000000',
  baseFee: '25000000000',
  txCount: 1,
  seenAt: Date.now(),
});

describe('a password-protected Redis Cluster', { retry: 1, timeout: 30_000 }, () => {
  it('the head bus publishes, keeps and delivers heads across two connections', async () => {
    const errors: Error[] = [];
    const a = new RedisHeadBus(cluster.seedUrl, true, (e) => errors.push(e));
    const b = new RedisHeadBus(cluster.seedUrl, true, (e) => errors.push(e));
    try {
      const heard: Head[] = [];
      b.onHead((h) => heard.push(h));
      // The subscriber connects on its own schedule: publish until it hears one.
      let n = 100;
      await vi.waitFor(
        async () => {
          if (heard.length === 0) expect(await a.publish(head(n++))).toBe(true);
          expect(heard.length).toBeGreaterThan(0);
        },
        { timeout: 5_000, interval: 100 },
      );
      expect((await b.last('43114'))?.number).toBe(String(n - 1));
      expect(await a.lock('43114', 'replica-a', 5_000)).toBe(true);
      expect(await b.lock('43114', 'replica-b', 5_000)).toBe(false);
      expect(errors.map((e) => e.message).filter((m) => /NOAUTH|WRONGPASS/.test(m))).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('the cache stores and reads entries spread over every node', async () => {
    const store = new RedisStore({ url: cluster.seedUrl, cluster: true });
    try {
      // On a loaded machine the client's first slot refreshes can fail while the nodes still gossip;
      // it retries on its own (up to every 2 s), so allow it a few rounds.
      await vi.waitFor(() => expect(store.client.status).toBe('ready'), {
        timeout: 15_000,
        interval: 50,
      });
      const entries = Array.from({ length: 30 }, (_, i) => ({
        key: `gw:test:auth:${i}`,
        value: `value ${i}`,
        ttlMs: 60_000,
      }));
      await store.setMany(entries);
      expect(await store.getMany(entries.map((e) => e.key))).toEqual(entries.map((e) => e.value));
    } finally {
      store.client.disconnect();
    }
  });
});
