import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';
import { get } from './helpers.js';

/**
 * Issue 33, item 4: with a plan configured, the simulated Data API charges compute units like the
 * real one: per key (else per IP), the published route prices, a per-minute and a per-day limit,
 * `ratelimit-*` on every answer and a 429 past either limit. Off unless configured.
 */
let sim: RunningSimulator;
let clock = Date.UTC(2026, 0, 1, 12, 0, 5);
beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    now: () => clock,
    computeUnits: { perMinute: 100, perDay: 150 },
  });
});
afterAll(() => sim?.close());
beforeEach(() => sim.reset());

const blocks = (headers: Record<string, string> = {}) =>
  get(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 }, headers);

describe('compute units in the simulator', () => {
  it('charges each route its published price, with ratelimit-* on every answer', async () => {
    const a = await blocks();
    expect(a.status).toBe(200);
    expect(a.headers.get('ratelimit-limit')).toBe('100');
    expect(a.headers.get('ratelimit-remaining')).toBe('90'); // getLatestBlocks: Small, 10
    expect(a.headers.get('ratelimit-reset')).toBe('55');
    expect(a.headers.get('ratelimit-policy')).toBe('100;w=60, 150;w=86400');
    const chains = await get(sim.dataApiUrl, '/v1/chains');
    expect(chains.headers.get('ratelimit-remaining')).toBe('89'); // supportedChains: Free, 1
    const tx = await get(
      sim.dataApiUrl,
      `/v1/chains/43114/blocks/${sim.world.fixtures.blockNumber}/transactions`,
    );
    expect(tx.headers.get('ratelimit-remaining')).toBe('69'); // Medium, 20
    expect(sim.charges()).toEqual({ spentCu: 31, refused: 0 });
  });

  it('answers 429 past the minute, per key and per IP apart, and again after the window', async () => {
    for (let i = 0; i < 10; i++) expect((await blocks()).status).toBe(200);
    const over = await blocks();
    expect(over.status).toBe(429);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    expect(over.headers.get('retry-after')).toBe('55');
    // a key is a caller of its own
    expect((await blocks({ 'x-glacier-api-key': 'k1' })).status).toBe(200);
    clock += 60_000;
    expect((await blocks()).status).toBe(200);
    expect(sim.charges().refused).toBe(1);
  });

  it('answers 429 past the day, until the next UTC day', async () => {
    for (let m = 0; m < 2; m++) {
      clock += 60_000;
      for (let i = 0; i < (m === 0 ? 10 : 5); i++) expect((await blocks()).status).toBe(200);
    }
    clock += 60_000;
    const over = await blocks();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3_600);
    clock = Date.UTC(2026, 0, 2, 0, 0, 1);
    expect((await blocks()).status).toBe(200);
  });

  it('is off unless configured: one request counts one', async () => {
    const plain = await startSimulator({ port: 0, rateLimitPerMinute: 5 });
    const r = await get(plain.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 });
    expect(r.headers.get('ratelimit-remaining')).toBe('4');
    expect(plain.charges()).toEqual({ spentCu: 0, refused: 0 });
    await plain.close();
  });
});
