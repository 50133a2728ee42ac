import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { EvmBlockStateDocument } from '../__generated__/graphql.js';
import {
  codes,
  createTestGateway,
  type TestGateway,
  useSimAndGateway,
} from '../support/gateway.js';
import { simGet, simNodeRpc, startTestSimulator } from '../support/sim.js';

/**
 * EVM state through the simulator (offline mode): a Data API block pins the node's state by its
 * hash; the world's ERC-20 answers agree with the Data API's contract metadata; reverts and the
 * seed's proof windows (archival: historical-proof-query-window, pruning: 32 blocks) come back as
 * typed errors.
 */
const C = '43114';
const RPC = '/ext/bc/C/rpc';
let sim: RunningSimulator;
let gw: TestGateway;
const dec = (h: string) => BigInt(h).toString();
const nodeCalls = () => sim.stats().byRoute[`node POST ${RPC}`] ?? 0;

useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

describe('Block.state: a Data API block pins the node’s state by its hash', () => {
  it('balances and nonces at that block equal the node’s; one batch cold, none warm', async () => {
    const f = sim.world.fixtures;
    const q = `query($c: String!, $id: String!, $a: String!, $b: String!) { block(chainId: $c, id:
      $id) { number hash
      state { blockNumber blockHash x: account(address: $a) { balance nonce code } y:
        account(address: $b) { balance nonce } } } }`;
    const vars = { c: C, id: String(f.blockNumber), a: f.busyAddress, b: f.ordinaryAddress };
    const cold = await gw.query(q, vars);
    expect(cold.errors).toBeUndefined();
    const b = cold.data!.block;
    expect(b.state.blockNumber).toBe(b.number);
    expect(b.state.blockHash).toBe(b.hash.toLowerCase());
    const at = { blockHash: b.hash };
    expect(b.state.x.balance).toBe(
      dec(await simNodeRpc(sim.nodeUrl, RPC, 'eth_getBalance', [f.busyAddress, at])),
    );
    expect(b.state.x.nonce).toBe(
      dec(await simNodeRpc(sim.nodeUrl, RPC, 'eth_getTransactionCount', [f.busyAddress, at])),
    );
    expect(b.state.x.code).toBe('0x');
    expect(b.state.y.balance).toBe(
      dec(await simNodeRpc(sim.nodeUrl, RPC, 'eth_getBalance', [f.ordinaryAddress, at])),
    );
    sim.reset();
    const warm = await gw.query(q, vars);
    expect(warm.data).toEqual(cold.data); // extensions.cost.spentCu differs: 0 when warm
    expect(sim.stats().total).toBe(0);
  });

  it(
    'the state reads of one query are one batch (after eth_chainId once and latest resolved' +
      ' once)',
    async () => {
      const f = sim.world.fixtures;
      const fresh = createTestGateway(sim);
      const r = await fresh.query(
        `query($c: String!, $a: String!, $b: String!, $t: String!) {
      a: address(chainId: $c, address: $a) { state { blockNumber balance nonce } }
      b: address(chainId: $c, address: $b) { state { blockNumber balance code } }
      t: address(chainId: $c, address: $t) { state { blockNumber code erc20 { symbol decimals } } }
        }`,
        { c: C, a: f.busyAddress, b: f.ordinaryAddress, t: f.contracts.erc20 },
      );
      await fresh.close();
      expect(r.errors).toBeUndefined();
      expect(
        new Set([
          r.data!.a.state.blockNumber,
          r.data!.b.state.blockNumber,
          r.data!.t.state.blockNumber,
        ]).size,
      ).toBe(1);
      // eth_chainId (which endpoint serves 43114), eth_blockNumber (latest), then 8 reads: 1 batch.
      expect(nodeCalls()).toBe(3);
      const m = (name: string) => sim.stats().byRpcMethod[`${RPC} ${name}`];
      expect([
        m('eth_chainId'),
        m('eth_blockNumber'),
        m('eth_getBalance'),
        m('eth_getTransactionCount'),
        m('eth_getCode'),
        m('eth_call'),
      ]).toEqual([1, 1, 2, 1, 2, 2]);
    },
  );
});

describe('EvmBlockState (schema/operations/evm-state.graphql)', () => {
  it('a block’s state root, an account and its proof, the fee history ending there', async () => {
    const f = sim.world.fixtures;
    const r = await gw.exec(EvmBlockStateDocument, {
      chainId: C,
      id: String(f.blockNumber),
      account: f.busyAddress,
    });
    expect(r.errors).toBeUndefined();
    const st = r.data!.block!.state;
    const header = await simNodeRpc(sim.nodeUrl, RPC, 'eth_getBlockByHash', [f.blockHash, false]);
    expect(st.stateRoot).toBe(header.stateRoot.toLowerCase());
    expect(st.account.proof!.balance).toBe(st.account.balance);
    expect(st.account.proof!.nonce).toBe(st.account.nonce);
    expect(st.feeHistory!.oldestBlock).toBe(String(f.blockNumber - 3));
  });
});

describe('ERC-20 reads, calls and reverts', () => {
  it(
    'symbol and decimals agree with the Data API’s contract metadata; balanceOf equals the ' +
      'raw call',
    async () => {
      const f = sim.world.fixtures;
      const meta = await simGet(sim.dataApiUrl, `/v1/chains/${C}/addresses/${f.contracts.erc20}`);
      const r = await gw.query(
        `query($c: String!, $t: String!, $h: String!) { address(chainId: $c, address: $t) { state {
      erc20 { symbol decimals balanceOf(holder: $h) } raw: call(data:
        "0x70a08231000000000000000000000000${f.busyAddress.slice(2)}") } } }`,
        { c: C, t: f.contracts.erc20, h: f.busyAddress },
      );
      expect(r.errors).toBeUndefined();
      const s = r.data!.address.state;
      expect(s.erc20.symbol).toBe(meta.symbol);
      expect(s.erc20.decimals).toBe(meta.decimals);
      expect(s.erc20.balanceOf).toBe(BigInt(s.raw).toString());
    },
  );

  it(
    'a reverted call is BAD_USER_INPUT with the revert data and reason, as geth answers ' +
      'code 3',
    async () => {
      const f = sim.world.fixtures;
      const to = f.busyAddress.slice(2).padStart(64, '0');
      const transfer = `0xa9059cbb${to}${'f'.repeat(64)}`;
      const r = await gw.query(
        `query($c: String!, $t: String!, $d: String!) { address(chainId: $c, address: $t) { state {
      call(data: $d) estimateGas(data: $d) code } } }`,
        { c: C, t: f.contracts.erc20, d: transfer },
      );
      expect(codes(r)).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
      for (const e of r.errors!) {
        expect(e.extensions).toMatchObject({
          reason: 'EXECUTION_REVERTED',
          rpcCode: 3,
          revertReason: 'ERC20: transfer amount exceeds balance',
        });
        expect(String(e.extensions!.revertData).startsWith('0x08c379a0')).toBe(true);
      }
      // The other field of the same query still answers.
      expect(r.data!.address.state.code.length).toBeGreaterThan(2);
    },
  );
});

describe('eth_getProof windows', () => {
  it(
    'an archival node: a proof older than historical-proof-query-window (43,200 blocks) is ' +
      'PROOF_WINDOW_ARCHIVAL',
    async () => {
      const f = sim.world.fixtures;
      const ok =
        await gw.query(`{ address(chainId: "${C}", address: "${f.busyAddress}") { state(atBlock:
        "${f.blockNumber}") {
      balance proof(storageKeys: ["0x1"]) { balance nonce accountProof storageProof { key value } }
        } } }`);
      expect(ok.errors).toBeUndefined();
      expect(ok.data!.address.state.proof.balance).toBe(ok.data!.address.state.balance);
      const old = await gw.query(
        `{ address(chainId: "${C}", address: "${f.busyAddress}") { state(atBlock: "0") { proof {
        balance } } } }`,
      );
      expect(old.errors![0]!.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        reason: 'PROOF_WINDOW_ARCHIVAL',
        windowBlocks: 43_200,
        requestedBlock: '0',
      });
    },
  );

  it('a pruning node: only the last 32 blocks (PROOF_WINDOW_PRUNING)', async () => {
    const pruning = await startTestSimulator({ proofWindow: { pruning: true } });
    const g = createTestGateway(pruning);
    try {
      const head = Number(dec(await simNodeRpc(pruning.nodeUrl, RPC, 'eth_blockNumber', [])));
      const a = pruning.world.fixtures.busyAddress;
      const q = (n: number) =>
        g.query(
          `{ address(chainId: "${C}", address: "${a}") { state(atBlock: "${n}") { proof { nonce } }
            } }`,
        );
      expect((await q(head - 10)).errors).toBeUndefined();
      const far = await q(head - 40);
      expect(far.errors![0]!.extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        reason: 'PROOF_WINDOW_PRUNING',
        windowBlocks: 32,
        earliestBlock: String(head - 32),
      });
    } finally {
      await g.close();
      await pruning.close();
    }
  });
});

describe('logs and fee history', () => {
  it('Transfer logs of a block range equal the node’s eth_getLogs, across pages', async () => {
    const head = Number(dec(await simNodeRpc(sim.nodeUrl, RPC, 'eth_blockNumber', [])));
    const from = head - 12;
    const theirs = (await simNodeRpc(sim.nodeUrl, RPC, 'eth_getLogs', [
      { fromBlock: `0x${from.toString(16)}`, toBlock: `0x${head.toString(16)}` },
    ])) as { transactionHash: string; logIndex: string }[];
    expect(theirs.length).toBeGreaterThan(3);
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 40; i++) {
      const r = await gw.query(
        `query($after: String) { evmState(chainId: "${C}", block: "${head}") { logs(fromBlock:
          "${from}", first: 40, after: $after) {
        edges { node { transactionHash logIndex } } pageInfo { hasNextPage endCursor } } } }`,
        { after },
      );
      expect(r.errors).toBeUndefined();
      const page = r.data!.evmState.logs;
      seen.push(...page.edges.map((e: any) => `${e.node.transactionHash}:${e.node.logIndex}`));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(theirs.map((l) => `${l.transactionHash}:${Number(l.logIndex)}`));
  });

  it('a log is a Relay node: node(id) refetches it from its block', async () => {
    const head = Number(dec(await simNodeRpc(sim.nodeUrl, RPC, 'eth_blockNumber', [])));
    const r = await gw.query(`{ evmState(chainId: "${C}", block: "${head}") { logs(fromBlock:
        "${head - 3}", first: 3) {
      edges { node { id chainId blockHash logIndex transactionHash topics data } } } } }`);
    expect(r.errors).toBeUndefined();
    const logs = r.data!.evmState.logs.edges.map((e: any) => e.node);
    expect(logs.length).toBeGreaterThan(0);
    const again = await gw.query(
      `query($ids: [ID!]!) { nodes(ids: $ids) { ... on EvmLog { id chainId blockHash logIndex
        transactionHash topics data } } }`,
      { ids: logs.map((l: any) => l.id) },
    );
    expect(again.errors).toBeUndefined();
    expect(again.data!.nodes).toEqual(logs);
    const bad = await gw.query(
      `{ node(id: "${Buffer.from('EvmLog:43114:nope').toString('base64')}") { id } }`,
    );
    expect(codes(bad)).toEqual(['BAD_USER_INPUT']);
  });

  it('feeHistory ends at the pinned block; bad arguments are refused before any call', async () => {
    const head = Number(dec(await simNodeRpc(sim.nodeUrl, RPC, 'eth_blockNumber', [])));
    sim.reset();
    const r =
      await gw.query(`{ evmState(chainId: "${C}", block: "${head - 1}") { feeHistory(blockCount: 4,
        rewardPercentiles: [10, 90]) {
      oldestBlock baseFeePerGas gasUsedRatio reward { percentiles } } } }`);
    expect(r.errors).toBeUndefined();
    const h = r.data!.evmState.feeHistory;
    expect(h.oldestBlock).toBe(String(head - 4));
    expect(h.baseFeePerGas).toHaveLength(5);
    expect(h.reward).toHaveLength(4);
    sim.reset();
    const bad = await gw.query(
      `{ evmState(chainId: "${C}", block: "12") { feeHistory(blockCount: 5000) { oldestBlock } } }`,
    );
    expect(bad.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argument: 'blockCount',
    });
    const topics = await gw.query(
      `{ evmState(chainId: "${C}", block: "12") { logs(topics: [{ anyOf: ["0x12"] }]) { edges {
        cursor } } } }`,
    );
    expect(topics.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argument: 'topics',
    });
    const span = await gw.query(
      `{ evmState(chainId: "${C}", block: "${head}") { logs(fromBlock: "${head - 4096}") { edges {
        cursor } } } }`,
    );
    expect(span.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argument: 'fromBlock',
    });
    expect(sim.stats().byRpcMethod.eth_feeHistory ?? 0).toBe(0);
    expect(sim.stats().byRpcMethod.eth_getLogs ?? 0).toBe(0);
  });
});
