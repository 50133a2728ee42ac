import { verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToBytes, hexToBytes } from '@ethereumjs/util';
import { encodeAbiParameters, encodeFunctionData, erc20Abi, type Hex, keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEvmNode, type TestEvmNode } from '../support/evm-node.js';
import { codes, createTestGateway, type TestGateway } from '../support/gateway.js';
import { MINI_TOKEN_BYTECODE, MINI_TOKEN_SUPPLY } from '../support/mini-token.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { type CountingProxy, startCountingProxy } from '../support/rpc-counting-proxy.js';

/**
 * EVM state against a REAL EVM node (Hardhat's node on loopback), the gateway pointed at it as its
 * node (NODE_RPC_URL), through a proxy that counts the JSON-RPC requests the node receives. Every
 * answer is compared with the node's own answer to the same question.
 */
const CHAIN = '43112';
let node: TestEvmNode;
let proxy: CountingProxy;
let gw: TestGateway;
let token: string;
let alice: string;
let bob: string;
let beforeTransfer: string;
let afterTransfer: string;
const SENT = 250_000n;
const redisUrl = await allocateRedisDb();

const hex = (n: bigint | number | string) => `0x${BigInt(n).toString(16)}`;
const dec = (h: string) => BigInt(h).toString();
const holderSlot = (holder: string) =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder as Hex, 1n]));
const stateBatches = () =>
  proxy.requests.filter((r) =>
    r.methods.some((m) => m !== 'eth_chainId' && m !== 'eth_blockNumber'),
  );

async function mined(
  hash: string,
): Promise<{ contractAddress: string | null; blockNumber: string }> {
  return node.rpc('eth_getTransactionReceipt', [hash]);
}

beforeAll(async () => {
  node = await startEvmNode();
  proxy = await startCountingProxy(node.url);
  [alice, bob] = node.accounts.map((a) => a.toLowerCase()) as [string, string];
  const deploy = await node.rpc<string>('eth_sendTransaction', [
    { from: alice, data: MINI_TOKEN_BYTECODE, gas: hex(1_000_000) },
  ]);
  token = (await mined(deploy)).contractAddress!.toLowerCase();
  beforeTransfer = dec(await node.rpc<string>('eth_blockNumber'));
  const data = encodeFunctionData({
    abi: erc20Abi,
    functionName: 'transfer',
    args: [bob as Hex, SENT],
  });
  const sent = await node.rpc<string>('eth_sendTransaction', [{ from: alice, to: token, data }]);
  afterTransfer = dec((await mined(sent)).blockNumber);
  // The Data and Metrics APIs are never reached by these fields: closed ports.
  gw = createTestGateway(
    {
      dataApiUrl: 'http://127.0.0.1:9',
      metricsApiUrl: 'http://127.0.0.1:9',
      nodeUrl: `hardhat=${proxy.url}`,
    },
    { redisUrl },
  );
  await gw.ready();
}, 60_000);
afterAll(async () => {
  await gw?.close();
  await proxy?.close();
  await node?.stop();
});

describe('EVM state from a real node equals the node’s own answers', () => {
  it('code, storage, nonce, balanceOf after a transfer, symbol and decimals', async () => {
    const r = await gw.query(
      `query($c: String!, $a: String!, $b: String!, $at: String!, $slot: String!) {
        address(chainId: $c, address: $a) {
        state(atBlock: $at) { blockNumber code nonce s0: storage(slot: "0") sb: storage(slot: $slot)
          erc20 { balanceOf(holder: $b) symbol decimals } } } }`,
      { c: CHAIN, a: token, b: bob, at: afterTransfer, slot: holderSlot(bob) },
    );
    expect(r.errors).toBeUndefined();
    const at = hex(afterTransfer);
    const s = r.data!.address.state;
    expect(s.blockNumber).toBe(afterTransfer);
    expect(s.code).toBe((await node.rpc<string>('eth_getCode', [token, at])).toLowerCase());
    expect(s.code.length).toBeGreaterThan(100);
    expect(s.nonce).toBe(dec(await node.rpc('eth_getTransactionCount', [token, at])));
    expect(BigInt(s.s0)).toBe(MINI_TOKEN_SUPPLY);
    expect(s.s0).toBe(await node.rpc('eth_getStorageAt', [token, '0x0', at]));
    expect(s.sb).toBe(await node.rpc('eth_getStorageAt', [token, holderSlot(bob), at]));
    const call = await node.rpc<string>('eth_call', [
      {
        to: token,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [bob as Hex] }),
      },
      at,
    ]);
    expect(s.erc20).toEqual({ balanceOf: SENT.toString(), symbol: 'MINI', decimals: 6 });
    expect(BigInt(call)).toBe(SENT);
  });

  it('balance(atBlock) before and after a transfer, by number and by hash', async () => {
    const q = `query($c: String!, $a: String!, $b: String!, $t: String!, $x: String!, $y: String!) {
      a0: address(chainId: $c, address: $a) { state(atBlock: $x) { balance nonce } }
      a1: address(chainId: $c, address: $a) { state(atBlock: $y) { balance nonce } }
      b0: address(chainId: $c, address: $b) { state(atBlock: $x) { balance } }
      t0: address(chainId: $c, address: $t) { state(atBlock: $x) { supply: call(data: "0x18160ddd")
        } } }`;
    const afterHash = (
      await node.rpc<{ hash: string }>('eth_getBlockByNumber', [hex(afterTransfer), false])
    ).hash;
    for (const y of [afterTransfer, afterHash]) {
      const r = await gw.query(q, { c: CHAIN, a: alice, b: bob, t: token, x: beforeTransfer, y });
      expect(r.errors).toBeUndefined();
      const d = r.data!;
      expect(d.a0.state.balance).toBe(
        dec(await node.rpc('eth_getBalance', [alice, hex(beforeTransfer)])),
      );
      expect(d.a1.state.balance).toBe(
        dec(await node.rpc('eth_getBalance', [alice, hex(afterTransfer)])),
      );
      // The transfer paid gas: alice's balance moved between the two blocks, and her nonce went up
      // by one.
      expect(BigInt(d.a1.state.balance)).toBeLessThan(BigInt(d.a0.state.balance));
      expect(BigInt(d.a1.state.nonce)).toBe(BigInt(d.a0.state.nonce) + 1n);
      expect(d.b0.state.balance).toBe(
        dec(await node.rpc('eth_getBalance', [bob, hex(beforeTransfer)])),
      );
      expect(BigInt(d.t0.state.supply)).toBe(MINI_TOKEN_SUPPLY);
    }
  });

  it('logs: the Transfer events the node reports, paged by cursor', async () => {
    const q = `query($c: String!, $b: String!, $t: String!, $after: String) { evmState(chainId: $c,
      block: $b) {
      logs(fromBlock: "0", addresses: [$t], first: 1, after: $after) {
        edges { node { address topics data blockNumber blockHash transactionHash transactionIndex
          logIndex } }
        pageInfo { hasNextPage endCursor } } } }`;
    const first = await gw.query(q, { c: CHAIN, b: afterTransfer, t: token });
    expect(first.errors).toBeUndefined();
    const second = await gw.query(q, {
      c: CHAIN,
      b: afterTransfer,
      t: token,
      after: first.data!.evmState.logs.pageInfo.endCursor,
    });
    expect(second.errors).toBeUndefined();
    const got = [...first.data!.evmState.logs.edges, ...second.data!.evmState.logs.edges].map(
      (e: { node: unknown }) => e.node,
    );
    const theirs = await node.rpc<Record<string, string>[]>('eth_getLogs', [
      { fromBlock: '0x0', toBlock: hex(afterTransfer), address: token },
    ]);
    expect(theirs).toHaveLength(2);
    expect(got).toEqual(
      theirs.map((l) => ({
        address: l.address!.toLowerCase(),
        topics: (l.topics as unknown as string[]).map((t) => t.toLowerCase()),
        data: l.data!.toLowerCase(),
        blockNumber: dec(l.blockNumber!),
        blockHash: l.blockHash!.toLowerCase(),
        transactionHash: l.transactionHash!.toLowerCase(),
        transactionIndex: Number(l.transactionIndex),
        logIndex: Number(l.logIndex),
      })),
    );
    expect(first.data!.evmState.logs.pageInfo.hasNextPage).toBe(true);
    expect(second.data!.evmState.logs.pageInfo.hasNextPage).toBe(false);
  });

  it(
    'proof: equal to the node’s, and verified against the block’s state root ' +
      '(@ethereumjs/mpt)',
    async () => {
      const slot = holderSlot(bob);
      const r = await gw.query(
        `query($c: String!, $b: String!, $t: String!, $k: [String!]) { evmState(chainId: $c, block:
        $b) { stateRoot
        account(address: $t) { proof(storageKeys: $k) { address balance nonce codeHash storageHash
          accountProof
          storageProof { key value proof } } } } }`,
        { c: CHAIN, b: afterTransfer, t: token, k: [slot] },
      );
      expect(r.errors).toBeUndefined();
      const { stateRoot, account } = r.data!.evmState;
      const p = account.proof;
      const theirs = await node.rpc<{
        accountProof: string[];
        storageProof: { proof: string[]; value: string }[];
      }>('eth_getProof', [token, [slot], hex(afterTransfer)]);
      expect(p.accountProof).toEqual(theirs.accountProof.map((x) => x.toLowerCase()));
      expect(p.storageProof[0].proof).toEqual(
        theirs.storageProof[0]!.proof.map((x) => x.toLowerCase()),
      );
      expect(stateRoot).toBe(
        (
          await node.rpc<{ stateRoot: string }>('eth_getBlockByNumber', [hex(afterTransfer), false])
        ).stateRoot.toLowerCase(),
      );
      // The account leaf under the state root is RLP([nonce, balance, storageRoot, codeHash]).
      const leaf = await verifyMerkleProof(
        hexToBytes(token as Hex),
        p.accountProof.map((x: string) => hexToBytes(x as Hex)),
        {
          root: hexToBytes(stateRoot),
          useKeyHashing: true,
        },
      );
      const [nonce, balance, storageRoot, codeHash] = RLP.decode(leaf!) as Uint8Array[];
      expect(BigInt(`0x${Buffer.from(nonce!).toString('hex') || '0'}`).toString()).toBe(p.nonce);
      expect(BigInt(`0x${Buffer.from(balance!).toString('hex') || '0'}`).toString()).toBe(
        p.balance,
      );
      expect(`0x${Buffer.from(storageRoot!).toString('hex')}`).toBe(p.storageHash);
      expect(`0x${Buffer.from(codeHash!).toString('hex')}`).toBe(p.codeHash);
      // The slot under the account's storage root holds RLP(bob's balance).
      const value = await verifyMerkleProof(
        hexToBytes(slot),
        p.storageProof[0].proof.map((x: string) => hexToBytes(x as Hex)),
        {
          root: hexToBytes(p.storageHash),
          useKeyHashing: true,
        },
      );
      expect(RLP.decode(value!)).toEqual(bigIntToBytes(SENT));
      expect(p.storageProof[0].value).toBe(SENT.toString());
    },
  );

  it('a reverted call is a typed error carrying the revert data and reason', async () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [alice as Hex, 1n],
    });
    const r = await gw.query(
      `query($c: String!, $t: String!, $d: String!, $f: String!) { address(chainId: $c, address:
        $t) {
      state { call(data: $d, from: $f) } } }`,
      { c: CHAIN, t: token, d: data, f: '0x000000000000000000000000000000000000dead' },
    );
    expect(codes(r)).toEqual(['BAD_USER_INPUT']);
    const ext = r.errors![0]!.extensions!;
    expect(ext.reason).toBe('EXECUTION_REVERTED');
    expect(ext.revertReason).toBe('MiniToken: insufficient balance');
    expect(String(ext.revertData).slice(0, 10)).toBe('0x08c379a0');
    expect(r.data!.address.state.call).toBeNull();
  });
});

/**
 * A gateway with empty caches (in-process LRU only) on the same node, its chain already discovered.
 */
async function freshGateway(): Promise<TestGateway> {
  const fresh = createTestGateway({
    dataApiUrl: 'http://127.0.0.1:9',
    metricsApiUrl: 'http://127.0.0.1:9',
    nodeUrl: `hardhat=${proxy.url}`,
  });
  expect(
    (await fresh.query(`{ evmState(chainId: "${CHAIN}", block: "0") { blockNumber } }`)).errors,
  ).toBeUndefined();
  return fresh;
}

describe('one query’s state reads are one batch', () => {
  it('a query of many reads at one block: one batch to the node; warm: no call', async () => {
    const q = `query($c: String!, $a: String!, $t: String!, $b: String!, $at: String!) {
      x: address(chainId: $c, address: $a) { state(atBlock: $at) { balance nonce code } }
      y: address(chainId: $c, address: $t) { state(atBlock: $at) { balance nonce code storage(slot:
        "0")
        erc20 { balanceOf(holder: $b) symbol decimals } estimateGas(data: "0x18160ddd") } } }`;
    const vars = { c: CHAIN, a: alice, t: token, b: bob, at: beforeTransfer };
    const fresh = await freshGateway();
    proxy.reset();
    expect((await fresh.query(q, vars)).errors).toBeUndefined();
    expect(proxy.requests).toEqual([
      {
        path: '/ext/bc/C/rpc',
        batch: true,
        methods: expect.arrayContaining([
          'eth_getBalance',
          'eth_getCode',
          'eth_call',
          'eth_estimateGas',
        ]),
      },
    ]);
    expect(proxy.requests[0]!.methods).toHaveLength(11);
    proxy.reset();
    expect((await fresh.query(q, vars)).errors).toBeUndefined();
    expect(proxy.requests).toEqual([]);
    await fresh.close();
  });

  it(
    '`latest` is resolved first (one eth_blockNumber), then every read names that block in ' +
      'one batch',
    async () => {
      const r0 = await gw.query(`{ evmState(chainId: "${CHAIN}") { blockNumber } }`);
      proxy.reset();
      const fresh = createTestGateway({
        dataApiUrl: 'http://127.0.0.1:9',
        metricsApiUrl: 'http://127.0.0.1:9',
        nodeUrl: `hardhat=${proxy.url}`,
      });
      const r = await fresh.query(
        `query($c: String!, $a: String!, $b: String!) {
      a: address(chainId: $c, address: $a) { state { blockNumber balance } } b: address(chainId:
        $c, address: $b) { state { blockNumber balance } } }`,
        { c: CHAIN, a: alice, b: bob },
      );
      await fresh.close();
      expect(r.errors).toBeUndefined();
      expect(r.data!.a.state.blockNumber).toBe(r0.data!.evmState.blockNumber);
      expect(r.data!.b.state.blockNumber).toBe(r.data!.a.state.blockNumber);
      expect(proxy.requests.map((x) => x.methods)).toEqual([
        ['eth_chainId'],
        ['eth_blockNumber'],
        ['eth_getBalance', 'eth_getBalance'],
      ]);
      const head = hex(r.data!.a.state.blockNumber);
      expect(r.data!.a.state.balance).toBe(dec(await node.rpc('eth_getBalance', [alice, head])));
    },
  );

  it(
    'cold cost: `state(atBlock) { balance code nonce }` of 20 addresses is one round of ' +
      'batches (≤ 40 calls each); warm below the head: 0 calls',
    async () => {
      const addresses = Array.from({ length: 20 }, (_, i) =>
        i < node.accounts.length
          ? node.accounts[i]!.toLowerCase()
          : `0x${(i + 1).toString(16).padStart(40, '0')}`,
      );
      const q = `query($c: String!, $at: String!) { ${addresses
        .map(
          (a, i) =>
            `a${i}: address(chainId: $c, address: "${a}") {
            state(atBlock: $at) { balance code nonce } }`,
        )
        .join(' ')} }`;
      const vars = { c: CHAIN, at: beforeTransfer };
      const fresh = await freshGateway();
      proxy.reset();
      const cold = await fresh.query(q, vars);
      expect(cold.errors).toBeUndefined();
      // 60 reads, at most 40 a batch (the public API node's limit): 40 + 20, sent together, nothing
      // else.
      expect(
        stateBatches()
          .map((b) => b.methods.length)
          .sort(),
      ).toEqual([20, 40]);
      expect(proxy.requests).toHaveLength(2);
      expect(proxy.requests.every((b) => b.batch)).toBe(true);
      for (const [i, a] of addresses.entries()) {
        expect(cold.data![`a${i}`].state.balance).toBe(
          dec(await node.rpc('eth_getBalance', [a, hex(beforeTransfer)])),
        );
      }
      proxy.reset();
      const warm = await fresh.query(q, vars);
      expect(warm.data).toEqual(cold.data); // extensions.cost.spentCu differs: 0 when warm
      expect(proxy.requests).toEqual([]);
      await fresh.close();
    },
  );

  it('13 addresses (39 reads) are exactly one batch', async () => {
    const addresses = Array.from(
      { length: 13 },
      (_, i) => `0x${(i + 100).toString(16).padStart(40, '0')}`,
    );
    const q = `query($c: String!, $at: String!) { ${addresses
      .map(
        (a, i) =>
          `a${i}: address(chainId: $c, address: "${a}") {
            state(atBlock: $at) { balance code nonce } }`,
      )
      .join(' ')} }`;
    proxy.reset();
    expect((await gw.query(q, { c: CHAIN, at: afterTransfer })).errors).toBeUndefined();
    expect(proxy.requests.map((b) => [b.batch, b.methods.length])).toEqual([[true, 39]]);
  });

  it('bad input is refused before any call; an unknown chain says no node serves it', async () => {
    proxy.reset();
    const bad = await gw.query(
      `{ address(chainId: "${CHAIN}", address: "${alice}") { state(atBlock: "soon") { balance } }
        }`,
    );
    expect(codes(bad)).toEqual(['BAD_USER_INPUT']);
    const slot = await gw.query(
      `{ address(chainId: "${CHAIN}", address: "${alice}") { state(atBlock: "1") { storage(slot:
        "0xzz") } } }`,
    );
    expect(slot.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'slot' });
    expect(proxy.requests.filter((x) => x.methods.includes('eth_getStorageAt'))).toEqual([]);
    const other = await gw.query(`{ evmState(chainId: "43114", block: "1") { blockNumber } }`);
    expect(other.errors![0]!.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'EVM_CHAIN_NOT_SERVED',
    });
  });
});
