import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { TransactionLogsDocument, ValidatorDelegatorsDocument } from '../__generated__/graphql.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { simNodeRpc } from '../support/sim.js';

/**
 * Issue 44's new references: `Transaction.logs` (its block's logs from the chain's EVM node, the
 * read an EvmLog's refetch makes) and `Validator.delegators` (the network's delegations filtered by
 * the validator's node id). And one meaning of `logIndex` (the log's index in its block): a transfer
 * the Data API reports has the logIndex of the node's log for it.
 */
const C = '43114';
const RPC = '/ext/bc/C/rpc';
let sim: RunningSimulator;
let gw: TestGateway;

useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const pad = (a: string) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`;

/** A tx with ERC-20 transfers after other txs with logs in its block (its logs do not start at 0). */
function laterTxWithTransfers() {
  const chain = sim.world.chain(C)!;
  for (let n = sim.world.fixtures.blockNumber; n > 0; n--) {
    const block = chain.block(n);
    if (!block) continue;
    const txs = chain.blockTxs(block);
    const i = txs.findIndex(
      (tx, j) =>
        tx.erc20.length > 0 &&
        txs.slice(0, j).some((p) => p.erc20.length + p.erc721.length + p.erc1155.length > 0),
    );
    if (i >= 0) return txs[i]!;
  }
  throw new Error('no such tx in the world');
}

describe('Transaction.logs', () => {
  it('are the node’s logs of its block that it emitted; one eth_getLogs cold, none warm', async () => {
    const tx = laterTxWithTransfers();
    const q = `query($c: String!, $h: String!) { transaction(chainId: $c, hash: $h) {
      blockHash logs { id logIndex transactionHash transactionIndex address topics data } } }`;
    sim.reset();
    const r = await gw.query(q, { c: C, h: tx.hash });
    expect(r.errors).toBeUndefined();
    expect(sim.stats().byRpcMethod[`${RPC} eth_getLogs`]).toBe(1);
    const theirs = (
      (await simNodeRpc(sim.nodeUrl, RPC, 'eth_getLogs', [{ blockHash: tx.blockHash }])) as any[]
    ).filter((l) => l.transactionHash === tx.hash);
    expect(theirs.length).toBe(tx.erc20.length);
    expect(
      r.data!.transaction.logs.map((l: any) => ({
        ...l,
        id: undefined,
        transactionIndex: undefined,
      })),
    ).toEqual(
      theirs.map((l) => ({
        id: undefined,
        logIndex: Number(l.logIndex),
        transactionHash: l.transactionHash,
        transactionIndex: undefined,
        address: l.address,
        topics: l.topics,
        data: l.data,
      })),
    );
    // Each log is the Relay node an EvmLog refetch finds.
    const again = await gw.query('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: r.data!.transaction.logs.map((l: any) => l.id),
    });
    expect(again.data!.nodes.map((n: any) => n.id)).toEqual(
      r.data!.transaction.logs.map((l: any) => l.id),
    );
    sim.reset();
    const warm = await gw.query(q, { c: C, h: tx.hash });
    expect(warm.data).toEqual(r.data);
    expect(sim.stats().byRpcMethod[`${RPC} eth_getLogs`] ?? 0).toBe(0);
  });

  it('logIndex has one meaning: the Data API’s transfer and the node’s log for it agree', async () => {
    const tx = laterTxWithTransfers();
    const r = await gw.query(
      `query($c: String!, $h: String!) { transaction(chainId: $c, hash: $h) {
        erc20Transfers { logIndex value from { address } to { address } token { address } }
        logs { logIndex address topics data } } }`,
      { c: C, h: tx.hash },
    );
    expect(r.errors).toBeUndefined();
    const { erc20Transfers, logs } = r.data!.transaction;
    expect(erc20Transfers.length).toBeGreaterThan(0);
    // After other txs' logs in the block, so a per-transaction count would start at 0.
    expect(Math.min(...erc20Transfers.map((t: any) => t.logIndex))).toBeGreaterThan(0);
    for (const t of erc20Transfers) {
      const log = logs.find((l: any) => l.logIndex === t.logIndex);
      expect(log).toBeDefined();
      expect(log.address.toLowerCase()).toBe(t.token.address.toLowerCase());
      expect(log.topics.slice(1)).toEqual([pad(t.from.address), pad(t.to.address)]);
      expect(BigInt(log.data).toString()).toBe(t.value);
    }
  });
});

describe('Validator.delegators', () => {
  it('equals Network.delegators(nodeIds: [its node]), from the same upstream page', async () => {
    const any = await gw.query(
      '{ network(name: "mainnet") { delegators(first: 1) { edges { node { nodeId } } } } }',
    );
    const nodeId = any.data!.network.delegators.edges[0].node.nodeId as string;
    sim.reset();
    const r = await gw.query(
      `query($n: String!) { network(name: "mainnet") {
        validators(nodeIds: [$n], first: 1) { edges { node { nodeId
          delegators(first: 50) { edges { node { id txHash nodeId } } } } } }
        delegators(nodeIds: [$n], first: 50) { edges { node { id txHash nodeId } } } } }`,
      { n: nodeId },
    );
    expect(r.errors).toBeUndefined();
    const v = r.data!.network.validators.edges[0].node;
    expect(v.nodeId).toBe(nodeId);
    expect(v.delegators.edges.length).toBeGreaterThan(0);
    expect(v.delegators).toEqual(r.data!.network.delegators);
    for (const e of v.delegators.edges) expect(e.node.nodeId).toBe(nodeId);
    // One listDelegators page serves both fields.
    const byRoute = sim.stats().byRoute;
    const delegatorCalls = Object.entries(byRoute)
      .filter(([route]) => route.endsWith('/delegators'))
      .reduce((a, [, n]) => a + n, 0);
    expect(delegatorCalls).toBe(1);
  });
});

describe('the example operations (schema/operations) answer', () => {
  it('TransactionLogs and ValidatorDelegators', async () => {
    const tx = laterTxWithTransfers();
    const logs = await gw.exec(TransactionLogsDocument, { chainId: C, hash: tx.hash });
    expect(logs.errors).toBeUndefined();
    expect(logs.data!.transaction!.logs!.length).toBe(tx.erc20.length);
    const any = await gw.query(
      '{ network(name: "mainnet") { delegators(first: 1) { edges { node { nodeId } } } } }',
    );
    const nodeId = any.data!.network.delegators.edges[0].node.nodeId as string;
    const v = await gw.exec(ValidatorDelegatorsDocument, { network: 'mainnet', nodeId, first: 2 });
    expect(v.errors).toBeUndefined();
    const edges = v.data!.network.validators!.edges[0]!.node.delegators!.edges;
    expect(edges.length).toBeGreaterThan(0);
    for (const e of edges) expect(e.node.nodeId).toBe(nodeId);
  });
});
