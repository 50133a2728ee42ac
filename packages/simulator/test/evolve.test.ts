import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';

/** `/_sim/advance` moves the whole world, not only blocks (see packages/simulator/src/world/evolve.ts). */

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim?.close());

const get = async (path: string) => (await fetch(sim.dataApiUrl + path)).json() as Promise<any>;
const advance = async (body: Record<string, unknown> = {}) =>
  (
    await fetch(`${sim.url}/_sim/advance`, {
      method: 'POST',
      body: JSON.stringify({ chainId: '43114', blocks: 2, ...body }),
    })
  ).json() as Promise<any>;

describe('a changing world', () => {
  it('delivers pending ICM messages, ends active stakes, starts pending ones, moves prices, balances and address lists', async () => {
    const w = sim.world;
    const pendingMsg = w.icm.messages.find((m) => m.status === 'pending')!;
    const before = {
      msg: await get(`/v1/icm/messages/${pendingMsg.messageId}`),
      staking: await get(
        '/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?pageSize=100',
      ),
      tx: await get(`/v1/chains/43114/transactions/${w.fixtures.txHash}`),
      balance: await get(`/v1/chains/43114/addresses/${w.fixtures.busyAddress}/balances:getNative`),
      desc: await get(
        `/v1/chains/43114/addresses/${w.fixtures.busyAddress}/transactions?pageSize=100`,
      ),
    };
    expect(before.msg.status).toBe('pending');

    const steps = [];
    for (
      let i = 0;
      i < 40 &&
      w.icm.messages.find((m) => m.messageId === pendingMsg.messageId)!.status === 'pending';
      i++
    )
      steps.push((await advance()).world);
    expect(steps.every((s) => s && s.completed.length === 1)).toBe(true);

    const msg = await get(`/v1/icm/messages/${pendingMsg.messageId}`);
    expect(msg.status).toBe('delivered');
    expect(msg.destinationTransaction.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    // An ended stake leaves the active staking list and its validation period reads completed.
    const ended = steps[0].completed[0] as string;
    const rec = w.primary.mainnet.validators.find((v) => v.txHash === ended)!;
    const periods = await get(`/v1/networks/mainnet/validators/${rec.nodeId}?pageSize=100`);
    expect(periods.validators.find((v: any) => v.txHash === ended).validationStatus).toBe(
      'completed',
    );
    const stakingAfter = await get(
      '/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking?pageSize=100',
    );
    const hashes = (r: any) => r.transactions.map((t: any) => t.txHash);
    if (hashes(before.staking).includes(ended)) expect(hashes(stakingAfter)).not.toContain(ended);

    // Prices move: the current price of a tx changes, its historical price does not.
    const tx = await get(`/v1/chains/43114/transactions/${w.fixtures.txHash}`);
    expect(tx.networkTokenDetails.currentPrice.value).not.toBe(
      before.tx.networkTokenDetails.currentPrice.value,
    );
    expect(tx.networkTokenDetails.historicalPrice).toEqual(
      before.tx.networkTokenDetails.historicalPrice,
    );
    const balance = await get(
      `/v1/chains/43114/addresses/${w.fixtures.busyAddress}/balances:getNative`,
    );
    expect(balance.nativeTokenBalance.price.value).not.toBe(
      before.balance.nativeTokenBalance.price.value,
    );

    // The busy address gains transactions: the newest-first list has a new head.
    const desc = await get(
      `/v1/chains/43114/addresses/${w.fixtures.busyAddress}/transactions?pageSize=100`,
    );
    expect(desc.transactions[0].nativeTransaction.txHash).not.toBe(
      before.desc.transactions[0].nativeTransaction.txHash,
    );
    expect(Number(desc.transactions[0].nativeTransaction.blockNumber)).toBeGreaterThan(
      Number(before.desc.transactions[0].nativeTransaction.blockNumber),
    );
  });

  it('is deterministic per seed, and `evolve: false` only adds blocks', async () => {
    const a = await startSimulator({ port: 0, seed: 'evolve-x' });
    const b = await startSimulator({ port: 0, seed: 'evolve-x' });
    try {
      const step = async (s: RunningSimulator, body: Record<string, unknown> = {}) =>
        (
          await fetch(`${s.url}/_sim/advance`, {
            method: 'POST',
            body: JSON.stringify({ chainId: '43114', blocks: 1, ...body }),
          })
        ).json() as Promise<any>;
      expect((await step(a)).world).toEqual((await step(b)).world);
      const price = a.world.market.avaxUsd;
      expect((await step(a, { evolve: false })).world).toBeNull();
      expect(a.world.market.avaxUsd).toBe(price);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
