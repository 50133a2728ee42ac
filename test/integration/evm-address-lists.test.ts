import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  AddressErc20TransfersDocument,
  AddressErc721TransfersDocument,
  AddressErc1155TransfersDocument,
  AddressInternalTransactionLinksDocument,
  AddressInternalTransactionsDocument,
  AddressNativeTransactionsDocument,
  AddressTransactionsDocument,
} from '../__generated__/graphql.js';
import { testClock } from '../support/clock.js';
import * as X from '../support/evm-expected.js';
import {
  codes,
  createTestGateway,
  type TestGateway,
  useSimAndGateway,
} from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/** Every address list pages to its end, item for item the upstream's own sequence, with every field. */
const C = '43114';
let sim: RunningSimulator;
let gw: TestGateway;
let busy: string;
let ordinary: string;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
  busy = sim.world.fixtures.busyAddress;
  ordinary = sim.world.fixtures.ordinaryAddress;
});

/** The upstream's whole list, following nextPageToken at its largest page size. */
async function upstreamList(
  path: string,
  query: Record<string, string | number | undefined> = {},
): Promise<any[]> {
  const out: any[] = [];
  let pageToken: string | undefined;
  do {
    const page = await simGet(sim.dataApiUrl, path, { ...query, pageSize: 100, pageToken });
    out.push(...page.transactions);
    pageToken = page.nextPageToken || undefined;
  } while (pageToken);
  return out;
}

interface Conn<E> {
  edges: E[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

/** Pages a connection with `first` until hasNextPage is false; returns every edge. */
async function walk<E>(
  first: number,
  page: (after: string | null) => Promise<Conn<E>>,
): Promise<E[]> {
  const edges: E[] = [];
  let after: string | null = null;
  for (let i = 0; i < 200; i++) {
    const conn = await page(after);
    edges.push(...conn.edges);
    expect(conn.edges.length).toBeLessThanOrEqual(first);
    if (!conn.pageInfo.hasNextPage) return edges;
    after = conn.pageInfo.endCursor!;
  }
  throw new Error('did not reach the end');
}

const strip = <T extends { cursor?: string }>({ cursor: _c, ...rest }: T) => rest;

describe('Address.transactions (combined list)', () => {
  it('pages a busy address to its end (first: 300): every upstream item once, with its address-scoped transfers', async () => {
    const expected = await upstreamList(`/v1/chains/${C}/addresses/${busy}/transactions`);
    expect(expected.length).toBeGreaterThan(1000);
    const edges = await walk(300, async (after) => {
      const r = await gw.exec(AddressTransactionsDocument, {
        chainId: C,
        address: busy,
        first: 300,
        after,
      });
      expect(r.errors).toBeUndefined();
      return r.data!.address!.transactions!;
    });
    expect(edges.map((e) => e.node.hash)).toEqual(expected.map((t) => t.nativeTransaction.txHash));
    expect(edges.map(strip)).toEqual(expected.map(X.combinedEdge));
    // the scoped transfers really are scoped: each names the requested address
    const me = busy.toLowerCase();
    const scoped = edges.flatMap((e) => [
      ...e.erc20Transfers,
      ...e.erc721Transfers,
      ...e.erc1155Transfers,
      ...e.internalTransactions,
    ]);
    expect(scoped.length).toBeGreaterThan(0);
    for (const x of scoped) expect([x.from.address, x.to.address]).toContain(me);
  });

  it('sortOrder and a block range give the upstream’s own answer for those arguments', async () => {
    const head = Number(
      (await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 })).blocks[0]
        .blockNumber,
    );
    const [startBlock, endBlock] = [head - 300, head - 100];
    for (const sortOrder of ['ASC', 'DESC'] as const) {
      const expected = await upstreamList(`/v1/chains/${C}/addresses/${busy}/transactions`, {
        startBlock,
        endBlock,
        sortOrder: sortOrder.toLowerCase(),
      });
      expect(expected.length).toBeGreaterThan(100);
      const edges = await walk(150, async (after) => {
        const r = await gw.exec(AddressTransactionsDocument, {
          chainId: C,
          address: busy,
          first: 150,
          after,
          startBlock: String(startBlock),
          endBlock: String(endBlock),
          sortOrder,
        });
        expect(r.errors).toBeUndefined();
        return r.data!.address!.transactions!;
      });
      expect(edges.map(strip)).toEqual(expected.map(X.combinedEdge));
      const numbers = edges.map((e) => Number(e.node.blockNumber));
      expect(Math.min(...numbers)).toBeGreaterThanOrEqual(startBlock);
      expect(Math.max(...numbers)).toBeLessThan(endBlock);
      const sorted = [...numbers].sort((a, b) => (sortOrder === 'ASC' ? a - b : b - a));
      expect(numbers).toEqual(sorted);
    }
  });
});

describe('the other address lists page to their end', () => {
  it('nativeTransactions (first: 250)', async () => {
    const expected = await upstreamList(
      `/v1/chains/${C}/addresses/${busy}/transactions:listNative`,
    );
    const edges = await walk(250, async (after) => {
      const r = await gw.exec(AddressNativeTransactionsDocument, {
        chainId: C,
        address: busy,
        first: 250,
        after,
      });
      expect(r.errors).toBeUndefined();
      return r.data!.address!.nativeTransactions!;
    });
    expect(edges.map((e) => e.node)).toEqual(expected.map(X.transaction));
  });

  it('erc20Transfers (first: 250)', async () => {
    const expected = await upstreamList(`/v1/chains/${C}/addresses/${busy}/transactions:listErc20`);
    expect(expected.length).toBeGreaterThan(1000);
    const edges = await walk(250, async (after) => {
      const r = await gw.exec(AddressErc20TransfersDocument, {
        chainId: C,
        address: busy,
        first: 250,
        after,
      });
      expect(r.errors).toBeUndefined();
      return r.data!.address!.erc20Transfers!;
    });
    expect(edges.map((e) => e.node)).toEqual(
      expected.map((x) => X.erc20Transfer(X.positionOf(C, x), x)),
    );
  });

  it('erc721Transfers (first: 50)', async () => {
    const expected = await upstreamList(
      `/v1/chains/${C}/addresses/${busy}/transactions:listErc721`,
    );
    expect(expected.length).toBeGreaterThan(100);
    const edges = await walk(50, async (after) => {
      const r = await gw.exec(AddressErc721TransfersDocument, {
        chainId: C,
        address: busy,
        first: 50,
        after,
      });
      expect(r.errors).toBeUndefined();
      return r.data!.address!.erc721Transfers!;
    });
    expect(edges.map((e) => e.node)).toEqual(
      expected.map((x) => X.erc721Transfer(X.positionOf(C, x), x)),
    );
  });

  it('erc1155Transfers (first: 40)', async () => {
    const expected = await upstreamList(
      `/v1/chains/${C}/addresses/${busy}/transactions:listErc1155`,
    );
    expect(expected.length).toBeGreaterThan(100);
    const edges = await walk(40, async (after) => {
      const r = await gw.exec(AddressErc1155TransfersDocument, {
        chainId: C,
        address: busy,
        first: 40,
        after,
      });
      expect(r.errors).toBeUndefined();
      return r.data!.address!.erc1155Transfers!;
    });
    expect(edges.map((e) => e.node)).toEqual(
      expected.map((x) => X.erc1155Transfer(X.positionOf(C, x), x)),
    );
  });

  it('internalTransactions of a contract (first: 400), each linking its transaction and block', async () => {
    const wavax = sim.world.fixtures.contracts.erc20;
    const expected = await upstreamList(
      `/v1/chains/${C}/addresses/${wavax}/transactions:listInternals`,
    );
    expect(expected.length).toBeGreaterThan(1000);
    const edges = await walk(400, async (after) => {
      const r = await gw.exec(AddressInternalTransactionsDocument, {
        chainId: C,
        address: wavax,
        first: 400,
        after,
      });
      expect(r.errors).toBeUndefined();
      return r.data!.address!.internalTransactions!;
    });
    expect(edges.map((e) => e.node)).toEqual(
      expected.map((x) => X.internalTransaction(X.positionOf(C, x), x)),
    );
    // links: the full transaction through the transaction loader, the block through the block loader
    const links = await gw.exec(AddressInternalTransactionLinksDocument, {
      chainId: C,
      address: wavax,
      first: 5,
    });
    expect(links.errors).toBeUndefined();
    expect(
      links.data!.address!.internalTransactions!.edges.map((e) => [
        e.node.transaction!.hash,
        e.node.block!.number,
      ]),
    ).toEqual(expected.slice(0, 5).map((x) => [x.txHash, x.blockNumber]));
  });

  it('a block range narrows every list; an ordinary address’s short lists end in one page', async () => {
    const head = Number(
      (await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 1 })).blocks[0]
        .blockNumber,
    );
    const range = { startBlock: String(head - 150), endBlock: String(head - 40) };
    const expected = await upstreamList(
      `/v1/chains/${C}/addresses/${busy}/transactions:listErc20`,
      range,
    );
    expect(expected.length).toBeGreaterThan(100);
    expect(expected.length).toBeLessThan(500);
    const r = await gw.exec(AddressErc20TransfersDocument, {
      chainId: C,
      address: busy,
      first: 500,
      ...range,
    });
    expect(
      r.data!.address!.erc20Transfers!.edges.map((e) => `${e.node.txHash}:${e.node.logIndex}`),
    ).toEqual(expected.map((x) => `${x.txHash}:${x.logIndex}`));
    expect(r.data!.address!.erc20Transfers!.pageInfo.hasNextPage).toBe(false);

    const native = await upstreamList(
      `/v1/chains/${C}/addresses/${ordinary}/transactions:listNative`,
    );
    sim.reset();
    const short = await gw.exec(AddressNativeTransactionsDocument, {
      chainId: C,
      address: ordinary.toUpperCase().replace('0X', '0x'),
      first: 100,
    });
    expect(short.data!.address!.nativeTransactions!.edges.map((e) => e.node.hash)).toEqual(
      native.map((t) => t.txHash),
    );
    expect(short.data!.address!.nativeTransactions!.pageInfo.hasNextPage).toBe(false);
    expect(sim.stats().total).toBe(1);
  });

  it('a cursor of one list is refused by another list, by another address and under another range', async () => {
    const r = await gw.exec(AddressErc20TransfersDocument, { chainId: C, address: busy, first: 2 });
    const cursor = r.data!.address!.erc20Transfers!.pageInfo.endCursor!;
    sim.reset();
    const others = [
      gw.exec(AddressErc721TransfersDocument, {
        chainId: C,
        address: busy,
        first: 2,
        after: cursor,
      }),
      gw.exec(AddressErc20TransfersDocument, {
        chainId: C,
        address: ordinary,
        first: 2,
        after: cursor,
      }),
      gw.exec(AddressErc20TransfersDocument, {
        chainId: C,
        address: busy,
        first: 2,
        after: cursor,
        startBlock: '1',
      }),
    ];
    for (const o of await Promise.all(others)) {
      expect(codes(o)).toEqual(['BAD_USER_INPUT']);
      expect(o.errors![0]!.extensions!.argument).toBe('after');
    }
    expect(sim.stats().total).toBe(0);
  });
});

// Last: it advances the simulated chain, which the lists above compare against.
describe('cursor stability', () => {
  it('a cursor keeps its position while new blocks land at the head: no item repeated or skipped', async () => {
    const clock = testClock();
    const local = createTestGateway(sim, { ttlOverrides: { head: 1 }, now: clock.now });
    const first = await local.exec(AddressTransactionsDocument, {
      chainId: C,
      address: busy,
      first: 30,
    });
    const before = await upstreamList(`/v1/chains/${C}/addresses/${busy}/transactions`);
    sim.world.advance(C, 20);
    clock.advance(5);
    const next = await local.exec(AddressTransactionsDocument, {
      chainId: C,
      address: busy,
      first: 30,
      after: first.data!.address!.transactions!.pageInfo.endCursor,
    });
    expect(next.errors).toBeUndefined();
    const seen = [
      ...first.data!.address!.transactions!.edges,
      ...next.data!.address!.transactions!.edges,
    ].map((e) => e.node.hash);
    expect(seen).toEqual(before.slice(0, 60).map((t) => t.nativeTransaction.txHash));
    await local.close();
  });
});
