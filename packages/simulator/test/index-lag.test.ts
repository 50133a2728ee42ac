import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';
import { get, send } from './helpers.js';

/**
 * `indexLagBlocks: 3`: the Data API answers as of the node's head minus 3 blocks (its blocks, address
 * lists and balances), from a world of its own that gets the node's very blocks 3 blocks later.
 */
const LAG = 3;
let lagging: RunningSimulator;
let plain: RunningSimulator;
beforeAll(async () => {
  [lagging, plain] = await Promise.all([
    startSimulator({ port: 0, indexLagBlocks: LAG }),
    startSimulator({ port: 0 }),
  ]);
});
afterAll(async () => {
  await Promise.all([lagging.close(), plain.close()]);
});

const hex = (n: number) => `0x${n.toString(16)}`;
const rpc = async (s: RunningSimulator, method: string, params: unknown[]) =>
  (await send(s.nodeUrl, 'POST', '/ext/bc/C/rpc', { jsonrpc: '2.0', id: 1, method, params })).body
    .result;
const advance = (s: RunningSimulator, blocks = 1) =>
  send(s.url, 'POST', '/_sim/advance', { chainId: '43114', blocks });

describe('index lag', () => {
  it('starts the node 3 blocks past the Data API, on the very same blocks', async () => {
    for (const c of lagging.world.chains) {
      const node = lagging.world.chain(c.chainId)!;
      const api = lagging.indexed.chain(c.chainId)!;
      expect(node.head().number - api.head().number).toBe(LAG);
      // The same numbers are the same blocks (and the same as a world with no lag).
      expect(api.blocks.map((b) => b.hash)).toEqual(
        node.blocks.slice(0, api.blocks.length).map((b) => b.hash),
      );
      expect(api.blocks.map((b) => b.hash)).toEqual(
        plain.world.chain(c.chainId)!.blocks.map((b) => b.hash),
      );
    }
    expect(lagging.world.fixtures).toEqual(plain.world.fixtures);
    const latest = await get(lagging.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 });
    expect(Number(latest.body.blocks[0].blockNumber)).toBe(
      lagging.world.chain('43114')!.head().number - LAG,
    );
    expect(Number(await rpc(lagging, 'eth_blockNumber', []))).toBe(
      lagging.world.chain('43114')!.head().number,
    );
  });

  it(
    "knows a head block, its transactions and the touched address's list and balance only " +
      '3 blocks later',
    async () => {
      const node = lagging.world.chain('43114')!;
      // A head block with a successful transaction (a few blocks are empty).
      do await advance(lagging);
      while (!node.blockTxs(node.head()).some((t) => t.status === 1));
      const H = node.head().number;
      const tx = node.blockTxs(node.head()).find((t) => t.status === 1)!;
      const from = tx.from.toLowerCase();
      for (let k = 0; k <= LAG; k++) {
        if (k > 0) await advance(lagging);
        const indexed = k >= LAG;
        const block = await get(lagging.dataApiUrl, `/v1/chains/43114/blocks/${H}`);
        expect(block.status).toBe(indexed ? 200 : 404);
        if (indexed) expect(block.body.blockHash).toBe(node.block(H)!.hash);
        expect(
          (await get(lagging.dataApiUrl, `/v1/chains/43114/transactions/${tx.hash}`)).status,
        ).toBe(indexed ? 200 : 404);
        // The node has it at once.
        expect((await rpc(lagging, 'eth_getBlockByNumber', [hex(H), false])).hash).toBe(
          node.block(H)!.hash,
        );
        const list = await get(
          lagging.dataApiUrl,
          `/v1/chains/43114/addresses/${from}/transactions`,
          {
            pageSize: 50,
          },
        );
        expect(
          list.body.transactions.some((t: any) => t.nativeTransaction.txHash === tx.hash),
        ).toBe(indexed);
        // The Data API's balance is the node's as of its head minus the lag.
        const api = await get(
          lagging.dataApiUrl,
          `/v1/chains/43114/addresses/${from}/balances:getNative`,
        );
        const at = node.head().number - LAG;
        expect(api.body.nativeTokenBalance.balance).toBe(
          BigInt(await rpc(lagging, 'eth_getBalance', [from, hex(at)])).toString(),
        );
        // A block number past what it indexed is refused, as the real one does.
        const ahead = await get(
          lagging.dataApiUrl,
          `/v1/chains/43114/addresses/${from}/balances:getNative`,
          { blockNumber: node.head().number },
        );
        expect(ahead.status).toBe(400);
      }
    },
  );

  it('is off by default: the Data API knows the head block at once', async () => {
    expect(plain.indexed).toBe(plain.world);
    await advance(plain);
    const head = plain.world.chain('43114')!.head();
    const block = await get(plain.dataApiUrl, `/v1/chains/43114/blocks/${head.number}`);
    expect(block.status).toBe(200);
    expect(block.body.blockHash).toBe(head.hash);
  });
});
