import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { type TestGateway, useSimulator } from '../support/gateway.js';
import { eventually } from '../support/live-clients.js';
import { visiblyTouched } from '../support/touched.js';

/**
 * Freshness by change (LIVE_ADDRESS_FRESHNESS=touch, src/live/touches.ts): an address's balance read on
 * a followed chain stays cached while new blocks pass the address by, is read again once a block may
 * have touched it (a transaction from or to it, a token transfer naming it), and is at most
 * LIVE_TOUCH_WINDOW_BLOCKS blocks old for what no block shows (value sent to it by a contract, prices).
 * The truth of what each block touched is the simulator's own world, not the gateway's reading of it.
 */
const C = '43114';
const WINDOW = 6;
const BALANCE_ROUTE = 'data-api GET /v1/chains/:chainId/addresses/:address/balances:getNative';
const Q = `query B($a: String!) { address(chainId: "${C}", address: $a) { balance { balance balanceValue { value } } } }`;

let sim: RunningSimulator;
// A contract now and then pays AVAX to a plain address no transaction or log of the block names.
const { gateway } = useSimulator({ disagree: ['invisible-payouts'] }, (s) => {
  sim = s;
});

const advance = async (blocks = 1): Promise<string> =>
  String(
    (
      (await (
        await fetch(`${sim.url}/_sim/advance`, {
          method: 'POST',
          body: JSON.stringify({ chainId: C, blocks }),
        })
      ).json()) as { head: { number: number } }
    ).head.number,
  );

const chain = () => sim.world.chain(C)!;
const lower = (a: string) => a.toLowerCase();

/** The addresses of the chain's recent transactions: some of them are touched by the next blocks, most are not. */
function candidates(n: number): string[] {
  const seen = new Set<string>();
  for (const tx of [...chain().transactions].reverse()) {
    if (tx.status === 1) for (const it of tx.internals) seen.add(lower(it.to));
    seen.add(lower(tx.from));
    seen.add(lower(tx.to));
    if (seen.size >= n) break;
  }
  return [...seen].slice(0, n);
}

async function followingGateway(freshness: 'touch' | 'head'): Promise<TestGateway> {
  const gw = gateway({
    env: {
      LIVE_WS: `${C}=${sim.wsUrl}`,
      LIVE_ADDRESS_FRESHNESS: freshness,
      LIVE_TOUCH_WINDOW_BLOCKS: String(WINDOW),
      DATA_API_INDEX_LAG_BLOCKS: '0',
      UPSTREAM_TIMEOUT_MS: '15000',
    },
  });
  await gw.ready();
  // The window of blocks the feed must have read whole before an address can be judged untouched.
  for (let i = 0; i <= WINDOW; i++) {
    const n = await advance();
    await eventually(() => expect(gw.live!.head(C)?.number).toBe(n));
  }
  return gw;
}

/** Each address's balance, sixteen requests at a time (a loaded machine times out hundreds at once). */
async function balances(gw: TestGateway, addresses: readonly string[]) {
  const out: { balance: string }[] = [];
  for (let i = 0; i < addresses.length; i += 16)
    out.push(
      ...(await Promise.all(
        addresses.slice(i, i + 16).map(async (a) => {
          const r = await gw.query(Q, { a });
          expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
          return r.data!.address.balance;
        }),
      )),
    );
  return out;
}

const callsFor = () => sim.stats().byRoute[BALANCE_ROUTE] ?? 0;

describe('address balances on a followed chain, kept until a block touches the address', () => {
  it('a block that passes an address by leaves its balance cached; one that touches it has it read again', async () => {
    const gw = await followingGateway('touch');
    const addresses = candidates(40);
    await balances(gw, addresses);
    let kept = 0;
    let reread = 0;
    for (let step = 0; step < 3; step++) {
      const n = await advance();
      await eventually(() => expect(gw.live!.head(C)?.number).toBe(n));
      const touched = visiblyTouched(sim, Number(n) - 1, Number(n));
      sim.reset();
      const got = await balances(gw, addresses);
      for (const [i, a] of addresses.entries()) {
        sim.reset();
        const again = await gw.query(Q, { a });
        const wasCached = callsFor() === 0;
        if (touched.has(a)) {
          // Read again at this head: what the upstream answers now.
          const truth = chain().nativeBalance(a).toString();
          expect(got[i]!.balance, `${a} touched at ${n}`).toBe(truth);
          expect(again.data!.address.balance.balance).toBe(truth);
          reread += 1;
        } else if (wasCached) kept += 1;
      }
    }
    // Most addresses are passed by (a bloom may say "maybe" to a few): their reads cost nothing.
    expect(kept).toBeGreaterThan(addresses.length * 3 * 0.6);
    expect(reread).toBeGreaterThan(0);
  });

  it('what no block shows is at most the window old: a balance changed by a contract is served old within the window, then current', async () => {
    const gw = await followingGateway('touch');
    // The plain addresses a contract may pay (the simulator's address book's ordinary accounts).
    const addresses = sim.world.addressBook.ordinary.map(lower);
    const since = Number(chain().head().number);
    await balances(gw, addresses);
    let servedOld = 0;
    const lastVisible = new Map<string, number>();
    const visible = new Set<string>();
    for (let step = 1; step <= 2 * WINDOW; step++) {
      const n = await advance();
      await eventually(() => expect(gw.live!.head(C)?.number).toBe(n));
      const H = Number(n);
      for (const a of visiblyTouched(sim, H - 1, H)) {
        lastVisible.set(a, H);
        visible.add(a);
      }
      const got = await balances(gw, addresses);
      for (const [i, a] of addresses.entries()) {
        if (got[i]!.balance === chain().nativeBalance(a).toString()) continue;
        // An old answer is the balance at a block of the window (less than WINDOW blocks back), and
        // never from before a block that named the address (read right away: no indexing lag here).
        const from = Math.max(H - WINDOW + 1, lastVisible.get(a) ?? 0);
        const allowed = Array.from({ length: H - from + 1 }, (_, k) =>
          chain()
            .nativeBalance(a, from + k)
            .toString(),
        );
        expect(allowed, `${a} at ${H}: served ${got[i]!.balance}`).toContain(got[i]!.balance);
        servedOld += 1;
      }
    }
    // The simulator paid some of these addresses invisibly: the bound was exercised, not assumed.
    const paid = chain()
      .transactions.filter((t) => t.blockNumber > since)
      .flatMap((t) => t.internals.map((it) => lower(it.to)));
    expect(addresses.some((a) => paid.includes(a) && !visible.has(a))).toBe(true);
    expect(servedOld).toBeGreaterThan(0);
  });

  it('following the head instead reads every balance again after every block (what touch freshness saves)', async () => {
    const gw = await followingGateway('head');
    const addresses = candidates(20);
    await balances(gw, addresses);
    const n = await advance();
    await eventually(() => expect(gw.live!.head(C)?.number).toBe(n));
    sim.reset();
    await balances(gw, addresses);
    expect(callsFor()).toBe(addresses.length);
  });
});
