import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { useSimulator } from '../support/gateway.js';
import { eventually } from '../support/live-clients.js';
import { visiblyTouched } from '../support/touched.js';

/**
 * Freshness by change with the Data API indexing behind the node (src/live/touches.ts): a block that
 * touches an address counts once it is DATA_API_INDEX_LAG_BLOCKS old. Until then the balance read before
 * it is served (the Data API has not indexed the block, so reading it again would pay for the same
 * answer); then it is read once, and shows the block.
 */
const C = '43114';
const LAG = 2;
const BALANCE_ROUTE = 'data-api GET /v1/chains/:chainId/addresses/:address/balances:getNative';
const Q = `query B($a: String!) { address(chainId: "${C}", address: $a) { balance { balance } } }`;

let sim: RunningSimulator;
const { gateway } = useSimulator({ indexLagBlocks: LAG }, (s) => {
  sim = s;
});

const advance = async (): Promise<number> =>
  (
    (await (
      await fetch(`${sim.url}/_sim/advance`, {
        method: 'POST',
        body: JSON.stringify({ chainId: C, blocks: 1 }),
      })
    ).json()) as { head: { number: number } }
  ).head.number;

describe('a touch on a followed chain whose Data API trails the node', () => {
  it('keeps the balance read before it during the lag, then reads it once, showing the block', async () => {
    const gw = gateway({
      env: {
        LIVE_WS: `${C}=${sim.wsUrl}`,
        LIVE_TOUCH_WINDOW_BLOCKS: '60',
        DATA_API_INDEX_LAG_BLOCKS: String(LAG),
        UPSTREAM_TIMEOUT_MS: '15000',
      },
    });
    await gw.ready();
    const reached = async (n: number) =>
      eventually(() => expect(gw.live!.head(C)?.number).toBe(String(n)));
    // The window the feed must have read whole before it can say a block passed an address by.
    for (let i = 0; i <= 60; i++) await reached(await advance());
    const balanceOf = async (a: string): Promise<{ balance: string; calls: number }> => {
      sim.reset();
      const r = await gw.query(Q, { a });
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      return {
        balance: r.data!.address.balance.balance,
        calls: sim.stats().byRoute[BALANCE_ROUTE] ?? 0,
      };
    };

    // Every address the chain's last blocks named, read at head n - 1 (cached there).
    const n = Number(gw.live!.head(C)!.number) + 1;
    const candidates = [...visiblyTouched(sim, n - 40, n - 1)];
    const before = new Map<string, string>();
    for (const a of candidates) before.set(a, (await balanceOf(a)).balance);
    const tagBefore = new Map(candidates.map((a) => [a, gw.live!.addressTag(C, a)]));

    // Block n touches some of them: within the lag, their balance from before is served at no cost.
    await reached(await advance());
    const touched = [...visiblyTouched(sim, n - 1, n)].filter((a) => before.has(a));
    // Those whose version the epoch did not move on the same head (a 60-block window: almost all).
    const kept = touched.filter((a) => gw.live!.addressTag(C, a) === tagBefore.get(a));
    expect(touched.length).toBeGreaterThan(0);
    expect(kept.length).toBeGreaterThan(0);
    for (const a of kept) expect(await balanceOf(a)).toEqual({ balance: before.get(a), calls: 0 });

    // Once the touch is LAG blocks old the Data API has indexed block n: each is read once, and shows it.
    for (let i = 0; i < LAG; i++) await reached(await advance());
    expect(sim.indexed.chain(C)!.head().number).toBe(n);
    for (const a of touched) {
      expect(gw.live!.addressTag(C, a)).not.toBe(tagBefore.get(a));
      const first = await balanceOf(a);
      expect(first.calls, a).toBe(1);
      expect(first.balance, a).toBe(sim.world.chain(C)!.nativeBalance(a, n).toString());
      expect((await balanceOf(a)).calls, `${a} read again`).toBe(0);
    }
  });
});
