import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpTransport, type Transport } from '../../src/upstream/transport.js';
import { createTestGateway, type TestGateway, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb } from '../support/sim.js';

/**
 * Cold path: `block(id) { transactions }` needs only the arguments for both upstream calls, so both go
 * out at once. Asserted by concurrency (upstream fetches in flight together), never by time.
 */
const C = '43114';
const redisUrl = await allocateRedisDb();
const TX_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId/transactions';
const BLOCK_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId';

let sim: RunningSimulator;
let head: number;
let inFlight = 0;
let maxInFlight = 0;
const paths: string[] = [];
/** The gateway's transport (the real one, wrapped): counts upstream requests in flight at once. */
const counting: Transport = async (req) => {
  inFlight += 1;
  maxInFlight = Math.max(maxInFlight, inFlight);
  paths.push(new URL(req.url).pathname);
  try {
    return await httpTransport(req);
  } finally {
    inFlight -= 1;
  }
};
const gateway = (): TestGateway => createTestGateway(sim, { redisUrl, transport: counting });
const QUERY = `query($id: String!, $after: String) { block(chainId: "${C}", id: $id) { number
  transactions(first: 3, after: $after) { edges { cursor node { hash } } pageInfo { endCursor } } } }`;

// Some latency on every upstream call: the block's answer cannot arrive before the second call starts.
useSimulator({ latencyMs: 30 }, (s) => {
  sim = s;
});
beforeAll(async () => {
  head = Number(
    (await (await fetch(`${sim.dataApiUrl}/v1/chains/${C}/blocks?pageSize=1`)).json()).blocks[0]
      .blockNumber,
  );
});
beforeEach(async () => {
  await flushRedisDb(redisUrl);
  inFlight = 0;
  maxInFlight = 0;
  paths.length = 0;
});

describe('cold path: a child call keyed by its parent’s arguments starts with the parent’s', () => {
  it('block(id) by number with its transactions: both upstream calls in flight at once, one each', async () => {
    const gw = gateway();
    const r = await gw.query(QUERY, { id: String(head - 20) });
    expect(r.errors).toBeUndefined();
    expect(r.data!.block.transactions.edges.length).toBeGreaterThan(0);
    expect(sim.stats().byRoute[BLOCK_ROUTE]).toBe(1);
    expect(sim.stats().byRoute[TX_ROUTE]).toBe(1);
    expect(maxInFlight).toBe(2);
    await gw.close();
  });

  it('the prefetched page is the one the field answers from (same items as the upstream, no second call)', async () => {
    const gw = gateway();
    const id = String(head - 21);
    const r = await gw.query(QUERY, { id });
    const upstream = await (
      await fetch(`${sim.dataApiUrl}/v1/chains/${C}/blocks/${id}/transactions?pageSize=100`)
    ).json();
    const hashes = (upstream.transactions as { txHash: string }[]).slice(0, 3).map((t) => t.txHash);
    expect(
      r.data!.block.transactions.edges.map((e: { node: { hash: string } }) => e.node.hash),
    ).toEqual(hashes);
    expect(sim.stats().byRoute[TX_ROUTE]).toBe(2); // the gateway's one, and this test's own reference read
    await gw.close();
  });

  it('by hash, or resuming after a cursor, there is nothing to prefetch: one call after the other', async () => {
    const gw = gateway();
    const first = await gw.query(QUERY, { id: String(head - 22) });
    const hash = (
      await (await fetch(`${sim.dataApiUrl}/v1/chains/${C}/blocks/${head - 23}`)).json()
    ).blockHash;
    maxInFlight = 0;
    sim.reset();
    const byHash = await gw.query(QUERY, { id: hash });
    expect(byHash.errors).toBeUndefined();
    expect(maxInFlight).toBe(1); // the block first (its number keys the transactions), then its page
    maxInFlight = 0;
    const resumed = await gw.query(QUERY, {
      id: String(head - 22),
      after: first.data!.block.transactions.edges[0].cursor,
    });
    expect(resumed.errors).toBeUndefined();
    expect(sim.stats().byRoute[TX_ROUTE] ?? 0).toBeLessThanOrEqual(2);
    await gw.close();
  });

  it('a block without its transactions selected costs one call: nothing is prefetched', async () => {
    const gw = gateway();
    const r = await gw.query(`{ block(chainId: "${C}", id: "${head - 24}") { number hash } }`);
    expect(r.errors).toBeUndefined();
    expect(sim.stats().byRoute[TX_ROUTE] ?? 0).toBe(0);
    expect(sim.stats().byRoute[BLOCK_ROUTE]).toBe(1);
    await gw.close();
  });
});
