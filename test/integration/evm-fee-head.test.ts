import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/cache/store.js';
import { testClock } from '../support/clock.js';
import { useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { advanceChain, NO_STALE, uncachedGateway } from '../support/reference.js';

/**
 * `feeHistory`'s last base fee is the node's forecast for the block after the newest one while that
 * block is the head, and the next block's own fee once it lands. Found by the cache oracle at size
 * (seed oracle-1, x:evmState.latest): a head cached by one query, then a fee history read after the
 * chain moved on, showed the later block's fee beside the older head.
 */
let sim: RunningSimulator;
const redisUrl = await allocateRedisDb();

const C = '43114';
const fees = (block = '') =>
  `{ evmState(chainId: "${C}"${block}) { blockNumber feeHistory(blockCount: 3) { oldestBlock
  baseFeePerGas } } }`;
const FEES = fees();

interface Answer {
  blockNumber: string;
  feeHistory: { oldestBlock: string; baseFeePerGas: string[] };
}

const { gateway } = useSimulator({}, (s) => {
  sim = s;
});

const advance = () => advanceChain(sim, C);
const uncached = () => uncachedGateway(sim);

describe('evmState.feeHistory: one head per answer', () => {
  // `latest` however the client spells it (the argument is trimmed).
  it.each([
    ['latest by default', FEES],
    ['" latest "', fees(', block: " latest "')],
  ])(
    'a cached head is never shown beside a fee history read after the chain moved on (%s)',
    async (_, query) => {
      const reference = uncached();
      const truth = async () => (await reference.query(FEES)).data!.evmState as Answer;
      const lastFeeAt = async (block: string) =>
        (
          await reference.query(
            `{ evmState(chainId: "${C}", block: "${block}") { feeHistory(blockCount: 3) { baseFeePerGas } } }`,
          )
        ).data!.evmState.feeHistory.baseFeePerGas.at(-1);
      let checked = false;
      for (let i = 0; i < 30 && !checked; i++) {
        const gw = gateway({
          store: new MemoryStore(),
          ttlOverrides: { head: 60_000 },
        });
        const before = await truth();
        // The head alone, read (and cached for a minute) at this head.
        expect(
          (await gw.query(`{ evmState(chainId: "${C}") { blockNumber } }`)).errors,
        ).toBeUndefined();
        await advance();
        // Only a next block whose fee differs from the head's forecast of it tells the two apart.
        if ((await lastFeeAt(before.blockNumber)) !== before.feeHistory.baseFeePerGas.at(-1)) {
          const after = await truth();
          const got = await gw.query(query);
          expect(got.errors).toBeUndefined();
          expect([before, after].map((d) => JSON.stringify(d))).toContain(
            JSON.stringify(got.data!.evmState),
          );
          checked = true;
        }
        await gw.close();
      }
      expect(checked).toBe(true);
      await reference.close();
    },
  );

  it('a fee history at a block the client names is cached as final only once the head has passed it', async () => {
    const clock = testClock();
    const gw = gateway({
      redisUrl,
      ttlOverrides: { head: 200 },
      staleOverrides: NO_STALE,
      now: clock.now,
    });
    const reference = uncached();
    const head = ((await reference.query(FEES)).data!.evmState as Answer).blockNumber;
    const atHead = `{ evmState(chainId: "${C}", block: "${head}") { feeHistory(blockCount: 3) {
      baseFeePerGas } } }`;
    const first = await gw.query(atHead);
    expect(first.errors).toBeUndefined();
    const forecast = first.data!.evmState.feeHistory.baseFeePerGas.at(-1);
    let settled = forecast;
    for (let i = 0; i < 30 && settled === forecast; i++) {
      await advance();
      settled = (await reference.query(atHead)).data!.evmState.feeHistory.baseFeePerGas.at(-1);
    }
    expect(settled).not.toBe(forecast);
    clock.advance(250); // past the head class's 200 ms
    const again = await gw.query(atHead);
    expect(again.data!.evmState.feeHistory.baseFeePerGas.at(-1)).toBe(settled);
    await gw.close();
    await reference.close();
  });
});
