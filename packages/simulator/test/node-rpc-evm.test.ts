import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningSimulator, startSimulator } from '../src/index.js';
import { logsBloom } from '../src/node-rpc/evm-logs.js';

/** `/ext/bc/C/rpc`: go-ethereum semantics, batches, and consistency with the Data API. */

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, adminEnabled: true });
});
afterAll(() => sim.close());

async function post(
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  method = 'POST',
) {
  const res = await fetch(`${sim.nodeUrl}/ext/bc/C/rpc`, {
    method,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const json =
    res.headers.get('content-type')?.includes('json') && text
      ? (JSON.parse(text) as any)
      : undefined;
  return { status: res.status, text, json };
}
const eth = async (method: string, params?: unknown[], id: unknown = 1) =>
  (await post({ jsonrpc: '2.0', id, method, params })).json;
const dataApi = async (path: string) =>
  (await fetch(`${sim.dataApiUrl}${path}`)).json() as Promise<any>;

describe('C-Chain EVM RPC', () => {
  it("one block's logs everywhere: the header's logsBloom, newHeads, receipts and eth_getLogs agree, and hold the world's ERC-20/721/1155 transfers", async () => {
    const socket = new WebSocket(sim.wsUrl);
    const heads: any[] = [];
    socket.on('message', (d) => {
      const m = JSON.parse(String(d));
      if (m.method === 'eth_subscription') heads.push(m.params.result);
    });
    await new Promise((r) => socket.once('open', r));
    socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }),
    );
    await new Promise((r) => socket.once('message', r));
    const chain = sim.world.chain('43114')!;
    let kinds = new Set<string>();
    for (let i = 0; i < 40 && kinds.size < 3; i++) {
      await fetch(`${sim.url}/_sim/advance`, {
        method: 'POST',
        body: JSON.stringify({ chainId: '43114', blocks: 1, evolve: false }),
      });
      const b = chain.head();
      const n = `0x${b.number.toString(16)}`;
      const block = (await eth('eth_getBlockByNumber', [n, false])).result;
      const receipts = (await eth('eth_getBlockReceipts', [block.hash])).result as any[];
      expect((await eth('eth_getBlockReceipts', [n])).result).toEqual(receipts);
      expect(receipts.map((r) => r.transactionHash)).toEqual(block.transactions);
      for (const r of receipts) {
        expect((await eth('eth_getTransactionReceipt', [r.transactionHash])).result).toEqual(r);
        expect(r.logsBloom).toBe(logsBloom(r.logs));
        expect(r.blockHash).toBe(block.hash);
      }
      const logs = receipts.flatMap((r) => r.logs);
      expect((await eth('eth_getLogs', [{ blockHash: block.hash }])).result).toEqual(logs);
      expect(logs.map((l) => Number(l.logIndex))).toEqual(logs.map((_, i) => i));
      expect(block.logsBloom).toBe(logsBloom(logs));
      for (let t = 0; t < 200 && !heads.some((h) => h.hash === block.hash); t++)
        await new Promise((r) => setTimeout(r, 10));
      expect(heads.find((h) => h.hash === block.hash)?.logsBloom).toBe(block.logsBloom);
      const want = chain.blockTxs(b).flatMap((t) => [...t.erc20, ...t.erc721, ...t.erc1155]);
      expect(logs).toHaveLength(want.length);
      if (logs.length > 0) expect(block.logsBloom).not.toBe(`0x${'0'.repeat(512)}`);
      kinds = new Set([...kinds, ...want.map((t) => t.kind)]);
    }
    expect([...kinds].sort()).toEqual(['erc1155', 'erc20', 'erc721']);
    expect((await eth('eth_getBlockReceipts', [`0x${'1'.repeat(64)}`])).result).toBeNull();
    socket.terminate();
  });

  it('answers chain id, net version, block number and client version', async () => {
    expect((await eth('eth_chainId', [])).result).toBe('0xa86a');
    expect((await eth('net_version', [])).result).toBe('43114');
    expect((await eth('eth_blockNumber', [])).result).toBe(
      `0x${sim.world.head('43114').number.toString(16)}`,
    );
    expect((await eth('web3_clientVersion')).result).toMatch(/^v\d+\.\d+\.\d+$/);
    for (const m of ['eth_baseFee', 'eth_maxPriorityFeePerGas'])
      expect((await eth(m, [])).result).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
    expect((await eth('eth_getChainConfig', [])).result.chainId).toBe(43114);
  });

  it('serves the Data API blocks: same numbers, hashes, parents, timestamps and transactions', async () => {
    const chain = sim.world.chain('43114')!;
    const picks = [chain.info.firstBlock, sim.world.fixtures.blockNumber, chain.head().number];
    for (const n of picks) {
      const block = (await eth('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).result;
      const ref = await dataApi(`/v1/chains/43114/blocks/${n}`);
      expect(block.number).toBe(`0x${n.toString(16)}`);
      expect(Number(ref.blockNumber)).toBe(n);
      expect(block.hash).toBe(ref.blockHash);
      expect(block.parentHash).toBe(ref.parentHash);
      expect(Number(block.timestamp)).toBe(ref.blockTimestamp);
      expect(block.transactions).toHaveLength(ref.txCount);
      const txs = await dataApi(`/v1/chains/43114/blocks/${n}/transactions?pageSize=100`);
      expect(block.transactions).toEqual(txs.transactions.map((t: any) => t.txHash));
      expect((await eth('eth_getBlockByHash', [block.hash, false])).result).toEqual(block);
    }
  });

  it('embeds full transactions with fullTx=true', async () => {
    const n = sim.world.fixtures.blockNumber;
    const block = (await eth('eth_getBlockByNumber', [`0x${n.toString(16)}`, true])).result;
    const tx = block.transactions.find((t: any) => t.hash === sim.world.fixtures.txHash);
    expect(tx).toMatchObject({
      blockHash: block.hash,
      blockNumber: block.number,
      hash: sim.world.fixtures.txHash,
    });
    expect((await eth('eth_getTransactionByHash', [tx.hash])).result).toEqual(tx);
  });

  it('resolves latest, earliest and unknown blocks', async () => {
    expect((await eth('eth_getBlockByNumber', ['latest', false])).result.hash).toBe(
      sim.world.head('43114').hash,
    );
    expect((await eth('eth_getBlockByNumber', ['earliest', false])).result.number).toBe('0x0');
    expect((await eth('eth_getBlockByNumber', ['0xfffffffff', false])).result).toBeNull();
    expect((await eth('eth_getBlockByHash', [`0x${'ab'.repeat(32)}`, false])).result).toBeNull();
  });

  it('answers balances from the world at any block', async () => {
    const addr = sim.world.fixtures.busyAddress;
    const chain = sim.world.chain('43114')!;
    const mid = sim.world.fixtures.blockNumber;
    expect(BigInt((await eth('eth_getBalance', [addr, 'latest'])).result)).toBe(
      chain.nativeBalance(addr),
    );
    expect(BigInt((await eth('eth_getBalance', [addr, `0x${mid.toString(16)}`])).result)).toBe(
      chain.nativeBalance(addr, mid),
    );
    expect(
      BigInt(
        (await eth('eth_getBalance', [addr, { blockNumber: `0x${mid.toString(16)}` }])).result,
      ),
    ).toBe(chain.nativeBalance(addr, mid));
    expect((await eth('eth_getBalance', [addr, '0xffffffffff'])).error).toEqual({
      code: -32000,
      message: 'header not found',
    });
  });

  it('uses go-ethereum error codes', async () => {
    expect(await eth('eth_foo', [])).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'the method eth_foo does not exist/is not available' },
    });
    expect((await eth('eth_getBlockByNumber', [])).error).toEqual({
      code: -32602,
      message: 'missing value for required argument 0',
    });
    expect((await eth('eth_getBlockByNumber', ['0x1'])).error).toEqual({
      code: -32602,
      message: 'missing value for required argument 1',
    });
    expect((await eth('eth_getBlockByNumber', [123, false])).error).toEqual({
      code: -32602,
      message: 'invalid argument 0: hex string without 0x prefix',
    });
    expect((await eth('eth_getBlockByNumber', ['0x01', false])).error.message).toBe(
      'invalid argument 0: hex number with leading zero digits',
    );
    expect((await eth('eth_getBlockByNumber', ['latest', 'yes'])).error.message).toBe(
      'invalid argument 1: json: cannot unmarshal string into Go value of type bool',
    );
    expect((await eth('eth_chainId', [1])).error).toEqual({
      code: -32602,
      message: 'too many arguments, want at most 0',
    });
    expect((await eth('eth_getBalance', ['0x12', 'latest'])).error.message).toBe(
      'invalid argument 0: hex string has length 2, want 40 for common.Address',
    );
    expect(
      (await post({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: { a: 1 } })).json.error,
    ).toEqual({ code: -32602, message: 'non-array args' });
    const parse = await post('{"jsonrpc":');
    expect(parse.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'parse error' },
    });
    expect((await post({ jsonrpc: '1.0', id: 3, method: 'eth_chainId' })).json).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32600, message: 'invalid request' },
    });
    expect((await post({ jsonrpc: '2.0', id: 3 })).json.error).toEqual({
      code: -32600,
      message: 'invalid request',
    });
  });

  it('answers batches in order, skips notifications, and refuses more than 40 calls as geth does', async () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 'x', method: 'eth_nope', params: [] },
      { jsonrpc: '2.0', id: 3, method: 'net_version' },
    ];
    const r = await post(batch);
    expect(r.json.map((x: any) => x.id)).toEqual([1, 'x', 3]);
    expect(r.json[1].error.code).toBe(-32601);
    const forty = Array.from({ length: 40 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'eth_blockNumber',
      params: [],
    }));
    expect((await post(forty)).json).toHaveLength(40);
    const tooMany = [
      { jsonrpc: '2.0', method: 'eth_chainId' },
      ...forty.map((c) => ({ ...c, id: c.id + 100 })),
    ];
    expect((await post(tooMany)).json).toEqual([
      { jsonrpc: '2.0', id: 100, error: { code: -32600, message: 'batch too large' } },
    ]);
    expect((await post([])).json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'empty batch' },
    });
    expect((await post([{ jsonrpc: '2.0', method: 'eth_chainId' }])).text).toBe('');
  });

  it('sends nothing for a notification or an empty body', async () => {
    expect((await post({ jsonrpc: '2.0', method: 'eth_chainId', params: [] })).text).toBe('');
    expect((await post('')).text).toBe('');
    expect((await post({ jsonrpc: '2.0', id: null, method: 'eth_chainId' })).json).toEqual({
      jsonrpc: '2.0',
      id: null,
      result: '0xa86a',
    });
  });

  it('checks the HTTP method and content type as geth does', async () => {
    const get = await fetch(`${sim.nodeUrl}/ext/bc/C/rpc`);
    expect(get.status).toBe(200);
    expect(await get.text()).toBe('');
    const put = await post('{}', { 'content-type': 'application/json' }, 'PUT');
    expect(put.status).toBe(405);
    expect(put.text).toBe('method not allowed\n');
    const noType = await post({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, {});
    expect(noType.status).toBe(415);
    expect(noType.text).toBe('invalid content type, only application/json is supported\n');
  });
});
