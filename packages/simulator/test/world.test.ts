import { describe, expect, it } from 'vitest';
import { createWorld, startSimulator } from '../src/index.js';
import { walk } from './helpers.js';

describe('the simulated world', () => {
  const world = createWorld({ seed: 'avalanche' });

  it('is deterministic per seed and differs across seeds', () => {
    const again = createWorld({ seed: 'avalanche' });
    const other = createWorld({ seed: 'other' });
    expect(again.head('43114').hash).toBe(world.head('43114').hash);
    expect(again.fixtures).toEqual(world.fixtures);
    expect(other.head('43114').hash).not.toBe(world.head('43114').hash);
    expect(other.selfNodeId).toBe(world.selfNodeId);
  });

  it('starts fast', () => {
    // CPU time, not wall time: parallel test files on a small machine must not make this flaky.
    const c0 = process.cpuUsage();
    const w = createWorld({ seed: 'timing' });
    void w.fixtures; // builds the mainnet primary network too
    const used = process.cpuUsage(c0);
    expect((used.user + used.system) / 1000).toBeLessThan(2000);
  });

  it('chains blocks by parent hash, ~2 s apart, each listing exactly its transactions', () => {
    for (const chain of world.evm.values()) {
      expect(chain.blocks.length).toBeGreaterThan(100);
      chain.blocks.forEach((b, i) => {
        const prev = chain.blocks[i - 1];
        if (prev) {
          expect(b.number).toBe(prev.number + 1);
          expect(b.parentHash).toBe(prev.hash);
          expect(b.timestamp - prev.timestamp).toBeGreaterThanOrEqual(1);
          expect(b.timestamp - prev.timestamp).toBeLessThanOrEqual(3);
          expect(b.cumulativeTransactions).toBe(prev.cumulativeTransactions + b.txCount);
        }
        const txs = chain.blockTxs(b);
        expect(txs.length).toBe(b.txCount);
        txs.forEach((t, idx) => {
          expect(t.blockNumber).toBe(b.number);
          expect(t.blockHash).toBe(b.hash);
          expect(t.blockIndex).toBe(idx);
          expect(chain.tx(t.hash)).toBe(t);
        });
      });
    }
  });

  it('puts every transfer and internal tx of an address in its combined list', () => {
    const chain = world.chain('43114')!;
    for (const a of [...world.fixtures.busyAddresses, world.fixtures.ordinaryAddress]) {
      const act = chain.activity(a)!;
      const combined = new Set(act.txs);
      for (const list of [
        act.native.map((s) => ({ seq: s })),
        act.erc20,
        act.erc721,
        act.erc1155,
        act.internals,
      ]) {
        for (const r of list) expect(combined.has(r.seq)).toBe(true);
      }
      for (const r of act.erc20) {
        const t = chain.transactions[r.seq]!.erc20[r.index]!;
        expect([t.from.toLowerCase(), t.to.toLowerCase()]).toContain(a.toLowerCase());
      }
      expect([...act.txs].sort((x, y) => x - y)).toEqual(act.txs);
    }
  });

  it('has ICM messages whose source transaction exists, in all three statuses', () => {
    const statuses = new Set(world.icm.messages.map((m) => m.status));
    expect([...statuses].sort()).toEqual(['delivered', 'delivered_source_not_indexed', 'pending']);
    for (const m of world.icm.messages) {
      if (m.status === 'delivered_source_not_indexed') {
        expect(m.sourceTransaction).toBeUndefined();
        expect(
          world.chain(m.destinationEvmChainId)!.tx(m.destinationTransaction!.txHash)?.icm
            ?.messageId,
        ).toBe(m.messageId);
        continue;
      }
      const tx = world.chain(m.sourceTransaction!.chainId)!.tx(m.sourceTransaction!.txHash)!;
      expect(tx.icm).toMatchObject({ messageId: m.messageId, direction: 'SOURCE_TRANSACTION' });
      expect(tx.from).toBe(m.from);
    }
  });

  it('holds contracts of every ERC type, validators with the self node, X-Chain UTXOs of funded addresses', () => {
    const chain = world.chain('43114')!;
    for (const [kind, type] of [
      ['erc20', 'ERC-20'],
      ['erc721', 'ERC-721'],
      ['erc1155', 'ERC-1155'],
      ['unknown', 'UNKNOWN'],
    ] as const) {
      expect(chain.contract(world.fixtures.contracts[kind])?.ercType).toBe(type);
    }
    for (const net of Object.values(world.primary)) {
      const self = net.validatorsByNode.get(world.selfNodeId)!;
      expect(self.some((v) => v.status === 'active')).toBe(true);
      expect(new Set(net.stakingTxs.map((t) => t.txHash))).toContain(self.at(-1)!.txHash);
      for (const [addr, utxos] of net.xChain.utxosByAddress) {
        expect(net.pAddresses).toContain(addr);
        for (const u of utxos) expect(net.xChain.txById.get(u.txId)?.utxoIds).toContain(u.utxoId);
      }
    }
    expect(
      world.primary.mainnet.xChain.utxosByAddress.get(world.fixtures.xChainAddress)!.length,
    ).toBeGreaterThan(1024);
    expect(chain.nativeBalance(world.fixtures.busyAddress)).toBeGreaterThan(0n);
  });

  it('advances deterministically: new head blocks with transactions, indexes updated', () => {
    const a = createWorld({ seed: 'adv' });
    const b = createWorld({ seed: 'adv' });
    const head = a.head('43114');
    const added = a.advance('43114', 20);
    b.advance('43114', 20);
    expect(added[0]!.parentHash).toBe(head.hash);
    expect(a.head('43114').hash).toBe(b.head('43114').hash);
    expect(added.reduce((n, blk) => n + blk.txCount, 0)).toBeGreaterThan(0);
    const busy = a.fixtures.busyAddress;
    const last = a.chain('43114')!.activity(busy)!.txs.at(-1)!;
    expect(a.chain('43114')!.transactions[last]!.blockNumber).toBeGreaterThan(head.number);
  });

  it('serves the self node among the validators and the ICM source txs over HTTP', async () => {
    const sim = await startSimulator({ port: 0 });
    try {
      const { items } = await walk(
        sim.dataApiUrl,
        `/v1/networks/mainnet/validators/${sim.world.selfNodeId}`,
        'validators',
        { pageSize: 100, validationStatus: 'active' },
      );
      expect(items).toHaveLength(1);
      const msgs = await walk(
        sim.dataApiUrl,
        `/v1/icm/addresses/${sim.world.fixtures.icmAddress}/messages`,
        'messages',
        { pageSize: 100 },
      );
      for (const m of msgs.items.filter((x) => x.sourceTransaction).slice(0, 10)) {
        const r = await fetch(
          `${sim.dataApiUrl}/v1/chains/${m.sourceEvmChainId}/transactions/${m.sourceTransaction.txHash}`,
        );
        expect(r.status).toBe(200);
        const tx = (await r.json()) as { teleporterMessageInfo: { teleporterMessageId: string } };
        expect(tx.teleporterMessageInfo.teleporterMessageId).toBe(m.messageId);
      }
    } finally {
      await sim.close();
    }
  });
});
