import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';
import { get, send } from './helpers.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim?.close());
beforeEach(() => sim.reset());

const BLOCKS = 'data-api GET /v1/chains/:chainId/blocks';

describe('control surface: stats and faults', () => {
  it('counts calls by route template, and reset clears them', async () => {
    await get(sim.dataApiUrl, '/v1/chains/43114/blocks');
    await get(sim.dataApiUrl, '/v1/chains/43113/blocks');
    await get(sim.dataApiUrl, `/v1/chains/43114/blocks/${sim.world.fixtures.blockNumber}`);
    await get(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1000 }); // a 400 still counts
    const stats = sim.stats();
    expect(stats.total).toBe(4);
    expect(stats.byRoute[BLOCKS]).toBe(3);
    expect(stats.byRoute['data-api GET /v1/chains/:chainId/blocks/:blockId']).toBe(1);
    const viaHttp = await get(sim.url, '/_sim/stats');
    expect(viaHttp.body).toEqual(stats);
    expect((await send(sim.url, 'POST', '/_sim/reset')).status).toBe(200);
    expect(sim.stats()).toEqual({
      total: 0,
      byRoute: {},
      byRpcMethod: {},
      nodeCu: 0,
      dataCu: 0,
      metricsCu: 0,
      cuByRoute: {},
    });
  });

  it('fires a status fault for a count, then answers normally', async () => {
    sim.addFault({ route: BLOCKS, status: 503, count: 2 });
    const codes = [];
    for (let i = 0; i < 3; i++)
      codes.push((await get(sim.dataApiUrl, '/v1/chains/43114/blocks')).status);
    expect(codes).toEqual([503, 503, 200]);
    expect(
      (await get(sim.dataApiUrl, `/v1/chains/43114/blocks/${sim.world.fixtures.blockNumber}`))
        .status,
    ).toBe(200);
  });

  it('matches route prefixes and custom bodies and headers; clearFaults removes them', async () => {
    sim.addFault({
      route: 'data-api GET /v1/chains/:chainId/blocks/',
      status: 429,
      headers: { 'retry-after': '1' },
      body: { message: 'slow down', statusCode: 429, error: 'Too Many Requests' },
    });
    const hit = await get(
      sim.dataApiUrl,
      `/v1/chains/43114/blocks/${sim.world.fixtures.blockNumber}`,
    );
    expect(hit.status).toBe(429);
    expect(hit.headers.get('retry-after')).toBe('1');
    expect(hit.body.message).toBe('slow down');
    expect((await get(sim.dataApiUrl, '/v1/chains/43114/blocks')).status).toBe(200);
    sim.clearFaults();
    expect(
      (await get(sim.dataApiUrl, `/v1/chains/43114/blocks/${sim.world.fixtures.blockNumber}`))
        .status,
    ).toBe(200);
  });

  it('fires a rate fault for about that share of requests', async () => {
    sim.addFault({ route: BLOCKS, status: 500, rate: 0.3 });
    let failed = 0;
    for (let i = 0; i < 200; i++)
      if ((await get(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 })).status === 500)
        failed++;
    expect(failed).toBeGreaterThan(35);
    expect(failed).toBeLessThan(85);
  });

  it('resets connections and sends malformed bodies', async () => {
    sim.addFault({ route: BLOCKS, reset: true, count: 1 });
    await expect(fetch(`${sim.dataApiUrl}/v1/chains/43114/blocks`)).rejects.toThrow();
    sim.addFault({ route: BLOCKS, malformed: true, count: 1 });
    const res = await fetch(`${sim.dataApiUrl}/v1/chains/43114/blocks`);
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toThrow();
    expect((await get(sim.dataApiUrl, '/v1/chains/43114/blocks')).status).toBe(200);
  });

  it('adds fault latency and the base latency', async () => {
    sim.addFault({ route: BLOCKS, latencyMs: 150, count: 1 });
    let t0 = performance.now();
    expect((await get(sim.dataApiUrl, '/v1/chains/43114/blocks')).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    t0 = performance.now();
    await get(sim.dataApiUrl, '/v1/chains/43114/blocks');
    expect(performance.now() - t0).toBeLessThan(140);
    const slow = await startSimulator({ port: 0, latencyMs: 120 });
    try {
      t0 = performance.now();
      await get(slow.dataApiUrl, '/v1/chains');
      expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
    } finally {
      await slow.close();
    }
  });

  it('takes faults and advances chains over HTTP', async () => {
    expect(
      (
        await send(sim.url, 'POST', '/_sim/faults', [
          { route: 'data-api GET /v1/chains', status: 502, count: 1 },
          { route: 'data-api', latencyMs: 1, count: 5 },
        ])
      ).status,
    ).toBe(201);
    expect((await get(sim.dataApiUrl, '/v1/chains')).status).toBe(502);
    expect((await send(sim.url, 'POST', '/_sim/faults', { status: 42 })).status).toBe(400);
    expect((await send(sim.url, 'DELETE', '/_sim/faults')).status).toBe(200);
    expect((await get(sim.url, '/_sim/faults')).body.faults).toEqual([]);
    const before = sim.world.head('43114').number;
    const adv = await send(sim.url, 'POST', '/_sim/advance', { chainId: '43114', blocks: 3 });
    expect(adv.body.head.number).toBe(before + 3);
    const latest = await get(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 });
    expect(Number(latest.body.blocks[0].blockNumber)).toBe(before + 3);
    expect((await get(sim.url, '/_sim/fixtures')).body.busyAddress).toBe(
      sim.world.fixtures.busyAddress,
    );
  });
});

describe('keys and rate limits', () => {
  it('answers 401 for a revoked key, 403 for an unprivileged one, 429 with retry-after past the limit', async () => {
    const limited = await startSimulator({
      port: 0,
      apiKeys: { revoked: ['revoked-key'], unprivileged: ['basic-key'] },
      rateLimitPerMinute: 3,
    });
    try {
      const call = (key?: string) =>
        get(limited.dataApiUrl, '/v1/chains', {}, key ? { 'x-glacier-api-key': key } : {});
      expect((await call('revoked-key')).body).toEqual({
        message: 'Invalid or revoked API key',
        statusCode: 401,
        error: 'Unauthorized',
      });
      expect((await call('basic-key')).status).toBe(403);
      const first = await call('good-key');
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit-limit')).toBe('3');
      expect(first.headers.get('ratelimit-remaining')).toBe('2');
      expect(first.headers.get('ratelimit-policy')).toBe('3;w=60');
      await call('good-key');
      await call('good-key');
      const over = await call('good-key');
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
      const retry = Number(over.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(over.headers.get('ratelimit-reset')).toBe(String(retry));
      expect((await call('another-key')).status).toBe(200); // limits are per key
      expect((await call()).status).toBe(200); // unkeyed callers are limited per IP
      limited.reset();
      expect((await call('good-key')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
