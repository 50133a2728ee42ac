import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';
import { logsBloom } from '../src/node-rpc/evm-logs.js';
import { get, send } from './helpers.js';

/**
 * `disagree: ['invisible-payouts']`: new blocks sometimes carry a contract's AVAX payout to a plain
 * address that neither the block's transactions (from/to) nor its logs name, so a reader of blocks
 * cannot see the change, while the Data API and the node's state show it.
 */
let sim: RunningSimulator;
let plain: RunningSimulator;
let rebasing: RunningSimulator;
beforeAll(async () => {
  [sim, plain, rebasing] = await Promise.all([
    startSimulator({ port: 0, disagree: ['invisible-payouts'] }),
    startSimulator({ port: 0 }),
    startSimulator({ port: 0, disagree: ['silent-token'] }),
  ]);
});
afterAll(async () => {
  await Promise.all([sim.close(), plain.close(), rebasing.close()]);
});

const rpc = async (s: RunningSimulator, method: string, params: unknown[]) =>
  (await send(s.nodeUrl, 'POST', '/ext/bc/C/rpc', { jsonrpc: '2.0', id: 1, method, params })).body
    .result;

describe('invisible payouts', () => {
  it('change a plain address balance that no transaction or log of the block names', async () => {
    const first = sim.world.chain('43114')!.head().number + 1;
    await send(sim.url, 'POST', '/_sim/advance', { chainId: '43114', blocks: 12 });
    const chain = sim.world.chain('43114')!;
    const ordinary = new Set(sim.world.addressBook.ordinary.map((a) => a.toLowerCase()));
    let seen = 0;
    for (let n = first; n < first + 12; n++) {
      const block = await rpc(sim, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, true]);
      const named = new Set<string>(
        block.transactions.flatMap((t: any) =>
          [t.from, t.to].filter(Boolean).map((a: string) => a.toLowerCase()),
        ),
      );
      for (const tx of chain.transactions.filter((t) => t.blockNumber === n))
        for (const it of tx.internals) {
          const to = it.to.toLowerCase();
          if (!ordinary.has(to) || named.has(to) || it.value === 0n) continue;
          seen += 1;
          // Not in the block's logs either: none names it as emitter or topic, and those logs are
          // the whole header bloom.
          const hex = `0x${n.toString(16)}`;
          const logs = await rpc(sim, 'eth_getLogs', [{ fromBlock: hex, toBlock: hex }]);
          expect(logsBloom(logs)).toBe(block.logsBloom);
          expect(JSON.stringify(logs).toLowerCase()).not.toContain(to.slice(2));
          // The node's state and the Data API both count it.
          const before = chain.nativeBalance(to, n - 1);
          const after = chain.nativeBalance(to, n);
          expect(after - before).toBe(it.value);
          expect(BigInt(await rpc(sim, 'eth_getBalance', [to, `0x${n.toString(16)}`]))).toBe(after);
          const api = await get(
            sim.dataApiUrl,
            `/v1/chains/43114/addresses/${to}/balances:getNative`,
            {
              blockNumber: n,
            },
          );
          expect(api.body.nativeTokenBalance.balance).toBe(after.toString());
        }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('are off by default, and the history before them is the same world', async () => {
    const a = sim.world.chain('43114')!;
    const b = plain.world.chain('43114')!;
    const start = b.head().number;
    expect(a.blocks.slice(0, 100).map((x) => x.hash)).toEqual(
      b.blocks.slice(0, 100).map((x) => x.hash),
    );
    await send(plain.url, 'POST', '/_sim/advance', { chainId: '43114', blocks: 12 });
    const payouts = b.transactions
      .filter((t) => t.blockNumber > start)
      .flatMap((t) => t.internals)
      .filter((it) => it.gasLimit === 2_300);
    expect(payouts).toEqual([]);
  });
});

/**
 * `disagree: ['silent-token']`: the address book's first ERC-20 rebases in some new blocks, so its
 * holders' balances change with no transaction and no `Transfer` log naming them; the node's
 * `balanceOf` and the Data API's ERC-20 balances both show it (one truth: the chain's erc20Balances).
 */
describe('a silent token', () => {
  const balanceOf = (holder: string) => `0x70a08231${holder.slice(2).padStart(64, '0')}`;

  it("changes a holder's balance in blocks whose transactions and logs do not name it", async () => {
    const token = rebasing.world.addressBook.erc20[0]!.address.toLowerCase();
    const chain = rebasing.world.chain('43114')!;
    const first = chain.head().number + 1;
    await send(rebasing.url, 'POST', '/_sim/advance', { chainId: '43114', blocks: 12 });
    const holders = [...rebasing.world.addressBook.busy, ...rebasing.world.addressBook.ordinary]
      .map((a) => a.toLowerCase())
      .filter((a) => (chain.erc20Balances(a).get(token) ?? 0n) > 0n);
    expect(holders.length).toBeGreaterThan(0);
    let seen = 0;
    for (let n = first; n < first + 12; n++) {
      const hex = `0x${n.toString(16)}`;
      const logs = JSON.stringify(
        await rpc(rebasing, 'eth_getLogs', [{ fromBlock: hex, toBlock: hex }]),
      );
      const block = await rpc(rebasing, 'eth_getBlockByNumber', [hex, true]);
      for (const holder of holders.slice(0, 5)) {
        const named =
          logs.toLowerCase().includes(holder.slice(2)) ||
          block.transactions.some((t: any) => t.from === holder || t.to === holder);
        const before = chain.erc20Balances(holder, n - 1).get(token) ?? 0n;
        const after = chain.erc20Balances(holder, n).get(token) ?? 0n;
        if (named || before === after) continue;
        seen += 1;
        // The node's balanceOf and the Data API's ERC-20 balances at that block say the same.
        const call = await rpc(rebasing, 'eth_call', [{ to: token, data: balanceOf(holder) }, hex]);
        expect(BigInt(call)).toBe(after);
        const api = await get(
          rebasing.dataApiUrl,
          `/v1/chains/43114/addresses/${holder}/balances:listErc20`,
          { blockNumber: n, contractAddresses: token, filterSpamTokens: 'false' },
        );
        expect(api.body.erc20TokenBalances.map((b: any) => b.balance)).toEqual([after.toString()]);
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("is off by default: a holder's balance moves only with its transfers", async () => {
    const token = plain.world.addressBook.erc20[0]!.address.toLowerCase();
    const chain = plain.world.chain('43114')!;
    const first = chain.head().number + 1;
    await send(plain.url, 'POST', '/_sim/advance', { chainId: '43114', blocks: 12 });
    for (const holder of plain.world.addressBook.ordinary.map((a) => a.toLowerCase())) {
      for (let n = first; n < first + 12; n++) {
        const moved = chain
          .blockTxs(chain.block(n)!)
          .some((t) => t.erc20.some((e) => [e.from, e.to].some((a) => a.toLowerCase() === holder)));
        if (moved) continue;
        expect(chain.erc20Balances(holder, n).get(token)).toBe(
          chain.erc20Balances(holder, n - 1).get(token),
        );
      }
    }
  });
});
