import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  codes,
  createTestGateway,
  type TestGateway,
  useSimAndGateway,
} from '../support/gateway.js';
import { simNodeRpc } from '../support/sim.js';

/**
 * The schema's conventions (docs/schema-conventions.md) shipped without breaking a client: each
 * renamed argument answers exactly as its deprecated old name does, both names with different
 * values are refused, and SCREAMING_CASE enum values are accepted as input beside the old ones,
 * which outputs keep answering.
 */
const C = '43114';
let sim: RunningSimulator;
let gw: TestGateway;

useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const head = async () =>
  Number(BigInt(await simNodeRpc(sim.nodeUrl, '/ext/bc/C/rpc', 'eth_blockNumber', [])));

/** The answer under the new argument names equals the one under the old names. */
async function sameAnswer(query: (names: Record<string, string>) => string, renames: object) {
  const now = Object.fromEntries(Object.entries(renames).map(([, n]) => [n, n]));
  const old = Object.fromEntries(Object.entries(renames).map(([o, n]) => [n, o]));
  const a = await gw.query(query(now));
  const b = await gw.query(query(old));
  expect(a.errors).toBeUndefined();
  expect(b.errors).toBeUndefined();
  expect(a.data).toEqual(b.data);
  return a.data!;
}

describe('renamed arguments: the new name and the deprecated one answer alike', () => {
  it('Address.state(block:) / atBlock, Erc20Reads.balanceOf(owner:) / holder', async () => {
    const f = sim.world.fixtures;
    const n = (await head()) - 2;
    const data = await sameAnswer(
      (x) => `{ address(chainId: "${C}", address: "${f.contracts.erc20}") {
        state(${x.block}: "${n}") { blockNumber erc20 { balanceOf(${x.owner}: "${f.busyAddress}") } } } }`,
      { atBlock: 'block', holder: 'owner' },
    );
    expect(data.address.state.blockNumber).toBe(String(n));
    expect(data.address.state.erc20.balanceOf).toMatch(/^\d+$/);
  });

  it('EvmState.logs(startBlock:, endBlock:) / fromBlock, toBlock', async () => {
    const h = await head();
    const data = await sameAnswer(
      (x) => `{ evmState(chainId: "${C}") { logs(${x.startBlock}: "${h - 20}",
        ${x.endBlock}: "${h - 1}", first: 50) { edges { node { blockNumber logIndex } } } } }`,
      { fromBlock: 'startBlock', toBlock: 'endBlock' },
    );
    const blocks = data.evmState.logs.edges.map((e: any) => Number(e.node.blockNumber));
    expect(blocks.length).toBeGreaterThan(0);
    expect(Math.min(...blocks)).toBeGreaterThanOrEqual(h - 20);
    expect(Math.max(...blocks)).toBeLessThanOrEqual(h - 1);
  });

  it('Address.balance(block:) and erc20Balances(block:) / blockNumber', async () => {
    const f = sim.world.fixtures;
    await sameAnswer(
      (x) => `{ address(chainId: "${C}", address: "${f.busyAddress}") {
        balance(${x.block}: "${f.blockNumber}") { blockNumber balance }
        erc20Balances(${x.block}: "${f.blockNumber}", first: 3) { edges { node { balance } } } } }`,
      { blockNumber: 'block' },
    );
  });

  it('Network.icmSummary(sourceBlockchainId:) / srcBlockchainId', async () => {
    const chain = sim.world.chains.find((c) => c.chainId === C)!;
    await sameAnswer(
      (x) => `{ network(name: "mainnet") { icmSummary(${x.sourceBlockchainId}:
        "${chain.blockchainId}") { allTime srcBlockchainId } } }`,
      { srcBlockchainId: 'sourceBlockchainId' },
    );
  });

  it('both names with different values: BAD_USER_INPUT naming the old one, no upstream call', async () => {
    const f = sim.world.fixtures;
    sim.reset();
    const r = await gw.query(`{ address(chainId: "${C}", address: "${f.busyAddress}") {
      state(block: "1", atBlock: "2") { blockNumber } } }`);
    expect(codes(r)).toEqual(['BAD_USER_INPUT']);
    expect(r.errors![0]!.extensions).toMatchObject({ argument: 'atBlock' });
    const missing = await gw.query(`{ address(chainId: "${C}", address: "${f.contracts.erc20}") {
      state { erc20 { balanceOf } } } }`);
    expect(codes(missing)).toEqual(['BAD_USER_INPUT']);
    expect(missing.errors![0]!.extensions).toMatchObject({ argument: 'owner' });
  });
});

describe('enum values: SCREAMING_CASE beside the deprecated old names', () => {
  it('MAINNET and mainnet select the same chains; outputs keep the old name', async () => {
    const a = await gw.query('{ chains(network: MAINNET) { chainId } }');
    const b = await gw.query('{ chains(network: mainnet) { chainId } }');
    expect(a.errors).toBeUndefined();
    expect(a.data).toEqual(b.data);
    expect(a.data!.chains.length).toBeGreaterThan(0);
    const n = await gw.query('{ network(name: "mainnet") { name } }');
    expect(n.data!.network.name).toBe('mainnet');
  });

  it('a transaction-type filter takes ADD_PERMISSIONLESS_VALIDATOR_TX as it takes AddPermissionlessValidatorTx', async () => {
    const q = (v: string) => `{ network(name: "mainnet") { stakingTransactions(txTypes: [${v}],
      first: 5) { edges { node { ... on StakingTransaction { txHash txType } } } } } }`;
    const a = await gw.query(q('ADD_PERMISSIONLESS_VALIDATOR_TX'));
    const b = await gw.query(q('AddPermissionlessValidatorTx'));
    expect(a.errors).toBeUndefined();
    expect(a.data).toEqual(b.data);
    expect(a.data!.network.stakingTransactions.edges.length).toBeGreaterThan(0);
    for (const e of a.data!.network.stakingTransactions.edges)
      expect(e.node.txType).toBe('AddPermissionlessValidatorTx');
  });
});

describe('Relay ids stay the same for an entity’s life', () => {
  it('an ICM message keeps its global id when it is delivered; the old status-named id still resolves', async () => {
    const pending = sim.world.icm.messages.find(
      (m) => m.status === 'pending' && m.sourceEvmChainId === C,
    )!;
    expect(pending).toBeDefined();
    const q = `query($m: String!) { icmMessage(id: $m) { __typename id messageId } }`;
    const first = createTestGateway(sim);
    const before = await first.query(q, { m: pending.messageId });
    await first.close();
    expect(before.errors).toBeUndefined();
    expect(before.data!.icmMessage.__typename).toBe('PendingIcmMessage');
    // The world's next steps deliver the oldest pending messages.
    for (let i = 0; i < 200 && pending.status === 'pending'; i++) sim.world.evolve();
    expect(pending.status).toBe('delivered');
    const fresh = createTestGateway(sim); // no cached pending answer
    const after = await fresh.query(q, { m: pending.messageId });
    expect(after.data!.icmMessage.__typename).toBe('DeliveredIcmMessage');
    expect(after.data!.icmMessage.id).toBe(before.data!.icmMessage.id);
    const oldId = Buffer.from(`PendingIcmMessage:${pending.messageId.toLowerCase()}`).toString(
      'base64url',
    );
    const refetch = await fresh.query(
      `query($a: ID!, $b: ID!) { a: node(id: $a) { __typename id } b: node(id: $b) { __typename id } }`,
      { a: before.data!.icmMessage.id, b: oldId },
    );
    expect(refetch.errors).toBeUndefined();
    expect(refetch.data).toEqual({
      a: { __typename: 'DeliveredIcmMessage', id: before.data!.icmMessage.id },
      b: { __typename: 'DeliveredIcmMessage', id: before.data!.icmMessage.id },
    });
    await fresh.close();
  });
});
