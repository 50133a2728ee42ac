import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';

/** `/ext/bc/X` (avm.*) and `/ext/bc/C/avax` (avax.*): UTXO paging, encodings, consistency. */

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

async function call(path: string, method: string, params: unknown = {}) {
  const res = await fetch(`${sim.nodeUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as any;
}
const avm = async (method: string, params: unknown = {}) => {
  const r = await call('/ext/bc/X', method, params);
  if (r.error) throw new Error(`${method}: ${r.error.message}`);
  return r.result;
};
/** Strips the 0x prefix and verifies avalanchego's 4-byte sha256 checksum. */
function checkedHex(s: string): string {
  expect(s.startsWith('0x')).toBe(true);
  const body = s.slice(2, -8);
  expect(createHash('sha256').update(Buffer.from(body, 'hex')).digest('hex').slice(-8)).toBe(
    s.slice(-8),
  );
  return body;
}

describe('X-Chain avm.*', () => {
  it('pages every UTXO of an address exactly once, limit capped at 1024', async () => {
    const address = `X-${sim.world.fixtures.xChainAddress}`;
    const expected = sim.world.primary.mainnet.xChain.utxosByAddress.get(
      sim.world.fixtures.xChainAddress,
    )!;
    expect(expected.length).toBeGreaterThan(1024);
    const seen: string[] = [];
    let startIndex: unknown;
    let pages = 0;
    for (;;) {
      const page = await avm('avm.getUTXOs', {
        addresses: [address],
        limit: 5000,
        ...(startIndex ? { startIndex } : {}),
      });
      pages++;
      expect(Number(page.numFetched)).toBe(page.utxos.length);
      expect(page.utxos.length).toBeLessThanOrEqual(1024);
      expect(page.encoding).toBe('hex');
      seen.push(...page.utxos.map(checkedHex));
      startIndex = page.endIndex;
      if (page.utxos.length < 1024) break;
    }
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(new Set(expected.map((u) => u.bytesHex)));
  });

  it('resumes after endIndex with a small limit', async () => {
    const address = `X-${sim.world.fixtures.xChainAddress}`;
    const a = await avm('avm.getUTXOs', { addresses: [address], limit: 3 });
    const b = await avm('avm.getUTXOs', { addresses: [address], limit: 3, startIndex: a.endIndex });
    const both = await avm('avm.getUTXOs', { addresses: [address], limit: 6 });
    expect([...a.utxos, ...b.utxos]).toEqual(both.utxos);
    expect(a.endIndex.address).toBe(address);
  });

  it('returns atomic UTXOs by sourceChain and refuses json for UTXOs', async () => {
    const addrs = sim.world.primary.mainnet.xChain.addresses.slice(0, 12).map((a) => `X-${a}`);
    const fromP = await avm('avm.getUTXOs', { addresses: addrs, sourceChain: 'P' });
    const fromC = await avm('avm.getUTXOs', { addresses: addrs, sourceChain: 'C' });
    expect(fromP.utxos.length).toBeGreaterThan(0);
    expect(fromC.utxos.length).toBeGreaterThan(0);
    const json = await call('/ext/bc/X', 'avm.getUTXOs', {
      addresses: addrs,
      sourceChain: 'P',
      encoding: 'json',
    });
    expect(json.error.message).toMatch(
      /^couldn't encode UTXO \w+ as string: unsupported encoding in method$/,
    );
    expect(
      (await call('/ext/bc/X', 'avm.getUTXOs', { addresses: addrs, sourceChain: 'Q' })).error
        .message,
    ).toBe('problem parsing source chainID "Q": there is no ID with alias: Q');
    expect(
      (await call('/ext/bc/X', 'avm.getUTXOs', { addresses: ['avax1xyz'] })).error.message,
    ).toBe('couldn\'t parse address "avax1xyz": no separator found in address');
  });

  it('agrees with the Data API on X-Chain balances', async () => {
    const addr = sim.world.fixtures.xChainAddress;
    const { balances } = await avm('avm.getAllBalances', { address: `X-${addr}` });
    const res = await fetch(
      `${sim.dataApiUrl}/v1/networks/mainnet/blockchains/x-chain/balances?addresses=${addr}`,
    );
    const ref = (await res.json()) as any;
    const avaxId = sim.world.networks.mainnet.avaxAssetId;
    const expected = Object.fromEntries(
      ref.balances.unlocked.map((b: any) => [b.assetId === avaxId ? 'AVAX' : b.assetId, b.amount]),
    );
    expect(Object.fromEntries(balances.map((b: any) => [b.asset, b.balance]))).toEqual(expected);
    const one = await avm('avm.getBalance', { address: `X-${addr}`, assetID: 'AVAX' });
    expect(one.balance).toBe(expected.AVAX);
  });

  it('serves blocks and txs in hex and json', async () => {
    const x = sim.world.primary.mainnet.xChain;
    const head = x.blocks.at(-1)!;
    expect(await avm('avm.getHeight')).toEqual({ height: String(head.height) });
    const byHeight = await avm('avm.getBlockByHeight', {
      height: String(head.height),
      encoding: 'json',
    });
    expect(byHeight.block).toMatchObject({
      id: head.id,
      parentID: head.parentId,
      height: head.height,
    });
    const hex = await avm('avm.getBlock', { blockID: head.id });
    expect(hex.encoding).toBe('hex');
    checkedHex(hex.block);
    const tx = x.txs[5]!;
    const txJson = await avm('avm.getTx', { txID: tx.id, encoding: 'json' });
    expect(txJson.tx.id).toBe(tx.id);
    expect(txJson.tx.unsignedTx.outputs).toHaveLength(tx.utxoIds.length);
    checkedHex((await avm('avm.getTx', { txID: tx.id })).tx);
    expect(await avm('avm.getTxStatus', { txID: tx.id })).toEqual({ status: 'Accepted' });
    expect(
      (await call('/ext/bc/X', 'avm.getTx', { txID: '11111111111111111111111111111111LpoYY' }))
        .error.message,
    ).toBe('nil transaction ID');
    expect((await call('/ext/bc/X', 'avm.getBlockByHeight', { height: 5 })).error.message).toBe(
      "couldn't get block at height 5: not found",
    );
  });

  it('describes assets and fees', async () => {
    expect(await avm('avm.getAssetDescription', { assetID: 'AVAX' })).toEqual({
      assetID: sim.world.networks.mainnet.avaxAssetId,
      name: 'Avalanche',
      symbol: 'AVAX',
      denomination: '9',
    });
    expect(await avm('avm.getTxFee')).toEqual({ txFee: '1000000', createAssetTxFee: '10000000' });
  });

  it('issues a tx (hex with checksum) and then knows it', async () => {
    const body = `00000000000000000001${'ab'.repeat(40)}`;
    const tx = `0x${body}${createHash('sha256').update(Buffer.from(body, 'hex')).digest('hex').slice(-8)}`;
    const { txID } = await avm('avm.issueTx', { tx, encoding: 'hex' });
    expect(await avm('avm.getTxStatus', { txID })).toEqual({ status: 'Accepted' });
    expect(
      (await call('/ext/bc/X', 'avm.issueTx', { tx: `${tx.slice(0, -2)}00` })).error.message,
    ).toBe('problem decoding transaction: invalid input checksum');
  });
});

describe('C-Chain avax.*', () => {
  it('returns the atomic UTXOs of the C-Chain atomic balances (sourceChain required)', async () => {
    const [address, balance] = [...sim.world.primary.mainnet.cAtomicBalances.entries()][0]!;
    const r = await call('/ext/bc/C/avax', 'avax.getUTXOs', {
      addresses: [`C-${address}`],
      sourceChain: 'X',
    });
    const sum = r.result.utxos.reduce(
      (s: bigint, u: string) =>
        s + BigInt(`0x${checkedHex(u).slice(4 + 64 + 8 + 64 + 8, 4 + 64 + 8 + 64 + 8 + 16)}`),
      0n,
    );
    expect(sum).toBe(balance);
    expect(r.result.endIndex.address).toBe(`C-${address}`);
    expect(
      (await call('/ext/bc/C/avax', 'avax.getUTXOs', { addresses: [`C-${address}`] })).error
        .message,
    ).toBe('no source chain provided');
  });

  it('knows the C-Chain export txs behind the X-Chain atomic UTXOs', async () => {
    const addrs = sim.world.primary.mainnet.xChain.addresses.slice(0, 12).map((a) => `X-${a}`);
    const fromC = await avm('avm.getUTXOs', { addresses: addrs, sourceChain: 'C' });
    const txIdHex = checkedHex(fromC.utxos[0]).slice(4, 68);
    const { cb58 } = await import('../src/world/index.js');
    const txID = cb58(Buffer.from(txIdHex, 'hex'));
    const status = await call('/ext/bc/C/avax', 'avax.getAtomicTxStatus', { txID });
    expect(status.result.status).toBe('Accepted');
    const tx = await call('/ext/bc/C/avax', 'avax.getAtomicTx', { txID, encoding: 'hex' });
    expect(tx.result.blockHeight).toBe(status.result.blockHeight);
    expect(
      createHash('sha256')
        .update(Buffer.from(checkedHex(tx.result.tx), 'hex'))
        .digest('hex'),
    ).toBe(txIdHex);
    const unknown = await call('/ext/bc/C/avax', 'avax.getAtomicTx', {
      txID: sim.world.primary.mainnet.xChain.txs[0]!.id,
    });
    expect(unknown.error.message).toMatch(/^could not find tx /);
  });
});
