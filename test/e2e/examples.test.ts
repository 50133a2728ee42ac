import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allAddressTransactions,
  blockWithTransactions,
  createClient,
} from '../../examples/client.js';
import { loadConfig } from '../../src/config.js';
import { createGateway } from '../../src/gateway.js';
import { useSimulator } from '../support/gateway.js';
import { serveOnLoopback } from '../support/serve.js';
import { simWalk } from '../support/sim.js';

/**
 * The typed-client examples (urql + codegen's client preset) against a gateway served on loopback over the
 * simulator: paging an address's transactions by cursor yields the upstream's own list, in order, with no
 * repeat and no gap, across upstream page boundaries.
 */
const C = '43114';
let sim: RunningSimulator;
let served: Awaited<ReturnType<typeof serveOnLoopback>>;

useSimulator({}, (s) => {
  sim = s;
});
beforeAll(async () => {
  const config = loadConfig({
    DATA_API_URL: sim.dataApiUrl,
    METRICS_API_URL: sim.metricsApiUrl,
    NODE_RPC_URL: sim.nodeUrl,
    LOG_LEVEL: 'silent',
    CLIENT_CU_PER_MINUTE: '0',
    UPSTREAM_CU_PER_MINUTE: '0',
  });
  served = await serveOnLoopback(createGateway(config).yoga);
}, 60_000);
afterAll(async () => {
  await served?.close();
});

describe('examples/client.ts', () => {
  it('pages an address to the end of its transactions with no repeat or gap, then reads the newest one’s block', async () => {
    const busy = sim.world.fixtures.busyAddress;
    const expected = (
      await simWalk(
        sim.dataApiUrl,
        `/v1/chains/${C}/addresses/${busy}/transactions`,
        'transactions',
      )
    ).map((t: any) => t.nativeTransaction.txHash);
    expect(expected.length).toBeGreaterThan(150);

    const client = createClient(served.url);
    const got = await allAddressTransactions(client, C, busy, 45);
    expect(got.map((t) => t.hash)).toEqual(expected);
    expect(new Set(got.map((t) => t.cursor)).size).toBe(got.length);

    const block = await blockWithTransactions(client, C, got[0]!.blockNumber);
    expect(block?.number).toBe(got[0]!.blockNumber);
    expect(block?.transactions?.edges.map((e) => e.node.hash)).toContain(got[0]!.hash);
  });
});
