import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  CChainAtomicTransactionDocument,
  CChainAtomicUtxosDocument,
  CChainLinksDocument,
  CChainTenFieldsDocument,
  XChainBlockDocument,
  XChainDeprecatedDocument,
  XChainOverviewDocument,
  XChainTransactionDocument,
  XChainUtxosDocument,
  type XChainUtxosQuery,
} from '../__generated__/graphql.js';
import { codes, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet, simNodeRpc } from '../support/sim.js';

/** The X-Chain and C-Chain of a configured node, compared with the simulator's own answers. */
let sim: RunningSimulator;
const redisUrl = await allocateRedisDb();

const nodeRpc = (path: string, method: string, params: unknown = {}) =>
  simNodeRpc(sim.nodeUrl, path, method, params);
const dec = (hex: string) => BigInt(hex).toString();
const xChain = () => sim.world.primary.mainnet.xChain;

const { gateway } = useSimulator({}, (s) => {
  sim = s;
});
beforeEach(async () => {
  await flushRedisDb(redisUrl);
});

describe('C-Chain', () => {
  const address = '0x0000000000000000000000000000000000000001';

  it('ten EVM fields are two JSON-RPC batches (the balance at the head the first names); every value is the node’s (hex quantities as exact decimals); none when warm', async () => {
    const gw = gateway({ redisUrl });
    const cold = await gw.exec(CChainTenFieldsDocument, {
      address: sim.world.fixtures.busyAddress,
    });
    expect(cold.errors).toBeUndefined();
    expect(sim.stats().byRoute['node POST /ext/bc/C/rpc']).toBe(2);
    expect(Object.keys(sim.stats().byRpcMethod)).toHaveLength(10);
    const c = cold.data!.networkNode!.cChain;
    const call = (m: string, p: unknown[] = []) => nodeRpc('/ext/bc/C/rpc', m, p);
    const [chainId, blockNumber, baseFee, tip, gasPrice, config, syncing, net, client, balance] =
      await Promise.all([
        call('eth_chainId'),
        call('eth_blockNumber'),
        call('eth_baseFee'),
        call('eth_maxPriorityFeePerGas'),
        call('eth_gasPrice'),
        call('eth_getChainConfig'),
        call('eth_syncing'),
        call('net_version'),
        call('web3_clientVersion'),
        call('eth_getBalance', [sim.world.fixtures.busyAddress, 'latest']),
      ]);
    expect(c).toMatchObject({
      chainId: dec(chainId),
      blockNumber: dec(blockNumber),
      baseFee: dec(baseFee),
      maxPriorityFeePerGas: dec(tip),
      gasPrice: dec(gasPrice),
      isSyncing: syncing !== false,
      syncProgress: null,
      netVersion: net,
      clientVersion: client,
      balance: dec(balance),
    });
    expect(BigInt(c.balance!)).toBeGreaterThan(2n ** 53n); // beyond a float's exact range, still exact
    expect(c.chainConfig!.chainId).toBe(String(config.chainId));
    expect(c.chainConfig!.daoForkSupport).toBe(config.daoForkSupport);
    const forks = Object.entries(config).filter(([k]) => /(Block|Time|Timestamp)$/.test(k));
    expect(c.chainConfig!.forks.map((f) => f.key).sort()).toEqual(forks.map(([k]) => k).sort());
    const london = c.chainConfig!.forks.find((f) => f.key === 'londonBlock')!;
    expect(london).toMatchObject({
      name: 'london',
      block: String(config.londonBlock),
      timestamp: null,
    });
    const durango = c.chainConfig!.forks.find((f) => f.key === 'durangoBlockTimestamp')!;
    expect(durango).toMatchObject({
      name: 'durango',
      block: null,
      timestamp: config.durangoBlockTimestamp,
    });

    await gw.settled();
    sim.reset();
    const warm = await gw.exec(CChainTenFieldsDocument, {
      address: sim.world.fixtures.busyAddress,
    });
    expect(warm.data).toEqual(cold.data);
    expect(sim.stats().total).toBe(0);
    await gw.close();
  });

  it('links: the chain and the latest block as the Data API indexes them', async () => {
    const gw = gateway();
    const r = await gw.exec(CChainLinksDocument, { address });
    expect(r.errors).toBeUndefined();
    const c = r.data!.networkNode!.cChain;
    const head = (await simGet(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 }))
      .blocks[0];
    expect(c.chain).toEqual({ chainId: '43114', name: 'Avalanche (C-Chain)' });
    expect(c.latestBlock).toEqual({ number: head.blockNumber, hash: head.blockHash });
    expect(c.transactionCount).toBe(
      dec(await nodeRpc('/ext/bc/C/rpc', 'eth_getTransactionCount', [address, 'latest'])),
    );
    await gw.close();
  });

  it('atomic transactions and atomic UTXOs (shared memory, /ext/bc/C/avax)', async () => {
    const gw = gateway();
    // X-Chain UTXOs imported from the C-Chain name the C-Chain export tx that made them.
    const fromC = await gw.exec(XChainUtxosDocument, {
      addresses: xChain()
        .addresses.slice(0, 60)
        .map((a) => `X-${a}`),
      sourceChain: 'C',
      first: 5,
    });
    expect(fromC.errors).toBeUndefined();
    const txId = fromC.data!.networkNode!.xChain.utxos!.edges[0]!.node.txId!;
    const r = await gw.exec(CChainAtomicTransactionDocument, { id: txId });
    expect(r.errors).toBeUndefined();
    const [tx, status] = await Promise.all([
      nodeRpc('/ext/bc/C/avax', 'avax.getAtomicTx', { txID: txId, encoding: 'hex' }),
      nodeRpc('/ext/bc/C/avax', 'avax.getAtomicTxStatus', { txID: txId }),
    ]);
    expect(r.data!.networkNode!.cChain.atomicTransaction).toMatchObject({
      txId,
      hex: tx.tx,
      blockHeight: tx.blockHeight,
      status: status.status,
      block: { number: tx.blockHeight },
    });

    const owners = [...sim.world.primary.mainnet.cAtomicBalances.keys()]
      .slice(0, 3)
      .map((a) => `C-${a}`);
    const page = await gw.exec(CChainAtomicUtxosDocument, {
      addresses: owners,
      sourceChain: 'X',
      first: 50,
    });
    expect(page.errors).toBeUndefined();
    const direct = await nodeRpc('/ext/bc/C/avax', 'avax.getUTXOs', {
      addresses: owners,
      sourceChain: 'X',
      encoding: 'hex',
    });
    const utxos = page.data!.networkNode!.cChain.atomicUtxos!.edges.map((e) => e.node);
    expect(utxos.map((u) => u.hex)).toEqual(direct.utxos.slice(0, 50));
    for (const u of utxos) {
      expect(owners).toContain(u.addresses![0]);
      expect(u.sourceChain).toBe('X');
    }
    // the atomic balances the Data API reports are these UTXOs' sums
    const total = utxos
      .filter((u) => u.addresses![0] === owners[0])
      .reduce((s, u) => s + BigInt(u.amount!), 0n);
    expect(total).toBe(sim.world.primary.mainnet.cAtomicBalances.get(owners[0]!.slice(2)));
    await gw.close();
  });
});

describe('X-Chain', () => {
  it('height, fees and an asset with its denomination helper', async () => {
    const gw = gateway();
    const r = await gw.exec(XChainOverviewDocument, { asset: 'AVAX', amount: '1500000001' });
    expect(r.errors).toBeUndefined();
    const [height, fees, asset] = await Promise.all([
      nodeRpc('/ext/bc/X', 'avm.getHeight'),
      nodeRpc('/ext/bc/X', 'avm.getTxFee'),
      nodeRpc('/ext/bc/X', 'avm.getAssetDescription', { assetID: 'AVAX' }),
    ]);
    expect(r.data!.networkNode!.xChain).toMatchObject({
      height: height.height,
      fees,
      asset: {
        assetId: asset.assetID,
        name: asset.name,
        symbol: asset.symbol,
        denomination: Number(asset.denomination),
        formatAmount: '1.500000001',
      },
    });
    await gw.close();
  });

  it('a block by height and by id: header from its bytes, transactions decoded, all the node’s', async () => {
    const gw = gateway();
    const world = xChain().blocks[42]!;
    const byHeight = await gw.exec(XChainBlockDocument, { height: String(world.height) });
    expect(byHeight.errors).toBeUndefined();
    const b = byHeight.data!.networkNode!.xChain.block!;
    const hex = (
      await nodeRpc('/ext/bc/X', 'avm.getBlockByHeight', {
        height: String(world.height),
        encoding: 'hex',
      })
    ).block;
    expect(b).toMatchObject({
      blockId: world.id,
      height: String(world.height),
      parentId: world.parentId,
      timestamp: world.timestamp,
      timestampIso: new Date(world.timestamp * 1000).toISOString(),
      txCount: world.txIds.length,
      hex,
      parent: { blockId: world.parentId, height: String(world.height - 1) },
    });
    expect(b.transactions!.map((t) => t.txId)).toEqual(world.txIds);
    const json = (
      await nodeRpc('/ext/bc/X', 'avm.getTx', { txID: world.txIds[0], encoding: 'json' })
    ).tx;
    const t0 = b.transactions![0]!;
    expect(
      t0.outputs!.map((o) => [o.assetId, o.addresses, o.amount, o.locktime, o.threshold]),
    ).toEqual(
      json.unsignedTx.outputs.map((o: any) => [
        o.assetID,
        o.output.addresses,
        String(o.output.amount),
        String(o.output.locktime),
        o.output.threshold,
      ]),
    );
    const byId = await gw.exec(XChainBlockDocument, { id: world.id });
    expect(byId.data!.networkNode!.xChain.block).toEqual(b);
    await gw.close();
  });

  it('a transaction: hex bytes and the decoded form, typed', async () => {
    const gw = gateway();
    const txId = xChain().txs[17]!.id;
    const r = await gw.exec(XChainTransactionDocument, { id: txId });
    expect(r.errors).toBeUndefined();
    const t = r.data!.networkNode!.xChain.transaction!;
    const [hex, json] = await Promise.all([
      nodeRpc('/ext/bc/X', 'avm.getTx', { txID: txId, encoding: 'hex' }),
      nodeRpc('/ext/bc/X', 'avm.getTx', { txID: txId, encoding: 'json' }),
    ]);
    const u = json.tx.unsignedTx;
    expect(t).toMatchObject({
      txId,
      hex: hex.tx,
      kind: 'BASE',
      networkId: u.networkID,
      blockchainId: u.blockchainID,
      memo: u.memo,
      destinationChain: null,
      sourceChain: null,
    });
    expect(t.inputs).toEqual(
      u.inputs.map((i: any) => ({
        txId: i.txID,
        outputIndex: i.outputIndex,
        assetId: i.assetID,
        fxId: i.fxID,
        amount: String(i.input.amount),
        signatureIndices: i.input.signatureIndices,
        transaction: { txId: i.txID },
      })),
    );
    expect(t.credentials).toEqual(
      json.tx.credentials.map((c: any) => ({ fxId: c.fxID, signatures: c.credential.signatures })),
    );
    await gw.close();
  });

  it('blocks, transactions and assets are Relay nodes: refetched by global id; an unknown id is NOT_FOUND', async () => {
    const gw = gateway();
    const block = xChain().blocks[7]!;
    const b = await gw.exec(XChainBlockDocument, { height: String(block.height) });
    const t = await gw.exec(XChainTransactionDocument, { id: block.txIds[0]! });
    const a = await gw.exec(XChainOverviewDocument, { asset: 'AVAX', amount: '1' });
    const ids = [
      b.data!.networkNode!.xChain.block!.id,
      t.data!.networkNode!.xChain.transaction!.id,
      a.data!.networkNode!.xChain.asset!.id,
    ];
    const r = await gw.query(
      'query($ids: [ID!]!) { nodes(ids: $ids) { id ... on XChainBlock { blockId height } ... on XChainTransaction { txId } ... on XChainAsset { assetId symbol } } }',
      { ids },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.nodes).toEqual([
      { id: ids[0], blockId: block.id, height: String(block.height) },
      { id: ids[1], txId: block.txIds[0] },
      { id: ids[2], assetId: sim.world.primary.mainnet.info.avaxAssetId, symbol: 'AVAX' },
    ]);
    const unknownId = Buffer.from(`XChainTransaction:default:${block.id}`).toString('base64url'); // a block id is no tx id
    const missing = await gw.query('query($id: ID!) { node(id: $id) { id } }', { id: unknownId });
    expect(missing.data).toEqual({ node: null });
    expect(codes(missing)).toEqual(['NOT_FOUND']);
    await gw.close();
  });

  it('UTXOs: a connection over endIndex paging returns exactly what walking the node returns, decoded', async () => {
    const gw = gateway({ redisUrl });
    const address = `X-${sim.world.fixtures.xChainAddress}`;
    const direct: string[] = [];
    let startIndex: unknown;
    for (;;) {
      const page = await nodeRpc('/ext/bc/X', 'avm.getUTXOs', {
        addresses: [address],
        limit: 1024,
        encoding: 'hex',
        ...(startIndex ? { startIndex } : {}),
      });
      direct.push(...page.utxos);
      if (Number(page.numFetched) < 1024) break;
      startIndex = page.endIndex;
    }
    expect(direct.length).toBeGreaterThan(1024);
    sim.reset();

    const seen: any[] = [];
    let after: string | null = null;
    for (;;) {
      const r: { data?: XChainUtxosQuery | null; errors?: unknown } = await gw.exec(
        XChainUtxosDocument,
        { addresses: [address], first: 250, after },
      ); // 500 UTXOs with their transactions would cost more than MAX_QUERY_COST
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      const conn = r.data!.networkNode!.xChain.utxos!;
      seen.push(...conn.edges.map((e) => e.node));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor!;
    }
    expect(seen.map((u) => u.hex)).toEqual(direct);
    // upstream pages at the node's largest limit, each read once while paging
    expect(sim.stats().byRpcMethod['/ext/bc/X avm.getUTXOs']).toBe(
      Math.ceil((direct.length + 1) / 1024),
    );

    const owned = new Map(
      (xChain().utxosByAddress.get(sim.world.fixtures.xChainAddress) ?? []).map((u) => [
        u.utxoId,
        u,
      ]),
    );
    for (const u of seen) {
      const w = owned.get(u.utxoId);
      expect(w).toBeDefined();
      expect(u).toMatchObject({
        txId: w!.txId,
        outputIndex: w!.outputIndex,
        assetId: w!.assetId,
        outputTypeId: 7,
        amount: String(w!.amount),
        locktime: String(w!.locktime),
        threshold: w!.threshold,
        addresses: w!.addresses.map((a) => `X-${a}`),
        transaction: { txId: w!.txId },
      });
    }
    await gw.close();
  });

  it('deprecated methods still answer, and the schema marks them deprecated with the version', async () => {
    const gw = gateway();
    const address = `X-${sim.world.fixtures.xChainAddress}`;
    const txId = xChain().txs[3]!.id;
    const r = await gw.exec(XChainDeprecatedDocument, { address, txId });
    expect(r.errors).toBeUndefined();
    const [balance, all, status] = await Promise.all([
      nodeRpc('/ext/bc/X', 'avm.getBalance', { address, assetID: 'AVAX' }),
      nodeRpc('/ext/bc/X', 'avm.getAllBalances', { address }),
      nodeRpc('/ext/bc/X', 'avm.getTxStatus', { txID: txId }),
    ]);
    const x = r.data!.networkNode!.xChain;
    expect(x.balance).toEqual({
      balance: balance.balance,
      utxos: balance.utxoIDs.map((u: any) => ({ txId: u.txID, outputIndex: u.outputIndex })),
    });
    expect(x.balances!.map((b) => [b.asset, b.balance])).toEqual(
      all.balances.map((b: any) => [b.asset, b.balance]),
    );
    expect(x.transaction!.status).toBe(status.status);
    const t = await gw.query(`{
      x: __type(name: "XChain") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } }
      t: __type(name: "XChainTransaction") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } }
      n: __type(name: "NetworkNode") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`);
    const reason = (type: string, field: string) =>
      t.data![type].fields.find((f: any) => f.name === field);
    expect(reason('x', 'balance')).toMatchObject({
      isDeprecated: true,
      deprecationReason: expect.stringContaining('v1.9.12'),
    });
    expect(reason('x', 'balances')).toMatchObject({
      isDeprecated: true,
      deprecationReason: expect.stringContaining('v1.9.12'),
    });
    expect(reason('t', 'status')).toMatchObject({
      isDeprecated: true,
      deprecationReason: expect.stringContaining('v1.10.0'),
    });
    expect(reason('n', 'txFee')).toMatchObject({
      isDeprecated: true,
      deprecationReason: expect.stringContaining('v1.12.2'),
    });
    await gw.close();
  });
});

describe('node errors are typed GraphQL errors carrying the node’s message', () => {
  it('-32000 “not found” is NOT_FOUND; an address the node rejects is BAD_USER_INPUT', async () => {
    const gw = gateway();
    const unknownTx = xChain().blocks[1]!.id; // a valid id that names no tx
    const r = await gw.exec(XChainTransactionDocument, { id: unknownTx });
    expect(codes(r)).toContain('NOT_FOUND');
    expect(r.errors![0]!.message).toMatch(/avm\.getTx: not found/);
    expect(r.errors![0]!.extensions).toMatchObject({ upstream: 'node', rpcCode: -32000 });
    // a fuji address on the mainnet node: well-formed, so it reaches the node, which refuses it
    const fuji = await gw.exec(XChainUtxosDocument, {
      addresses: ['X-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq2nffjl'],
      first: 1,
    });
    expect(codes(fuji)).toEqual(['BAD_USER_INPUT']);
    expect(fuji.errors![0]!.message).toMatch(/expected hrp "avax" but got "fuji"/);
    await gw.close();
  });

  it.each([
    [415, 'rpc: unrecognized Content-Type: text/plain'],
    [405, 'rpc: POST method required, received GET'],
  ])(
    'HTTP %i from a node endpoint is UPSTREAM_ERROR with the node’s text',
    async (status, text) => {
      const gw = gateway();
      sim.addFault({
        route: 'node POST /ext/bc/X',
        status,
        body: `${text}\n`,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      });
      const r = await gw.exec(XChainOverviewDocument, { asset: 'AVAX', amount: '1' });
      sim.clearFaults();
      expect(r.data!.networkNode!.xChain).toEqual({ height: null, fees: null, asset: null });
      expect(codes(r)).toEqual(['UPSTREAM_ERROR', 'UPSTREAM_ERROR', 'UPSTREAM_ERROR']);
      for (const e of r.errors!) {
        expect(e.extensions).toMatchObject({ upstream: 'node', upstreamStatus: status });
        expect(e.message).toContain(text);
      }
      await gw.close();
    },
  );

  it('EVM error codes come back per call with the node’s code and message', async () => {
    const gw = gateway(); // a fresh client: its batch ids start at 1
    sim.addFault({
      route: 'node POST /ext/bc/C/rpc',
      count: 1,
      status: 200,
      body: Array.from({ length: 40 }, (_, i) =>
        i % 2 === 0
          ? {
              jsonrpc: '2.0',
              id: i + 1,
              error: { code: -32602, message: 'invalid argument 0: hex string without 0x prefix' },
            }
          : {
              jsonrpc: '2.0',
              id: i + 1,
              error: { code: 3, message: 'execution reverted: paused', data: '0x08c379a0' },
            },
      ),
    });
    const r = await gw.query('{ networkNode { cChain { chainId blockNumber } } }');
    expect(r.data).toEqual({ networkNode: { cChain: { chainId: null, blockNumber: null } } });
    const byPath = Object.fromEntries(r.errors!.map((e) => [e.path!.at(-1), e]));
    expect(byPath.chainId!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', rpcCode: -32602 });
    expect(byPath.chainId!.message).toMatch(
      /eth_chainId: invalid argument 0: hex string without 0x prefix/,
    );
    expect(byPath.blockNumber!.extensions).toMatchObject({ code: 'UPSTREAM_ERROR', rpcCode: 3 });
    expect(byPath.blockNumber!.message).toMatch(/execution reverted: paused/);
    expect(sim.stats().byRoute['node POST /ext/bc/C/rpc']).toBe(1);
    await gw.close();
  });

  it('bad arguments are BAD_USER_INPUT naming the argument, before any upstream call', async () => {
    const gw = gateway();
    const cases: [string, string][] = [
      ['{ networkNode { xChain { block(id: "abc", height: "1") { hex } } } }', 'height'],
      ['{ networkNode { xChain { block { hex } } } }', 'id'],
      ['{ networkNode { xChain { block(height: "-1") { hex } } } }', 'height'],
      [
        '{ networkNode { xChain { transaction(id: "2oJCbb8pfdxEHAf9A8CdN4Afj9VSR3xzyzNkf8tDv7aM1sfNFX") { hex } } } }',
        'id',
      ],
      [
        '{ networkNode { xChain { utxos(addresses: ["P-avax1tnuesf6cqwnjw7fxjyk7lhch0vhf0v95wj5jvy"]) { edges { node { hex } } } } } }',
        'addresses',
      ],
      [
        '{ networkNode { xChain { utxos(addresses: []) { edges { node { hex } } } } } }',
        'addresses',
      ],
      ['{ networkNode { cChain { balance(address: "0x12") } } }', 'address'],
      [
        '{ networkNode { cChain { atomicUtxos(addresses: ["C-avax1tnuesf6cqwnjw7fxjyk7lhch0vhf0v95wj5jvy"], sourceChain: "X!") { edges { node { hex } } } } } }',
        'sourceChain',
      ],
      ['{ networkNode { xChain { asset(id: "not an asset") { name } } } }', 'id'],
    ];
    for (const [query, argument] of cases) {
      const r = await gw.query(query);
      expect(codes(r), query).toEqual(['BAD_USER_INPUT']);
      expect(r.errors![0]!.extensions!.argument, query).toBe(argument);
    }
    expect(sim.stats().total).toBe(0);
    await gw.close();
  });
});
