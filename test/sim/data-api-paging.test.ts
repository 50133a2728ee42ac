import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, walk } from '../../packages/simulator/test/helpers.js';
import { testClock } from '../support/clock.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim?.close());

const uniq = (xs: string[]) => new Set(xs).size === xs.length;

describe('Data API paging', () => {
  it('walks every block of a chain exactly once, newest first, no token on the last page', async () => {
    const chain = sim.world.chain('43114')!;
    const { items, pages } = await walk(sim.dataApiUrl, '/v1/chains/43114/blocks', 'blocks', {
      pageSize: 100,
    });
    expect(items.map((b) => Number(b.blockNumber))).toEqual(
      chain.blocks.map((b) => b.number).reverse(),
    );
    expect(pages).toBe(Math.ceil(chain.blocks.length / 100));
    const firstPage = await get(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 100 });
    expect(firstPage.body.nextPageToken).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('walks every list of a busy address exactly once', async () => {
    const { busyAddress: a } = sim.world.fixtures;
    const act = sim.world.chain('43114')!.activity(a)!;
    const base = `/v1/chains/43114/addresses/${a}`;
    const combined = await walk(sim.dataApiUrl, `${base}/transactions`, 'transactions', {
      pageSize: 100,
    });
    expect(combined.items.length).toBe(act.txs.length);
    expect(act.txs.length).toBeGreaterThan(1000);
    expect(uniq(combined.items.map((t) => t.nativeTransaction.txHash))).toBe(true);
    const asc = await walk(sim.dataApiUrl, `${base}/transactions`, 'transactions', {
      pageSize: 100,
      sortOrder: 'asc',
    });
    expect(asc.items.map((t) => t.nativeTransaction.txHash)).toEqual(
      combined.items.map((t) => t.nativeTransaction.txHash).reverse(),
    );
    const native = await walk(sim.dataApiUrl, `${base}/transactions:listNative`, 'transactions', {
      pageSize: 37,
    });
    expect(native.items.length).toBe(act.native.length);
    for (const [kind, n] of [
      ['Erc20', act.erc20.length],
      ['Erc721', act.erc721.length],
      ['Erc1155', act.erc1155.length],
      ['Internals', act.internals.length],
    ] as const) {
      const list = await walk(sim.dataApiUrl, `${base}/transactions:list${kind}`, 'transactions', {
        pageSize: 50,
      });
      expect(list.items.length, kind).toBe(n);
      const keys = list.items.map(
        (t) => `${t.txHash}:${t.logIndex ?? ''}:${t.to?.address ?? ''}:${t.value ?? ''}`,
      );
      expect(uniq(keys), kind).toBe(true);
    }
  });

  it('applies startBlock inclusive and endBlock exclusive', async () => {
    const { busyAddress: a, blockNumber } = sim.world.fixtures;
    const [start, end] = [blockNumber - 20, blockNumber + 20];
    const { items } = await walk(
      sim.dataApiUrl,
      `/v1/chains/43114/addresses/${a}/transactions:listNative`,
      'transactions',
      { pageSize: 100, startBlock: start, endBlock: end },
    );
    const chain = sim.world.chain('43114')!;
    const expected = chain
      .activity(a)!
      .native.map((s) => chain.transactions[s]!)
      .filter((t) => t.blockNumber >= start && t.blockNumber < end);
    expect(items.map((t) => t.txHash)).toEqual(expected.map((t) => t.hash).reverse());
    expect(items.some((t) => Number(t.blockNumber) === end)).toBe(false);
  });

  it('pages primary-network lists and ICM messages to the end', async () => {
    const w = sim.world;
    const self = await walk(
      sim.dataApiUrl,
      `/v1/networks/mainnet/validators/${w.selfNodeId}`,
      'validators',
      { pageSize: 1 },
    );
    expect(self.items.length).toBe(w.primary.mainnet.validatorsByNode.get(w.selfNodeId)!.length);
    expect(uniq(self.items.map((v) => v.txHash))).toBe(true);
    const l1 = await walk(sim.dataApiUrl, '/v1/networks/mainnet/l1Validators', 'validators', {
      pageSize: 100,
      includeInactiveL1Validators: 'true',
    });
    expect(l1.items.length).toBe(w.primary.mainnet.l1Validators.length);
    const activeL1 = await walk(sim.dataApiUrl, '/v1/networks/mainnet/l1Validators', 'validators', {
      pageSize: 100,
    });
    expect(activeL1.items.length).toBe(
      w.primary.mainnet.l1Validators.filter((v) => v.active).length,
    );
    const staking = await walk(
      sim.dataApiUrl,
      '/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking',
      'transactions',
      { pageSize: 100 },
    );
    expect(staking.items.length).toBe(
      w.primary.mainnet.stakingTxs.filter((t) => t.endTimestamp > w.now).length,
    );
    expect(uniq(staking.items.map((t) => t.txHash))).toBe(true);
    const icm = await walk(
      sim.dataApiUrl,
      `/v1/icm/addresses/${w.fixtures.icmAddress}/messages`,
      'messages',
      { pageSize: 7 },
    );
    expect(icm.items.length).toBe(w.icm.forAddress(w.fixtures.icmAddress).length);
    const ts = icm.items.map(
      (m) => m.sourceTransaction?.timestamp ?? m.destinationTransaction.timestamp,
    );
    expect([...ts].sort((x, y) => y - x)).toEqual(ts);
  });

  it("pages a block's transactions, and pageSize 0 (the default) returns the whole block", async () => {
    const { blockNumber } = sim.world.fixtures;
    const chain = sim.world.chain('43114')!;
    const txs = chain.blockTxs(chain.block(blockNumber)!).map((t) => t.hash);
    const all = await get(sim.dataApiUrl, `/v1/chains/43114/blocks/${blockNumber}/transactions`);
    expect(all.body.transactions.map((t: any) => t.txHash)).toEqual(txs);
    expect(all.body.nextPageToken).toBeUndefined();
    const paged = await walk(
      sim.dataApiUrl,
      `/v1/chains/43114/blocks/${blockNumber}/transactions`,
      'transactions',
      { pageSize: 4 },
    );
    expect(paged.items.map((t) => t.txHash)).toEqual(txs);
  });

  it('keeps a token on its position while new head blocks arrive', async () => {
    const own = await startSimulator({ port: 0 });
    try {
      const first = await get(own.dataApiUrl, '/v1/chains/43114/transactions', { pageSize: 50 });
      const before = own.world
        .chain('43114')!
        .transactions.map((t) => t.hash)
        .reverse();
      own.world.advance('43114', 5);
      const rest = await walk(own.dataApiUrl, '/v1/chains/43114/transactions', 'transactions', {
        pageSize: 100,
        pageToken: first.body.nextPageToken,
      });
      const seen = [...first.body.transactions, ...rest.items].map((t: any) => t.txHash);
      expect(seen).toEqual(before);
      const fresh = await get(own.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 });
      expect(Number(fresh.body.blocks[0].blockNumber)).toBe(own.world.head('43114').number);
    } finally {
      await own.close();
    }
  });

  it('binds a token to its query, and refuses unknown and expired tokens', async () => {
    const { busyAddress: a } = sim.world.fixtures;
    const path = `/v1/chains/43114/addresses/${a}/transactions`;
    const first = await get(sim.dataApiUrl, path, { pageSize: 10, sortOrder: 'asc' });
    const token = first.body.nextPageToken as string;
    const ok = await get(sim.dataApiUrl, path, {
      pageSize: 25,
      sortOrder: 'asc',
      pageToken: token,
    });
    expect(ok.status).toBe(200);
    const other = await get(sim.dataApiUrl, path, {
      pageSize: 10,
      sortOrder: 'desc',
      pageToken: token,
    });
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    const elsewhere = await get(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageToken: token });
    expect(elsewhere.status).toBe(400);
    const unknown = await get(sim.dataApiUrl, path, {
      pageToken: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(400);

    const clock = testClock();
    const short = await startSimulator({ port: 0, pageTokenTtlMs: 50, now: clock.now });
    try {
      const p = await get(short.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 });
      clock.advance(80);
      const expired = await get(short.dataApiUrl, '/v1/chains/43114/blocks', {
        pageSize: 1,
        pageToken: p.body.nextPageToken,
      });
      expect(expired.status).toBe(400);
      expect(JSON.stringify(expired.body.message)).toMatch(/expired/);
    } finally {
      await short.close();
    }
  });
});
