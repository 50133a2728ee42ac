import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AddressTransactionsFullDocument,
  TransactionDetailDocument,
} from '../__generated__/graphql.js';
import * as X from '../support/evm-expected.js';
import { codes, createTestGateway, type TestGateway, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet } from '../support/sim.js';

/** transaction(chainId, hash): every field of the full transaction, its links, and its transfers. */
const C = '43114';
const TX_ROUTE = 'data-api GET /v1/chains/:chainId/transactions/:txHash';
let sim: RunningSimulator;
let gw: TestGateway;
const redisUrl = await allocateRedisDb();

useSimulator({}, (s) => {
  sim = s;
});
beforeEach(async () => {
  await flushRedisDb(redisUrl);
  gw = createTestGateway(sim, { redisUrl });
  await gw.ready();
  return () => gw.close();
});

const routeCalls = () =>
  Object.fromEntries(Object.entries(sim.stats().byRoute).filter(([, n]) => n > 0));

/** The TransactionDetail document's answer, computed from the upstream's get-transaction JSON. */
function expectedDetail(d: any, block: any) {
  const tx = d.nativeTransaction;
  const p = X.positionOf(C, tx);
  const token = d.networkTokenDetails.networkToken;
  const info = d.teleporterMessageInfo;
  return {
    ...X.transaction(tx),
    blockTimestampIso: new Date(tx.blockTimestamp * 1000).toISOString(),
    blockTimestampMilliseconds: tx.blockTimestampMilliseconds ?? null,
    input: tx.input,
    baseFeePerGas: tx.baseFeePerGas,
    maxFeePerGas: tx.maxFeePerGas ?? null,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? null,
    networkToken: {
      token: {
        name: token.name,
        symbol: token.symbol,
        decimals: token.decimals,
        logoUri: token.logoUri ?? null,
        description: token.description ?? null,
      },
      currentPrice: X.money(d.networkTokenDetails.currentPrice),
      historicalPrice: X.money(d.networkTokenDetails.historicalPrice),
    },
    icmMessageInfo: info
      ? {
          messageId: info.teleporterMessageId,
          direction: info.direction,
          sourceChainId: info.sourceChainId ?? null,
          destinationChainId: info.destinationChainId ?? null,
        }
      : null,
    chain: { id: X.chainId(C), chainId: C },
    block: { number: block.blockNumber, hash: block.blockHash },
    from: { ...X.richAddress(tx.from), id: X.addressId(C, tx.from.address) },
    to: { ...X.richAddress(tx.to), id: X.addressId(C, tx.to.address) },
    erc20Transfers: (d.erc20Transfers ?? []).map((x: any) => ({
      ...X.erc20Transfer(p, x),
      transaction: { hash: tx.txHash },
      block: { number: tx.blockNumber },
    })),
    erc721Transfers: (d.erc721Transfers ?? []).map((x: any) => X.erc721Transfer(p, x)),
    erc1155Transfers: (d.erc1155Transfers ?? []).map((x: any) => X.erc1155Transfer(p, x)),
    internalTransactions: (d.internalTransactions ?? []).map((x: any) =>
      X.internalTransaction(p, x),
    ),
  };
}

describe('transaction(chainId, hash)', () => {
  it('resolves every field, transfer and internal transaction to the upstream’s own answer', async () => {
    const chain = sim.world.chain(C)!;
    // the fixture (ERC-20 transfers), a native transfer, and transactions with NFTs, internals and an ICM message
    const hashes = [
      sim.world.fixtures.txHash,
      sim.world.fixtures.nativeTxHash,
      chain.transactions.find((t) => t.status === 1 && t.erc721.length > 0)!.hash,
      chain.transactions.find((t) => t.status === 1 && t.erc1155.length > 0)!.hash,
      chain.transactions.find((t) => t.internals.length > 1)!.hash,
      chain.transactions.find((t) => t.icm)!.hash,
      chain.transactions.find((t) => t.status === 0)!.hash,
    ];
    for (const hash of hashes) {
      const upstream = await simGet(sim.dataApiUrl, `/v1/chains/${C}/transactions/${hash}`);
      const block = await simGet(
        sim.dataApiUrl,
        `/v1/chains/${C}/blocks/${upstream.nativeTransaction.blockNumber}`,
      );
      const r = await gw.exec(TransactionDetailDocument, {
        chainId: C,
        hash: hash.toUpperCase().replace('0X', '0x'),
      });
      expect(r.errors).toBeUndefined();
      expect(r.data!.transaction).toEqual(expectedDetail(upstream, block));
    }
  });

  it('costs one get-transaction and one block call; the transfers’ links reuse them, the chain’s id needs none', async () => {
    const r = await gw.exec(TransactionDetailDocument, {
      chainId: C,
      hash: sim.world.fixtures.txHash,
    });
    expect(r.data!.transaction!.erc20Transfers!.length).toBeGreaterThan(0);
    expect(routeCalls()).toEqual({
      [TX_ROUTE]: 1,
      'data-api GET /v1/chains/:chainId/blocks/:blockId': 1,
    });
    await gw.settled();
    sim.reset();
    const other = createTestGateway(sim, { redisUrl });
    await other.ready();
    expect(
      (await other.exec(TransactionDetailDocument, { chainId: C, hash: sim.world.fixtures.txHash }))
        .data,
    ).toEqual(r.data);
    expect(sim.stats().total).toBe(0);
    await other.close();
  });

  it('an unknown hash is NOT_FOUND for that field', async () => {
    const r = await gw.exec(TransactionDetailDocument, {
      chainId: C,
      hash: `0x${'ab'.repeat(32)}`,
    });
    expect(r.data!.transaction).toBeNull();
    expect(codes(r)).toEqual(['NOT_FOUND']);
  });
});

describe('a transaction reached from a list', () => {
  it('its edge carries the address-scoped transfers; node.erc20Transfers is the full list from get-transaction', async () => {
    const busy = sim.world.fixtures.busyAddress;
    const me = busy.toLowerCase();
    const list = (
      await simGet(sim.dataApiUrl, `/v1/chains/${C}/addresses/${busy}/transactions`, {
        pageSize: 20,
      })
    ).transactions;
    sim.reset();
    const r = await gw.exec(AddressTransactionsFullDocument, {
      chainId: C,
      address: busy,
      first: 20,
    });
    expect(r.errors).toBeUndefined();
    const edges = r.data!.address!.transactions!.edges;
    // one list page plus one get-transaction per transaction that ran code: a plain transfer's
    // transfers and internal transactions are none (src/upstream/derivations.ts)
    const ranCode = list.filter(
      (t: any) => t.nativeTransaction.gasUsed !== '21000' || t.nativeTransaction.txStatus !== '1',
    ).length;
    expect(ranCode).toBeLessThan(20);
    expect(routeCalls()).toEqual({
      'data-api GET /v1/chains/:chainId/addresses/:address/transactions': 1,
      [TX_ROUTE]: ranCode,
    });
    let sawMore = false;
    for (const [i, e] of edges.entries()) {
      const full = await simGet(sim.dataApiUrl, `/v1/chains/${C}/transactions/${e.node.hash}`);
      const pick = (x: any) => ({
        from: { address: x.from.address.toLowerCase() },
        to: { address: x.to.address.toLowerCase() },
        value: x.value,
      });
      expect(e.erc20Transfers).toEqual(
        (list[i].erc20Transfers ?? []).map((x: any) => ({ logIndex: x.logIndex, ...pick(x) })),
      );
      expect(e.node.erc20Transfers).toEqual(
        (full.erc20Transfers ?? []).map((x: any) => ({ logIndex: x.logIndex, ...pick(x) })),
      );
      expect(e.internalTransactions).toEqual((list[i].internalTransactions ?? []).map(pick));
      expect(e.node.internalTransactions).toEqual((full.internalTransactions ?? []).map(pick));
      for (const x of [...e.erc20Transfers, ...e.internalTransactions])
        expect([x.from.address, x.to.address]).toContain(me);
      if (e.node.erc20Transfers!.length > e.erc20Transfers.length) sawMore = true;
    }
    // the scoping is visible in this data: some transaction moves tokens between other parties too
    expect(sawMore).toBe(true);
  });
});
