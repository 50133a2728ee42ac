import type { RunningSimulator } from '@avalanche-gateway/simulator';
import type { CacheClass } from '../../src/cache/policy.js';
import { MemoryStore } from '../../src/cache/store.js';
import { createTestGateway, type TestGateway } from './gateway.js';

/** Every cache class fresh for 0 ms and never served stale: what a gateway that caches nothing uses. */
export const ZERO_TTL: Record<CacheClass, number> = {
  immutable: 0,
  head: 0,
  tokenPage: 0,
  slow: 0,
  notFound: 0,
  never: 0,
};
export const NO_STALE = Object.fromEntries(
  Object.keys(ZERO_TTL).map((k) => [k, { swr: 0, ifError: 0 }]),
) as Record<CacheClass, { swr: number; ifError: number }>;

/** The truth at the simulator's current world version: a gateway that caches nothing. */
export const uncachedGateway = (sim: RunningSimulator): TestGateway =>
  createTestGateway(sim, {
    store: new MemoryStore(),
    ttlOverrides: ZERO_TTL,
    staleOverrides: NO_STALE,
  });

/** Lands `blocks` new blocks on the simulated chain `chainId`. */
export async function advanceChain(sim: RunningSimulator, chainId: string, blocks = 1) {
  const r = await fetch(`${sim.url}/_sim/advance`, {
    method: 'POST',
    body: JSON.stringify({ chainId, blocks }),
  });
  if (!r.ok) throw new Error(`/_sim/advance: HTTP ${r.status}`);
}
