import { describe, expect, it } from 'vitest';
import { credentialOf } from '../../src/upstream/credential.js';
import { createMemoryLedger } from '../../src/upstream/cu-ledger.js';
import { createGovernor, UpstreamBudgetError } from '../../src/upstream/governor.js';

/** Issue 33, item 3: the plan-wide governor's order of yielding, and its ledger's bound. */
const operator = credentialOf({});
const caller = credentialOf({ headers: { 'x-glacier-api-key': 'k' } });

describe('the CU ledger', () => {
  it('bounds every 60 s span, however the upstream aligns its windows', async () => {
    let now = 1_000_000_500;
    const ledger = createMemoryLedger(() => now);
    const spent: [number, number][] = [];
    // Spend as fast as the ledger allows for 5 minutes, 10 CUs at a time, every 250 ms.
    for (let t = 0; t < 300_000; t += 250) {
      now = 1_000_000_500 + t;
      if ((await ledger.take(10, { perMinute: 100, perDay: 1e9 })).ok) spent.push([now, 10]);
    }
    // Any 60 s window (at any offset) holds at most the per-minute cap.
    for (let start = 1_000_000_000; start < 1_000_300_000; start += 100) {
      const inWindow = spent
        .filter(([at]) => at >= start && at < start + 60_000)
        .reduce((a, [, cu]) => a + cu, 0);
      expect(inWindow).toBeLessThanOrEqual(100);
    }
    // and it is not idle: close to the cap per minute on average
    expect(spent.length * 10).toBeGreaterThanOrEqual(5 * 90);
  });

  it('says when the minute frees enough, and honours a block', async () => {
    let now = 2_000_000_000;
    const ledger = createMemoryLedger(() => now);
    expect((await ledger.take(60, { perMinute: 100, perDay: 1e9 })).ok).toBe(true);
    now += 10_000;
    expect((await ledger.take(30, { perMinute: 100, perDay: 1e9 })).ok).toBe(true);
    const refused = await ledger.take(30, { perMinute: 100, perDay: 1e9 });
    expect(refused).toEqual({ ok: false, budget: 'minute', retryAfterSec: 51 });
    await ledger.block(5_000);
    now += 60_000;
    expect(await ledger.take(1, { perMinute: 100, perDay: 1e9 })).toMatchObject({ ok: true });
  });
});

describe('the governor', () => {
  it('lets background work spend only its share, requests the rest; callers’ keys are not governed', async () => {
    const refusals: string[] = [];
    const g = createGovernor({
      upstream: 'data-api',
      perMinute: 100,
      perDay: 1_000,
      onRefuse: (budget, background) => refusals.push(`${budget}:${background}`),
    });
    for (let i = 0; i < 8; i++) await g.take({ cu: 10, background: true, credential: operator });
    // 80 of 100 spent: a refresh nobody waits for yields...
    await expect(g.take({ cu: 10, background: true, credential: operator })).rejects.toBeInstanceOf(
      UpstreamBudgetError,
    );
    // ...while requests still have the rest.
    await g.take({ cu: 10, background: false, credential: operator });
    await g.take({ cu: 10, background: false, credential: operator });
    const e = await g
      .take({ cu: 10, background: false, credential: operator })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UpstreamBudgetError);
    expect((e as UpstreamBudgetError).toExtensions()).toMatchObject({
      budget: 'upstream-per-minute',
      upstream: 'data-api',
    });
    expect((e as UpstreamBudgetError).toExtensions().upstreamStatus).toBeUndefined();
    await g.take({ cu: 500, background: false, credential: caller });
    expect(refusals).toEqual(['upstream-per-minute:true', 'upstream-per-minute:false']);
  });

  it("corrects itself from the upstream's headers", async () => {
    const g = createGovernor({ upstream: 'data-api', perMinute: 1_000, perDay: 100_000 });
    const h = (o: Record<string, string>) => (n: string) => o[n];
    // The upstream says its limit is 50 and 45 of it is used already (someone else spends on the key).
    g.observe({
      status: 200,
      header: h({ 'ratelimit-limit': '50', 'ratelimit-remaining': '5' }),
      credential: operator,
    });
    await new Promise((r) => setImmediate(r)); // the in-memory ledger's reconcile is fire-and-forget
    await g.take({ cu: 5, background: false, credential: operator });
    await expect(g.take({ cu: 5, background: false, credential: operator })).rejects.toBeInstanceOf(
      UpstreamBudgetError,
    );
  });
});
