import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { eventually } from '../support/live-clients.js';

/**
 * The node's websocket dropped and kept away (its upgrades refused) for longer than the live window: the
 * chain is no longer live, so its head-class answers fall back to the class TTL (2 s, + 2 s
 * stale-while-revalidate). An entry written while the chain was live carries the head it was answered at
 * and a 60 s bound (`LIVE_HEAD_TTL_MS`), meaningful only under that head: it must not be served as fresh
 * once the head no longer keys the request. Before, a read without a head took it as fresh: the chain's
 * latest block stayed at the head heard before the drop for a minute while the node went on.
 */
let sim: RunningSimulator;
let gw: TestGateway;
const Q = '{ chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }';
/** The head class's promise once the chain is not live: live window 3.5 s + TTL 2 s + swr 2 s, + 1 s. */
const BOUND_MS = 3_500 + 2_000 + 2_000 + 1_000;

useSimAndGateway(
  {
    // As in production: the whole-response cache on too (it keys answers by the live heads).
    live: { RESPONSE_CACHE_MAX_TTL_MS: '60000' },
  },
  (s, g) => {
    sim = s;
    gw = g;
  },
);

const advance = async (blocks: number) =>
  (
    (await (
      await fetch(`${sim.url}/_sim/advance`, {
        method: 'POST',
        body: JSON.stringify({ chainId: '43114', blocks }),
      })
    ).json()) as { head: { number: number } }
  ).head.number;
const shown = async () =>
  (await gw.query(Q)).data?.chain.blocks.edges[0].node.number as string | undefined;
/** Drops every node websocket; `refuse`: turns away that many reconnects (0 lets them in again). */
const drop = (refuse: number) =>
  fetch(`${sim.url}/_sim/ws/drop`, { method: 'POST', body: JSON.stringify({ refuse }) });

describe('the node websocket away for longer than the live window', () => {
  it('the head answer follows the node within the head class promise, not the last live head', async () => {
    const n = String(await advance(1));
    await eventually(() => expect(gw.live!.head('43114')?.number).toBe(n));
    await eventually(async () => expect(await shown()).toBe(n), 2_000, 5);
    await drop(1_000);
    const dropped = Date.now();
    const m = String(await advance(3));
    // Between the drop and the live window's end the answer may stay at the head last heard; after it
    // the class TTL applies, whatever an entry written under that head said.
    let last: string | undefined;
    while (Date.now() - dropped < BOUND_MS) {
      last = await shown();
      if (last === m) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(last, `the head answer ${BOUND_MS} ms after the drop`).toBe(m);
    // The websocket comes back: the chain is live again at the node's head.
    await drop(0);
    const k = String(await advance(1));
    await eventually(() => expect(gw.live!.head('43114')?.number).toBe(k), 15_000);
    await eventually(async () => expect(await shown()).toBe(k), 2_000, 5);
  }, 40_000);
});
