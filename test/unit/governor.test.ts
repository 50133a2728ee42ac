import { describe, expect, it } from 'vitest';
import { credentialOf } from '../../src/upstream/credential.js';
import { type CuLedger, createMemoryLedger } from '../../src/upstream/cu-ledger.js';
import { fairLevel } from '../../src/upstream/fair-share.js';
import { createGovernor, UpstreamBudgetError } from '../../src/upstream/governor.js';

/** Issue 33, item 3: the plan-wide governor's order of yielding, and its ledger's bound. */
const operator = credentialOf({});
const caller = credentialOf({ headers: { 'x-glacier-api-key': 'k' } });
/** The plan's caps alone (no fair share): contention at the whole cap. */
const noFairShare = { contention: 1, maxPayers: 1_000 };
const caps = { perMinute: 100, perDay: 1e9 };
const h = (o: Record<string, string>) => (n: string) => o[n];
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => (e instanceof UpstreamBudgetError ? e.toExtensions() : e),
  );

describe('the CU ledger', () => {
  it('bounds every 60 s span, however the upstream aligns its windows', async () => {
    let now = 1_000_000_500;
    const ledger = createMemoryLedger(() => now);
    const spent: [number, number][] = [];
    // Spend as fast as the ledger allows for 5 minutes, 10 CUs at a time, every 250 ms.
    for (let t = 0; t < 300_000; t += 250) {
      now = 1_000_000_500 + t;
      if ((await ledger.take({ cu: 10, caps, payer: 'a', fair: noFairShare })).ok)
        spent.push([now, 10]);
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
    expect((await ledger.take({ cu: 60, caps, payer: 'a', fair: noFairShare })).ok).toBe(true);
    now += 10_000;
    expect((await ledger.take({ cu: 30, caps, payer: 'a', fair: noFairShare })).ok).toBe(true);
    const refused = await ledger.take({ cu: 30, caps, payer: 'a', fair: noFairShare });
    expect(refused).toEqual({ ok: false, budget: 'minute', retryAfterSec: 51 });
    await ledger.block(5_000);
    now += 60_000;
    expect(await ledger.take({ cu: 1, caps, payer: 'a', fair: noFairShare })).toMatchObject({
      ok: true,
    });
  });

  it('the max-min fair level fills the pool from the smallest spender up', () => {
    expect(fairLevel([3_000], 3_000)).toBe(3_000);
    expect(fairLevel([10, 10, 4_000], 3_000)).toBe(2_980);
    expect(fairLevel([1_000, 1_000, 1_000], 1_500)).toBe(500);
    expect(fairLevel([1, 2], 100)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('the governor', () => {
  it('lets system work spend only its share, requests the rest; callers’ keys are not governed', async () => {
    const refusals: string[] = [];
    const g = createGovernor({
      upstream: 'data-api',
      perMinute: 100,
      perDay: 1_000,
      systemShare: 1,
      contention: 1,
      onRefuse: (budget, work) => refusals.push(`${budget}:${work}`),
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
    expect(refusals).toEqual(['upstream-per-minute:system', 'upstream-per-minute:request']);
  });

  it('system work spends from its declared share of the plan, and the spend is counted by work', async () => {
    const spent: Record<string, number> = {};
    const g = createGovernor({
      upstream: 'data-api',
      perMinute: 1_000,
      perDay: 100_000,
      onSpend: (cu, work) => {
        spent[work] = (spent[work] ?? 0) + cu;
      },
    });
    // The default system share: a quarter of the minute.
    for (let i = 0; i < 25; i++) await g.take({ cu: 10, background: true, credential: operator });
    expect(await refusal(g.take({ cu: 10, background: true, credential: operator }))).toMatchObject(
      { budget: 'system-share-per-minute' },
    );
    await g.take({ cu: 10, background: false, credential: operator, payer: 'ip:192.0.2.1' });
    expect(spent).toEqual({ system: 250, request: 10 });
  });

  it("follows the upstream's headers, within bounds, and the bound decays back", async () => {
    const g = createGovernor({
      upstream: 'data-api',
      perMinute: 1_000,
      perDay: 100_000,
      contention: 1,
    });
    // The upstream says its limit is 800 and 760 of it is used already (someone else spends on the key).
    g.observe({
      status: 200,
      header: h({ 'ratelimit-limit': '800', 'ratelimit-remaining': '40' }),
      credential: operator,
    });
    await new Promise((r) => setImmediate(r)); // the in-memory ledger's reconcile is fire-and-forget
    await g.take({ cu: 40, background: false, credential: operator });
    await expect(g.take({ cu: 5, background: false, credential: operator })).rejects.toBeInstanceOf(
      UpstreamBudgetError,
    );
  });

  it('one `ratelimit-limit: 10` lowers the cap to its floor at most, and only for a while', async () => {
    let now = 4_000_000_000;
    const g = createGovernor({
      upstream: 'data-api',
      perMinute: 1_000,
      perDay: 1_000_000,
      contention: 1,
      now: () => now,
    });
    g.observe({
      status: 200,
      header: h({ 'ratelimit-limit': '10', 'ratelimit-remaining': '10' }),
      credential: operator,
    });
    // Not 10 CU a minute: the floor, half the configured plan.
    for (let i = 0; i < 50; i++) await g.take({ cu: 10, background: false, credential: operator });
    expect(
      await refusal(g.take({ cu: 10, background: false, credential: operator })),
    ).toMatchObject({ budget: 'upstream-per-minute' });
    expect(g.heldBack()).toEqual([
      expect.objectContaining({ upstream: 'data-api', reason: 'limit-lowered', perMinute: 500 }),
    ]);
    // Nothing confirms it for the hold (5 minutes): the configured plan is back.
    now += 300_001;
    expect(g.heldBack()).toEqual([]);
    for (let i = 0; i < 100; i++) await g.take({ cu: 10, background: false, credential: operator });
  });

  it('a `retry-after: 999999999` stops spending for a minute at most, and /health can say until when', async () => {
    let now = 5_000_000_000;
    const g = createGovernor({
      upstream: 'data-api',
      perMinute: 1_000,
      perDay: 1_000_000,
      now: () => now,
    });
    g.observe({ status: 429, header: h({ 'retry-after': '999999999' }), credential: operator });
    await new Promise((r) => setImmediate(r));
    const e = await refusal(g.take({ cu: 10, background: false, credential: operator }));
    expect(e).toMatchObject({ budget: 'upstream-rate-limit' });
    expect((e as { retryAfterSec: number }).retryAfterSec).toBeLessThanOrEqual(60);
    expect(g.heldBack()).toEqual([
      { upstream: 'data-api', reason: 'rate-limited', until: new Date(now + 60_000).toISOString() },
    ]);
    now += 60_001;
    expect(g.heldBack()).toEqual([]);
    await g.take({ cu: 10, background: false, credential: operator });
  });
});

describe('a fair share of a contended plan', () => {
  it('24 correctly priced calls from one client no longer take the minute from everyone', async () => {
    const g = createGovernor({ upstream: 'data-api', perMinute: 6_000, perDay: 1_200_000 });
    const take = (payer: string, cu: number) =>
      refusal(g.take({ cu, background: false, credential: operator, payer }));
    const abuser = [];
    for (let i = 0; i < 24; i++) abuser.push(await take('ip:203.0.113.66', 250));
    // Half the plan alone (uncontended), then its fair share of the contended half: no more.
    expect(abuser.filter((r) => r === undefined)).toHaveLength(12);
    const refused = abuser.at(-1) as { budget: string; retryAfterSec: number };
    expect(refused.budget).toBe('fair-share-per-minute');
    expect(refused.retryAfterSec).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSec).toBeLessThanOrEqual(70);
    // 20 other clients, each within its share, are all served.
    for (let c = 0; c < 20; c++)
      for (let i = 0; i < 5; i++) expect(await take(`ip:198.51.100.${c}`, 20)).toBeUndefined();
    // and the abuser is still refused while they spend.
    expect(await take('ip:203.0.113.66', 250)).toMatchObject({ budget: 'fair-share-per-minute' });
  });

  it('one client within its own budget cannot exhaust the day cap for the others', async () => {
    let now = 6_000_000_000_000;
    const g = createGovernor({
      upstream: 'data-api',
      perMinute: 6_000,
      perDay: 20_000,
      now: () => now,
    });
    const take = (payer: string, cu: number) =>
      refusal(g.take({ cu, background: false, credential: operator, payer }));
    // The heavy client spends 2,000 CU a minute (within the minute's fair share) for 10 minutes.
    let last: unknown;
    for (let m = 0; m < 10; m++, now += 61_000)
      for (let i = 0; i < 8; i++) last = (await take('ip:203.0.113.66', 250)) ?? last;
    expect(last).toMatchObject({ budget: 'fair-share-per-day' });
    // The others still have the rest of the day, not a wait of hours.
    for (let c = 0; c < 10; c++) expect(await take(`ip:198.51.100.${c}`, 100)).toBeUndefined();
  });

  it('fails closed when its ledger does not answer, or spends only its replica’s share', async () => {
    const broken: CuLedger = {
      take: () => Promise.reject(new Error('Command timed out')),
      reconcile: () => Promise.reject(new Error('Command timed out')),
      block: () => Promise.reject(new Error('Command timed out')),
    };
    const closed = createGovernor({
      upstream: 'data-api',
      perMinute: 100,
      perDay: 1e6,
      ledger: broken,
    });
    expect(
      await refusal(closed.take({ cu: 1, background: false, credential: operator, payer: 'a' })),
    ).toMatchObject({ budget: 'upstream-ledger', retryAfterSec: 1 });
    const shared = createGovernor({
      upstream: 'data-api',
      perMinute: 100,
      perDay: 1e6,
      ledger: broken,
      fallbackShare: 0.5,
      contention: 1,
    });
    for (let i = 0; i < 5; i++)
      await shared.take({ cu: 10, background: false, credential: operator, payer: 'a' });
    expect(
      await refusal(shared.take({ cu: 10, background: false, credential: operator, payer: 'a' })),
    ).toMatchObject({ budget: 'upstream-per-minute' });
  });
});
