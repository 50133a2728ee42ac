import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type TestGateway, useSimulator } from '../support/gateway.js';
import { freePort, startRedisServer, type TestRedis } from '../support/redis.js';
import { simGet } from '../support/sim.js';

let sim: RunningSimulator;
let redis: TestRedis;
let n: (back: number) => string;

const { gateway } = useSimulator({}, async (s) => {
  sim = s;
  const head = Number(
    (await simGet(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 })).blocks[0]
      .blockNumber,
  );
  n = (back) => String(head - back);
  redis = await startRedisServer();
  // Killing a Redis needs one of our own: the suite requires the redis-server binary (.ci/run installs it).
  if (!redis.owned)
    throw new Error('redis-server is not installed: install it to run the Redis failure tests');
});
afterAll(async () => {
  await redis.stop();
});

const health = async (gw: TestGateway) =>
  (await gw.yoga.fetch('http://gateway.test/health')).json();
const waitFor = (cond: () => Promise<boolean>, ms = 5_000) =>
  vi.waitFor(
    async () => {
      if (!(await cond())) throw new Error('condition not met in time');
    },
    { timeout: ms, interval: 50 },
  );

describe('the gateway survives Redis', () => {
  it('with Redis down at start it answers from the upstream and reports the cache degraded', async () => {
    const gw = gateway({ redisUrl: `redis://127.0.0.1:${await freePort()}` });
    const started = Date.now();
    const r = await gw.query(`{ block(chainId: "43114", id: "${n(10)}") { number } }`);
    expect(r.errors).toBeUndefined();
    expect(r.data).toEqual({ block: { number: n(10) } });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await health(gw)).toMatchObject({ status: 'degraded', cache: { status: 'degraded' } });
    await gw.close();
  });

  it('with Redis killed mid-run it keeps answering, then reconnects by itself', async () => {
    const gw = gateway({ redisUrl: redis.url });
    await waitFor(async () => (await health(gw)).cache.status === 'ok');
    expect((await gw.query(`{ block(chainId: "43114", id: "${n(11)}") { number } }`)).data).toEqual(
      { block: { number: n(11) } },
    );

    await redis.stop();
    await waitFor(async () => (await health(gw)).status === 'degraded');
    sim.reset();
    const during = await gw.query(`{ block(chainId: "43114", id: "${n(12)}") { number } }`);
    expect(during.errors).toBeUndefined();
    expect(during.data).toEqual({ block: { number: n(12) } });
    expect(sim.stats().total).toBe(1);

    await redis.restart();
    await waitFor(async () => (await health(gw)).status === 'ok', 8_000);
    await gw.close();
  });

  it('a Redis that stops answering (frozen) costs at most the command timeout, then the upstream answers', async () => {
    const gw = gateway({
      redisUrl: redis.url,
      env: { REDIS_COMMAND_TIMEOUT_MS: '200' },
    });
    await gw.ready();
    redis.pause();
    try {
      sim.reset();
      const started = Date.now();
      const r = await gw.query(`{ block(chainId: "43114", id: "${n(13)}") { number } }`);
      expect(r.data).toEqual({ block: { number: n(13) } });
      expect(sim.stats().total).toBe(1);
      // one timed-out read (200 ms) plus the upstream call; never the seconds a hung socket would take
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      redis.resume();
    }
    await gw.close();
  });
});
