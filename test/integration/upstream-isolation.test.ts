import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { codes, createTestGateway, useSimulator } from '../support/gateway.js';
import { simGet, startTestSimulator } from '../support/sim.js';

/**
 * Issue 32, findings 10 and 11: one caller's failures and rate limits must not take the upstream away
 * from the others. Breakers are per route and per credential (and /health names an open one); pacing
 * on `ratelimit-remaining` is per credential.
 */
let sim: RunningSimulator;
let head: number;
const C = '43114';
const NATIVE_ROUTE = 'data-api GET /v1/chains/:chainId/addresses/:address/balances:getNative';

const { gateway } = useSimulator({}, async (s) => {
  sim = s;
  head = Number(
    (await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 })).blocks[0].blockNumber,
  );
});

const address = (i: number) => `0x${(0xa000 + i).toString(16).padStart(40, '0')}`;
const balanceQuery = (i: number) =>
  `{ chain(id: "${C}") { address(address: "${address(i)}") { balance { balance } } } }`;
const blockQuery = (i: number) => `{ block(chainId: "${C}", id: "${head - i}") { number } }`;
const keyA = { 'x-glacier-api-key': 'caller-key-a' };
const keyB = { 'x-glacier-api-key': 'caller-key-b' };

describe('circuit breakers per route and credential (finding 10)', () => {
  it("one key failing one route opens that key's breaker on that route only, and /health says so", async () => {
    const g = gateway({
      env: {
        UPSTREAM_RETRIES: '0',
        CIRCUIT_BREAKER_FAILURES: '5',
        CIRCUIT_BREAKER_COOLDOWN_MS: '60000',
      },
    });
    sim.addFault({
      route: NATIVE_ROUTE,
      status: 500,
      body: { message: 'boom', statusCode: 500, error: 'Internal Server Error' },
    });
    for (let i = 0; i < 5; i++)
      expect(codes(await g.query(balanceQuery(i), undefined, keyA))).not.toEqual([]);
    // Key A's breaker on this route is open: it fails fast, without a call.
    const before = sim.stats().total;
    const fast = await g.query(balanceQuery(10), undefined, keyA);
    expect(codes(fast)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(sim.stats().total).toBe(before);
    sim.clearFaults();
    // Another key on the same route, and the operator's credential on it and on another route: served.
    expect((await g.query(balanceQuery(11), undefined, keyB)).errors).toBeUndefined();
    expect((await g.query(balanceQuery(12))).errors).toBeUndefined();
    expect((await g.query(blockQuery(1), undefined, keyA)).errors).toBeUndefined();
    const health = (await (await g.yoga.fetch('http://gw/health')).json()) as {
      status: string;
      openBreakers?: { upstream: string; route: string; credential: string }[];
    };
    expect(health.status).toBe('degraded');
    expect(health.openBreakers).toEqual([
      {
        upstream: 'data-api',
        route: 'GET /v1/chains/:id/addresses/:id/balances:getNative',
        credential: 'caller',
      },
    ]);
    // The key itself is never in the report.
    expect(JSON.stringify(health)).not.toContain('caller-key-a');
    await g.close();
  });
});

describe('pacing per credential (finding 11)', () => {
  it("one key's spent window slows that key only", async () => {
    const limited = await startTestSimulator({ rateLimitPerMinute: 3 });
    const g = createTestGateway(limited, {
      env: { UPSTREAM_RETRIES: '0', UPSTREAM_SLOWDOWN_BELOW: '10' },
    });
    // Key A spends its window: remaining 2, 1, 0, then a 429.
    for (let i = 0; i < 4; i++) await g.query(blockQuery(20 + i), undefined, keyA);
    // Key A's next calls are spaced out (2 s each); key B's first call is not queued behind them
    // (one pacer for the whole upstream put it third: 4 s and more).
    const queued = Array.from({ length: 2 }, (_, i) =>
      g.query(blockQuery(30 + i), undefined, keyA),
    );
    const started = Date.now();
    const b = await g.query(blockQuery(40), undefined, keyB);
    const tookMs = Date.now() - started;
    expect(b.errors).toBeUndefined();
    expect(tookMs).toBeLessThan(1_500);
    await Promise.all(queued);
    await g.close();
    await limited.close();
  }, 30_000);
});
