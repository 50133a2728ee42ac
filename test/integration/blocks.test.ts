import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../../src/cache/keys.js';
import {
  BlockDocument,
  BlockTransactionsDocument,
  ChainBlocksDocument,
  type ChainBlocksQuery,
  NodeDocument,
} from '../__generated__/graphql.js';
import { testClock } from '../support/clock.js';
import { codes, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet, simWalk } from '../support/sim.js';

const C = '43114';
const BLOCKS_ROUTE = 'data-api GET /v1/chains/:chainId/blocks';
const BLOCK_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId';
const BLOCK_TXS_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId/transactions';

let sim: RunningSimulator;
const redisUrl = await allocateRedisDb();

const { gateway } = useSimulator({}, (s) => {
  sim = s;
});
beforeEach(async () => {
  await flushRedisDb(redisUrl);
});

const routeCalls = () => {
  const { byRoute } = sim.stats();
  return Object.fromEntries(Object.entries(byRoute).filter(([, n]) => n > 0));
};

describe('chain(id).blocks — a Relay connection over the latest-blocks page tokens', () => {
  it('walks with first: 25 across several upstream pages and returns exactly the upstream sequence', async () => {
    const gw = gateway({ redisUrl });
    const expected = await simWalk(sim.dataApiUrl, `/v1/chains/${C}/blocks`, 'blocks', 100, 400);
    expect(expected.length).toBeGreaterThan(200);
    const seen: string[] = [];
    let after: string | null = null;
    while (seen.length < expected.length) {
      const r = await gw.exec(ChainBlocksDocument, { chainId: C, first: 25, after, txFirst: 0 });
      expect(r.errors).toBeUndefined();
      const conn: NonNullable<NonNullable<ChainBlocksQuery['chain']>['blocks']> =
        r.data!.chain!.blocks!;
      seen.push(...conn.edges.map((e) => e.node.hash));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor!;
    }
    expect(seen.slice(0, expected.length)).toEqual(expected.map((b: any) => b.blockHash));
    expect(new Set(seen).size).toBe(seen.length);
    await gw.close();
  });

  it('every block field is the upstream block, unchanged', async () => {
    const gw = gateway();
    const upstream = (await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 3 }))
      .blocks;
    const r = await gw.exec(ChainBlocksDocument, { chainId: C, first: 3, txFirst: 0 });
    expect(r.errors).toBeUndefined();
    r.data!.chain!.blocks!.edges.forEach(({ node }, i) => {
      const b = upstream[i];
      expect(node).toMatchObject({
        chainId: b.chainId,
        number: b.blockNumber,
        hash: b.blockHash,
        parentHash: b.parentHash,
        timestamp: b.blockTimestamp,
        timestampIso: new Date(b.blockTimestamp * 1000).toISOString(),
        txCount: b.txCount,
        baseFee: b.baseFee,
        gasUsed: b.gasUsed,
        gasLimit: b.gasLimit,
        gasCost: b.gasCost,
        feesSpent: b.feesSpent,
        cumulativeTransactions: b.cumulativeTransactions,
      });
    });
    await gw.close();
  });

  it('a cursor resumes mid-page; cursors of another list or filter, tampered ones and last/before are BAD_USER_INPUT', async () => {
    const gw = gateway();
    const all = await gw.exec(ChainBlocksDocument, { chainId: C, first: 10, txFirst: 0 });
    const edges = all.data!.chain!.blocks!.edges;
    const resumed = await gw.exec(ChainBlocksDocument, {
      chainId: C,
      first: 4,
      after: edges[3]!.cursor,
      txFirst: 0,
    });
    expect(resumed.data!.chain!.blocks!.edges.map((e) => e.node.hash)).toEqual(
      edges.slice(4, 8).map((e) => e.node.hash),
    );

    const otherChain = await gw.exec(ChainBlocksDocument, {
      chainId: '43113',
      first: 2,
      after: edges[3]!.cursor,
      txFirst: 0,
    });
    expect(codes(otherChain)).toEqual(['BAD_USER_INPUT']);

    const blockNumber = edges[0]!.node.number;
    const txs = await gw.exec(BlockTransactionsDocument, {
      chainId: C,
      id: blockNumber,
      first: 1,
      after: edges[3]!.cursor,
    });
    expect(codes(txs)).toEqual(['BAD_USER_INPUT']);

    const c = edges[3]!.cursor;
    const tampered = `${c.slice(0, 5)}${c[5] === 'A' ? 'B' : 'A'}${c.slice(6)}`;
    expect(
      codes(
        await gw.exec(ChainBlocksDocument, { chainId: C, first: 2, after: tampered, txFirst: 0 }),
      ),
    ).toEqual(['BAD_USER_INPUT']);

    const back = await gw.query(
      `{ chain(id: "${C}") { blocks(last: 2) { edges { node { number } } } } }`,
    );
    expect(codes(back)).toEqual(['BAD_USER_INPUT']);
    expect(back.errors![0]!.message).toMatch(/first\/after/);
    await gw.close();
  });

  it('a cursor keeps its position while new blocks arrive at the head', async () => {
    const clock = testClock();
    const gw = gateway({
      ttlOverrides: { head: 1 },
      staleOverrides: { head: { swr: 0, ifError: 0 } },
      now: clock.now,
    });
    const a = await gw.exec(ChainBlocksDocument, { chainId: C, first: 5, txFirst: 0 });
    const firstFive = a.data!.chain!.blocks!.edges.map((e) => e.node.number);
    sim.world.advance(C, 3);
    clock.advance(5);
    const b = await gw.exec(ChainBlocksDocument, {
      chainId: C,
      first: 5,
      after: a.data!.chain!.blocks!.pageInfo.endCursor,
      txFirst: 0,
    });
    const next = b.data!.chain!.blocks!.edges.map((e) => e.node.number);
    expect(BigInt(next[0]!)).toBe(BigInt(firstFive[4]!) - 1n);
    const head = await gw.exec(ChainBlocksDocument, { chainId: C, first: 1, txFirst: 0 });
    expect(BigInt(head.data!.chain!.blocks!.edges[0]!.node.number)).toBe(
      BigInt(firstFive[0]!) + 3n,
    );
    await gw.close();
  });
});

describe('upstream call counts through loaders and the shared cache', () => {
  const QUERY = { chainId: C, first: 20, txFirst: 5 };

  it.each([
    ['the in-process LRU', false],
    ['Redis', true],
  ])(
    '20 blocks with their first 5 transactions: 1 + 20 upstream calls cold, 0 warm (%s)',
    async (_name, useRedis) => {
      // Latest blocks are head data (2 s); kept a minute here so a loaded machine cannot turn 'warm' into a miss.
      const ttlOverrides = { head: 60_000 };
      const gw = gateway(useRedis ? { redisUrl, ttlOverrides } : { ttlOverrides });
      await gw.ready();
      const cold = await gw.exec(ChainBlocksDocument, QUERY);
      expect(cold.errors).toBeUndefined();
      const edges = cold.data!.chain!.blocks!.edges;
      expect(edges).toHaveLength(20);
      expect(edges.some((e) => e.node.transactions!.edges.length > 0)).toBe(true);
      // compare one block's transactions with the upstream's own answer
      const withTxs = edges.find((e) => e.node.txCount > 0)!.node;
      const upstreamTxs = (
        await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks/${withTxs.number}/transactions`, {
          pageSize: 5,
        })
      ).transactions;
      expect(withTxs.transactions!.edges.map((e) => e.node.hash)).toEqual(
        upstreamTxs.map((t: any) => t.txHash),
      );
      sim.reset();
      expect(routeCalls()).toEqual({});

      await gw.settled(); // let cache writes land
      sim.reset();
      // the same query again: latest blocks are head data, the rest is final
      const warm = await gw.exec(ChainBlocksDocument, QUERY);
      expect(warm.data).toEqual(cold.data);
      expect(sim.stats().total).toBe(0);
      await gw.close();
      if (useRedis) {
        // a second gateway process sharing Redis: its own LRU is empty, Redis answers everything
        const other = gateway({ redisUrl, ttlOverrides });
        await other.ready();
        const fromRedis = await other.exec(ChainBlocksDocument, QUERY);
        expect(fromRedis.data).toEqual(cold.data);
        expect(sim.stats().total).toBe(0);
        await other.close();
      }
    },
  );

  it('counts exactly 1 latest-blocks call and 20 block-transactions calls cold (the chain itself costs nothing)', async () => {
    const gw = gateway();
    await gw.query(
      `query($c: String!) { chain(id: $c) { chainId blocks(first: 20) { edges { node { number transactions(first: 5) { edges { node { hash } } } } } } } }`,
      { c: C },
    );
    expect(routeCalls()).toEqual({ [BLOCKS_ROUTE]: 1, [BLOCK_TXS_ROUTE]: 20 });
    sim.reset();
    const unknown = await gw.query(
      `{ chain(id: "999999") { name blocks(first: 1) { edges { node { number } } } } }`,
    );
    expect(unknown.data).toEqual({ chain: null });
    expect(codes(unknown)).toContain('NOT_FOUND');
    await gw.close();
  });

  it('blocks a list page holds are loadable by number and by hash without another call', async () => {
    const gw = gateway();
    // Each listed block's parent is the next block of the same upstream page (newest first), read
    // by hash; the last one's parent lies past the returned edges, still inside the page.
    const r = await gw.query(
      `{ chain(id: "${C}") { blocks(first: 3) { edges { node { number parent { number hash } } } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const nodes = (
      r.data as {
        chain: { blocks: { edges: { node: { number: string; parent: { number: string } } }[] } };
      }
    ).chain.blocks.edges.map((e) => e.node);
    for (const n of nodes) expect(BigInt(n.parent.number)).toBe(BigInt(n.number) - 1n);
    expect(routeCalls()).toEqual({ [BLOCKS_ROUTE]: 1 });
    await gw.close();
  });

  it('block(chainId, id) by number and by hash, with parent and chain, through the block loader', async () => {
    const gw = gateway();
    const [latest] = (await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 }))
      .blocks;
    sim.reset();
    const byNumber = await gw.exec(BlockDocument, { chainId: C, id: latest.blockNumber });
    expect(byNumber.errors).toBeUndefined();
    expect(byNumber.data!.block).toMatchObject({
      number: latest.blockNumber,
      hash: latest.blockHash,
    });
    expect(byNumber.data!.block!.parent!.hash).toBe(latest.parentHash);
    expect(byNumber.data!.block!.chain!.chainId).toBe(C);
    const byHash = await gw.exec(BlockDocument, {
      chainId: C,
      id: latest.blockHash.toUpperCase().replace('0X', '0x'),
    });
    expect(byHash.data!.block!.number).toBe(latest.blockNumber);
    expect(routeCalls()[BLOCK_ROUTE]).toBe(3); // by number, its parent by hash, then by hash (no priming across requests)
    await gw.close();
  });

  it('node(id) refetches blocks, chains and transactions; malformed and unknown ids are typed errors', async () => {
    const gw = gateway();
    const r = await gw.exec(ChainBlocksDocument, { chainId: C, first: 1, txFirst: 1 });
    const block = r.data!.chain!.blocks!.edges[0]!.node;
    for (const id of [
      r.data!.chain!.id,
      block.id,
      ...block.transactions!.edges.map((e) => e.node.id),
    ]) {
      const n = await gw.exec(NodeDocument, { id });
      expect(n.errors).toBeUndefined();
      expect(n.data!.node!.id).toBe(id);
    }
    expect(codes(await gw.exec(NodeDocument, { id: '!!!' }))).toEqual(['BAD_USER_INPUT']);
    const wrongKey = Buffer.from('Block:43114:not-a-number').toString('base64url');
    expect(codes(await gw.exec(NodeDocument, { id: wrongKey }))).toEqual(['BAD_USER_INPUT']);
    const unknownBlock = Buffer.from('Block:43114:999999999').toString('base64url');
    expect(codes(await gw.exec(NodeDocument, { id: unknownBlock }))).toEqual(['NOT_FOUND']);
    await gw.close();
  });
});

describe("a block's transactions: a final list pages without snapshots", () => {
  it('writes no head-page snapshot, and another replica resumes its cursor from the cached first page with 0 upstream calls', async () => {
    const latest = await simGet<{ blocks: { blockNumber: string }[] }>(
      sim.dataApiUrl,
      `/v1/chains/${C}/blocks`,
      { pageSize: 50 },
    );
    // A block with at least four transactions (the simulated chain has plenty).
    let id: string | undefined;
    let upstream: { txHash: string }[] = [];
    for (const b of latest.blocks.slice(5)) {
      const txs = await simGet<{ transactions: { txHash: string }[] }>(
        sim.dataApiUrl,
        `/v1/chains/${C}/blocks/${b.blockNumber}/transactions`,
        { pageSize: 100 },
      );
      if (txs.transactions.length >= 4) {
        id = b.blockNumber;
        upstream = txs.transactions;
        break;
      }
    }
    expect(id).toBeDefined();
    const a = gateway({ redisUrl });
    const b = gateway({ redisUrl });
    await Promise.all([a.ready(), b.ready()]);
    sim.reset();
    const first = await a.exec(BlockTransactionsDocument, { chainId: C, id: id!, first: 2 });
    expect(first.errors).toBeUndefined();
    const conn = first.data!.block!.transactions!;
    expect(conn.pageInfo.hasNextPage).toBe(true);
    await a.settled(); // cache writes land
    const redis = new Redis(redisUrl);
    try {
      expect(await redis.keys(keys.pageSnapshot('*'))).toEqual([]);
    } finally {
      redis.disconnect();
    }
    sim.reset();
    const next = await b.exec(BlockTransactionsDocument, {
      chainId: C,
      id: id!,
      first: 2,
      after: conn.pageInfo.endCursor,
    });
    expect(codes(next)).toEqual([]);
    expect(
      [...conn.edges, ...next.data!.block!.transactions!.edges].map((e) => e.node.hash),
    ).toEqual(upstream.slice(0, 4).map((t) => t.txHash));
    expect(sim.stats().total).toBe(0); // the block and its first page, both from the shared cache
    await a.close();
    await b.close();
  });
});
