import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AddressBalanceDocument,
  AddressErc20TransfersDocument,
  AddressTransactionBlockParentsDocument,
  AddressTransactionBlocksDocument,
  AddressTransactionsDocument,
  TransactionDetailDocument,
} from '../__generated__/graphql.js';
import { codes, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet } from '../support/sim.js';

/** Upstream call counts (cold, warm, across processes), input checks before any call, and upstream garbage. */
const C = '43114';
const TXS_ROUTE = 'data-api GET /v1/chains/:chainId/addresses/:address/transactions';
const BLOCK_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId';
let sim: RunningSimulator;
let busy: string;
const redisUrl = await allocateRedisDb();

const { gateway } = useSimulator({}, (s) => {
  sim = s;
  busy = sim.world.fixtures.busyAddress;
});
beforeEach(async () => {
  await flushRedisDb(redisUrl);
});

const routeCalls = () =>
  Object.fromEntries(Object.entries(sim.stats().byRoute).filter(([, n]) => n > 0));

describe('a list of 100 transactions, each with its block', () => {
  // Head data (the list's first page) lives ~one block time by default; the warm runs here must not race it.
  const ttlOverrides = { head: 30_000 };

  it.each([
    ['the in-process LRU', false],
    ['Redis', true],
  ])('costs 1 + (distinct blocks) upstream calls cold and 0 warm (%s)', async (_name, useRedis) => {
    const upstream = (
      await simGet(sim.dataApiUrl, `/v1/chains/${C}/addresses/${busy}/transactions`, {
        pageSize: 100,
      })
    ).transactions;
    const distinctBlocks = new Set(upstream.map((t: any) => t.nativeTransaction.blockNumber)).size;
    expect(distinctBlocks).toBeGreaterThan(1);
    expect(distinctBlocks).toBeLessThan(100);
    sim.reset();

    const gw = gateway({ ttlOverrides, ...(useRedis ? { redisUrl } : {}) });
    await gw.ready();
    const cold = await gw.exec(AddressTransactionBlocksDocument, {
      chainId: C,
      address: busy,
      first: 100,
    });
    expect(cold.errors).toBeUndefined();
    const edges = cold.data!.address!.transactions!.edges;
    expect(edges).toHaveLength(100);
    edges.forEach((e, i) => {
      expect(e.node.hash).toBe(upstream[i].nativeTransaction.txHash);
      expect(e.node.block!.number).toBe(e.node.blockNumber);
    });
    expect(routeCalls()).toEqual({ [TXS_ROUTE]: 1, [BLOCK_ROUTE]: distinctBlocks });

    await gw.settled(); // cache writes are fire-and-forget
    sim.reset();
    const warm = await gw.exec(AddressTransactionBlocksDocument, {
      chainId: C,
      address: busy,
      first: 100,
    });
    expect(warm.data).toEqual(cold.data);
    expect(sim.stats().total).toBe(0);
    await gw.close();

    if (useRedis) {
      // another gateway process sharing Redis: its LRU is empty, Redis answers everything
      const other = gateway({ ttlOverrides, redisUrl });
      await other.ready();
      const fromRedis = await other.exec(AddressTransactionBlocksDocument, {
        chainId: C,
        address: busy,
        first: 100,
      });
      expect(fromRedis.data).toEqual(cold.data);
      expect(sim.stats().total).toBe(0);
      await other.close();
    }
  });
});

describe('a block read by number also answers for its hash within the request', () => {
  it('block { parent } over a list costs one call per distinct block or parent, not one per reference', async () => {
    const upstream = (
      await simGet(sim.dataApiUrl, `/v1/chains/${C}/addresses/${busy}/transactions`, {
        pageSize: 50,
      })
    ).transactions;
    const blocks = new Set<number>(
      upstream.map((t: any) => Number(t.nativeTransaction.blockNumber)),
    );
    const parentsOutside = [...blocks].filter((n) => !blocks.has(n - 1)).length;
    expect(parentsOutside).toBeLessThan(blocks.size); // some parents are themselves in the list
    sim.reset();
    const gw = gateway();
    const r = await gw.exec(AddressTransactionBlockParentsDocument, {
      chainId: C,
      address: busy,
      first: 50,
    });
    expect(r.errors).toBeUndefined();
    for (const e of r.data!.address!.transactions!.edges)
      expect(BigInt(e.node.block!.parent!.number)).toBe(BigInt(e.node.block!.number) - 1n);
    expect(routeCalls()).toEqual({ [TXS_ROUTE]: 1, [BLOCK_ROUTE]: blocks.size + parentsOutside });
    await gw.close();
  });
});

describe('pages are fetched at the route maximum and shared by every `first`', () => {
  it('first: 250 spans 3 upstream pages; resuming inside a page re-reads it from cache', async () => {
    const gw = gateway({ redisUrl });
    await gw.ready();
    const big = await gw.exec(AddressErc20TransfersDocument, {
      chainId: C,
      address: busy,
      first: 250,
    });
    expect(big.data!.address!.erc20Transfers!.edges).toHaveLength(250);
    expect(routeCalls()).toEqual({ [`${TXS_ROUTE}:listErc20`]: 3 });
    await gw.settled(); // cache writes are fire-and-forget
    sim.reset();
    // 10 + 10 items, then resuming at item 245 (the third page, fetched by token): all from cache
    const a = await gw.exec(AddressErc20TransfersDocument, {
      chainId: C,
      address: busy,
      first: 10,
    });
    const b = await gw.exec(AddressErc20TransfersDocument, {
      chainId: C,
      address: busy,
      first: 10,
      after: a.data!.address!.erc20Transfers!.pageInfo.endCursor,
    });
    const c = await gw.exec(AddressErc20TransfersDocument, {
      chainId: C,
      address: busy,
      first: 5,
      after: big.data!.address!.erc20Transfers!.edges[244]!.cursor,
    });
    const all = big.data!.address!.erc20Transfers!.edges.map(
      (e) => `${e.node.txHash}:${e.node.logIndex}`,
    );
    const got = (r: typeof a) =>
      r.data!.address!.erc20Transfers!.edges.map((e) => `${e.node.txHash}:${e.node.logIndex}`);
    expect([...got(a), ...got(b)]).toEqual(all.slice(0, 20));
    expect(got(c)).toEqual(all.slice(245, 250));
    expect(sim.stats().total).toBe(0);
    await gw.close();
  });
});

describe('inputs are checked before any upstream call', () => {
  const bad: [string, string, string][] = [
    ['malformed address', `{ address(chainId: "${C}", address: "0x1234") { id } }`, 'address'],
    [
      'address with a non-hex digit',
      `{ address(chainId: "${C}", address: "0x${'g'.repeat(40)}") { id } }`,
      'address',
    ],
    [
      'malformed chain id',
      `{ address(chainId: "c-chain!", address: "0x${'a'.repeat(40)}") { id } }`,
      'chainId',
    ],
    [
      'negative startBlock',
      `{ address(chainId: "${C}", address: "0x${'a'.repeat(40)}") { transactions(startBlock: "-1") { edges { cursor } } } }`,
      'startBlock',
    ],
    [
      'fractional endBlock',
      `{ address(chainId: "${C}", address: "0x${'a'.repeat(40)}") { erc20Transfers(endBlock: "10.5") { edges { cursor } } } }`,
      'endBlock',
    ],
    [
      'startBlock after endBlock',
      `{ address(chainId: "${C}", address: "0x${'a'.repeat(40)}") { nativeTransactions(startBlock: 20, endBlock: 10) { edges { cursor } } } }`,
      'startBlock',
    ],
    [
      'empty range',
      `{ address(chainId: "${C}", address: "0x${'a'.repeat(40)}") { internalTransactions(startBlock: 10, endBlock: 10) { edges { cursor } } } }`,
      'startBlock',
    ],
    [
      'first beyond the maximum',
      `{ address(chainId: "${C}", address: "0x${'a'.repeat(40)}") { erc721Transfers(first: 100000) { edges { cursor } } } }`,
      'first',
    ],
    [
      'negative first',
      `{ address(chainId: "${C}", address: "0x${'a'.repeat(40)}") { erc1155Transfers(first: -1) { edges { cursor } } } }`,
      'first',
    ],
    [
      'backward paging',
      `{ address(chainId: "${C}", address: "0x${'a'.repeat(40)}") { transactions(last: 5) { edges { cursor } } } }`,
      'last',
    ],
    [
      'garbage cursor',
      `{ address(chainId: "${C}", address: "0x${'a'.repeat(40)}") { transactions(after: "nope") { edges { cursor } } } }`,
      'after',
    ],
    [
      'balance at a negative block',
      `{ address(chainId: "${C}", address: "0x${'a'.repeat(40)}") { balance(blockNumber: "-5") { balance } } }`,
      'blockNumber',
    ],
    ['short transaction hash', `{ transaction(chainId: "${C}", hash: "0x1234") { hash } }`, 'hash'],
    [
      'address-length transaction hash',
      `{ transaction(chainId: "${C}", hash: "0x${'a'.repeat(40)}") { hash } }`,
      'hash',
    ],
    [
      'block id neither number nor hash',
      `{ block(chainId: "${C}", id: "latest") { number } }`,
      'id',
    ],
    ['chain id with spaces', `{ chain(id: "43 114") { chainId } }`, 'id'],
    [
      'malformed address in the chain shortcut',
      `{ chain(id: "${C}") { address(address: "abc") { id } } }`,
      'address',
    ],
  ];

  it.each(bad)(
    '%s → BAD_USER_INPUT naming the argument, no upstream call',
    async (_name, query, argument) => {
      const gw = gateway();
      const r = await gw.query(query);
      expect(codes(r)).toEqual(['BAD_USER_INPUT']);
      expect(r.errors![0]!.extensions!.argument).toBe(argument);
      // the chain shortcut reads its chain first; nothing else may reach the upstream
      const calls = routeCalls();
      delete calls['data-api GET /v1/chains/:chainId'];
      expect(calls).toEqual({});
      await gw.close();
    },
  );

  it('an unknown enum value (sortOrder, currency) is refused before any call', async () => {
    const gw = gateway();
    const a = await gw.exec(AddressTransactionsDocument, {
      chainId: C,
      address: busy,
      sortOrder: 'SIDEWAYS' as never,
    });
    const b = await gw.exec(AddressBalanceDocument, {
      chainId: C,
      address: busy,
      currency: 'xyz' as never,
    });
    for (const r of [a, b]) {
      expect(r.data ?? undefined).toBeUndefined();
      expect(r.errors![0]!.message).toMatch(
        /"(SIDEWAYS|xyz)" does not exist in "(SortOrder|CurrencyCode)" enum/,
      );
    }
    expect(sim.stats().total).toBe(0);
    await gw.close();
  });
});

describe('an upstream answer that does not fit the contract', () => {
  it('gives UPSTREAM_ERROR for that field while its siblings answer', async () => {
    const gw = gateway();
    sim.addFault({
      route: TXS_ROUTE,
      status: 200,
      body: { transactions: [{ nativeTransaction: { txHash: 42 } }] },
      count: 1,
    });
    const r = await gw.query(
      `{ address(chainId: "${C}", address: "${busy}") { id transactions(first: 1) { edges { cursor } } balance { balance } } }`,
    );
    expect(codes(r)).toEqual(['UPSTREAM_ERROR']);
    expect(r.errors![0]!.path).toEqual(['address', 'transactions']);
    expect(r.data!.address.transactions).toBeNull();
    expect(r.data!.address.balance.balance).toMatch(/^\d+$/);
    await gw.close();
  });

  it('a wrong type deep in the full transaction fails only the fields that need it', async () => {
    const gw = gateway();
    const { txHash } = sim.world.fixtures;
    const good = await simGet(sim.dataApiUrl, `/v1/chains/${C}/transactions/${txHash}`);
    good.erc20Transfers[0].value = 12.5; // a number where the contract says decimal string
    sim.addFault({
      route: 'data-api GET /v1/chains/:chainId/transactions/:txHash',
      status: 200,
      body: good,
      count: 1,
    });
    const r = await gw.exec(TransactionDetailDocument, { chainId: C, hash: txHash });
    expect(r.data!.transaction).toBeNull();
    expect(codes(r)).toEqual(['UPSTREAM_ERROR']);
    expect(r.errors![0]!.message).toMatch(/erc20Transfers\.0\.value/);
    // not cached: the next request reads the (now healthy) upstream again
    const again = await gw.exec(TransactionDetailDocument, { chainId: C, hash: txHash });
    expect(again.errors).toBeUndefined();
    expect(again.data!.transaction!.hash).toBe(txHash);
    await gw.close();
  });
});
