import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { IcmMessagesDocument, StakingTransactionsDocument } from '../__generated__/graphql.js';
import { createTestGateway, useSimAndGateway } from '../support/gateway.js';

/**
 * "Mutable is decided per field, not per route" (DESIGN, cache policy): a price now, a message's status,
 * a stake still active are head data even inside a final object or a token page (issue 11, defect 6).
 */
const C = '43114';
let sim: RunningSimulator;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, _gw, r) => {
  sim = s;
  redisUrl = r;
});
const calls = (route: string) => sim.stats().byRoute[route] ?? 0;
const shortHead = { ttlOverrides: { head: 50 }, staleOverrides: { head: { swr: 0, ifError: 0 } } };
// The gateway's clock, moved past the head TTL instead of waiting for it.
let clock = Date.now();
const now = () => clock;

describe('changing data is never cached as final', () => {
  it("a transaction's current price is re-read once head data expires; the transaction itself is not", async () => {
    const gw = createTestGateway(sim, { redisUrl, ...shortHead, now });
    const hash = sim.world.fixtures.txHash;
    const route = 'data-api GET /v1/chains/:chainId/transactions/:txHash';
    const real = await (
      await fetch(`${sim.dataApiUrl}/v1/chains/${C}/transactions/${hash}`)
    ).json();
    const moved = {
      ...real,
      networkTokenDetails: {
        ...real.networkTokenDetails,
        currentPrice: { currencyCode: 'usd', value: 1.5 },
      },
    };
    const q = `{ transaction(chainId: "${C}", hash: "${hash}") { hash networkToken { currentPrice { value } historicalPrice { value } } } }`;
    sim.addFault({ route, status: 200, body: moved, count: 2 });
    const before = await gw.query(q);
    expect(before.errors).toBeUndefined();
    expect(before.data!.transaction.networkToken.currentPrice.value).toBe('1.5');
    clock += 100;
    sim.reset();
    const after = await gw.query(q);
    expect(after.errors).toBeUndefined();
    expect(after.data!.transaction.networkToken.currentPrice.value).toBe(
      String(real.networkTokenDetails.currentPrice.value),
    );
    expect(after.data!.transaction.networkToken.historicalPrice).toEqual(
      before.data!.transaction.networkToken.historicalPrice,
    );
    expect(calls(route)).toBe(1); // the price, read apart; the transaction stays cached
    sim.reset();
    await gw.query(`{ transaction(chainId: "${C}", hash: "${hash}") { hash input } }`);
    expect(calls(route)).toBe(0);
    await gw.close();
  });

  it('an ICM message on page 2 of icmMessages is head data (its status changes), not a 23 h token page', async () => {
    const gw = createTestGateway(sim, { redisUrl, ...shortHead, now });
    const address = sim.world.fixtures.icmAddress;
    const route = 'data-api GET /v1/icm/addresses/:address/messages';
    const page1 = await gw.exec(IcmMessagesDocument, { address, first: 100 });
    expect(page1.errors).toBeUndefined();
    const after = page1.data!.icmMessages!.pageInfo.endCursor!;
    const page2 = await gw.exec(IcmMessagesDocument, { address, first: 5, after });
    expect(page2.data!.icmMessages!.edges).toHaveLength(5);
    clock += 100;
    sim.reset();
    // a cursor into page 2 (it carries that page's upstream token): the page is read again, not kept 23 h
    const inPage2 = page2.data!.icmMessages!.edges[1]!.cursor;
    const again = await gw.exec(IcmMessagesDocument, { address, first: 3, after: inPage2 });
    expect(again.data!.icmMessages!.edges.map((e) => e.node.messageId)).toEqual(
      page2.data!.icmMessages!.edges.slice(2, 5).map((e) => e.node.messageId),
    );
    expect(calls(route)).toBe(1);
    await gw.close();
  });

  it('a page 2 of active staking transactions is head data (stakes leave the list when they end)', async () => {
    const gw = createTestGateway(sim, { redisUrl, ...shortHead, now });
    const route =
      'data-api GET /v1/networks/:network/blockchains/:blockchainId/transactions:listStaking';
    const page1 = await gw.exec(StakingTransactionsDocument, { network: 'mainnet', first: 100 });
    expect(page1.errors).toBeUndefined();
    const after = page1.data!.network.stakingTransactions!.pageInfo.endCursor!;
    const page2 = await gw.exec(StakingTransactionsDocument, {
      network: 'mainnet',
      first: 5,
      after,
    });
    expect(page2.data!.network.stakingTransactions!.edges).toHaveLength(5);
    clock += 100;
    sim.reset();
    // a cursor into page 2 (it carries that page's upstream token): the page is read again, not kept 23 h
    await gw.exec(StakingTransactionsDocument, {
      network: 'mainnet',
      first: 3,
      after: page2.data!.network.stakingTransactions!.pageInfo.endCursor,
    });
    expect(calls(route)).toBe(1);
    await gw.close();
  });
});

describe('cursors into lists of changing items', () => {
  it('an ICM cursor into the head page continues in the live list: the items after it are never read from an old snapshot', async () => {
    const gw = createTestGateway(sim, { redisUrl, ...shortHead, now });
    const address = sim.world.fixtures.icmAddress;
    const route = 'data-api GET /v1/icm/addresses/:address/messages';
    const first = await gw.exec(IcmMessagesDocument, { address, first: 5 });
    expect(first.errors).toBeUndefined();
    clock += 100;
    // the upstream's live head page: the message right after the cursor has changed since the snapshot
    const live = await (
      await fetch(`${sim.dataApiUrl}/v1/icm/addresses/${address}/messages?pageSize=100`)
    ).json();
    const changed = { ...live.messages[5], messageNonce: '424242' };
    sim.reset();
    sim.addFault({
      route,
      status: 200,
      body: {
        ...live,
        messages: [...live.messages.slice(0, 5), changed, ...live.messages.slice(6)],
      },
    });
    const next = await gw.exec(IcmMessagesDocument, {
      address,
      first: 3,
      after: first.data!.icmMessages!.pageInfo.endCursor,
    });
    expect(next.errors).toBeUndefined();
    const nodes = next.data!.icmMessages!.edges.map((e) => e.node as Record<string, unknown>);
    expect(nodes.map((n) => n.messageId)).toEqual(
      live.messages.slice(5, 8).map((m: { messageId: string }) => m.messageId),
    );
    expect(nodes[0]!.messageNonce).toBe('424242');
    sim.clearFaults();
    await gw.close();
  });
});
