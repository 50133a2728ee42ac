import { describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { IcmMessagesDocument, StakingTransactionsDocument } from '../__generated__/graphql.js';
import { createTestGateway, useSimAndGateway } from '../support/gateway.js';

/**
 * "Mutable is decided per field, not per route" (DESIGN, cache policy): a price now, a message's status,
 * a stake still active are head data even inside a final object or a token page (issue 11, defect 6).
 */
const C = '43114';
let sim: RunningSimulator;
let redisUrl: string;
useSimAndGateway({ db: 57 }, (s, _gw, r) => {
  sim = s;
  redisUrl = r;
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const calls = (route: string) => sim.stats().byRoute[route] ?? 0;
const shortHead = { ttlOverrides: { head: 50 }, staleOverrides: { head: { swr: 0, ifError: 0 } } };

describe('changing data is never cached as final', () => {
  it("a transaction's current price is re-read once head data expires; the transaction itself is not", async () => {
    const gw = createTestGateway(sim, { redisUrl, ...shortHead });
    const hash = sim.world.fixtures.txHash;
    const route = 'data-api GET /v1/chains/:chainId/transactions/:txHash';
    const real = await (await fetch(`${sim.dataApiUrl}/v1/chains/${C}/transactions/${hash}`)).json();
    const moved = { ...real, networkTokenDetails: { ...real.networkTokenDetails, currentPrice: { currencyCode: 'usd', value: 1.5 } } };
    const q = `{ transaction(chainId: "${C}", hash: "${hash}") { hash networkToken { currentPrice { value } historicalPrice { value } } } }`;
    sim.addFault({ route, status: 200, body: moved, count: 2 });
    const before = await gw.query(q);
    expect(before.errors).toBeUndefined();
    expect(before.data!.transaction.networkToken.currentPrice.value).toBe('1.5');
    await sleep(100);
    sim.reset();
    const after = await gw.query(q);
    expect(after.errors).toBeUndefined();
    expect(after.data!.transaction.networkToken.currentPrice.value).toBe(String(real.networkTokenDetails.currentPrice.value));
    expect(after.data!.transaction.networkToken.historicalPrice).toEqual(before.data!.transaction.networkToken.historicalPrice);
    expect(calls(route)).toBe(1); // the price, read apart; the transaction stays cached
    sim.reset();
    await gw.query(`{ transaction(chainId: "${C}", hash: "${hash}") { hash input } }`);
    expect(calls(route)).toBe(0);
    await gw.close();
  });

  it('an ICM message on page 2 of icmMessages is head data (its status changes), not a 23 h token page', async () => {
    const gw = createTestGateway(sim, { redisUrl, ...shortHead });
    const address = sim.world.fixtures.icmAddress;
    const route = 'data-api GET /v1/icm/addresses/:address/messages';
    const page1 = await gw.exec(IcmMessagesDocument, { address, first: 100 });
    expect(page1.errors).toBeUndefined();
    const after = page1.data!.icmMessages!.pageInfo.endCursor!;
    const page2 = await gw.exec(IcmMessagesDocument, { address, first: 5, after });
    expect(page2.data!.icmMessages!.edges).toHaveLength(5);
    await sleep(100);
    sim.reset();
    const again = await gw.exec(IcmMessagesDocument, { address, first: 5, after });
    expect(again.data).toEqual(page2.data);
    expect(calls(route)).toBe(1);
    await gw.close();
  });

  it('a page 2 of active staking transactions is head data (stakes leave the list when they end)', async () => {
    const gw = createTestGateway(sim, { redisUrl, ...shortHead });
    const route = 'data-api GET /v1/networks/:network/blockchains/:blockchainId/transactions:listStaking';
    const page1 = await gw.exec(StakingTransactionsDocument, { network: 'mainnet', first: 100 });
    expect(page1.errors).toBeUndefined();
    const after = page1.data!.network.stakingTransactions!.pageInfo.endCursor!;
    const page2 = await gw.exec(StakingTransactionsDocument, { network: 'mainnet', first: 5, after });
    expect(page2.data!.network.stakingTransactions!.edges).toHaveLength(5);
    await sleep(100);
    sim.reset();
    await gw.exec(StakingTransactionsDocument, { network: 'mainnet', first: 5, after });
    expect(calls(route)).toBe(1);
    await gw.close();
  });
});
