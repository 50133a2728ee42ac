import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../src/index.js';
import { NodeVarier } from '../src/vary/node-variation.js';

/** SIM_VARY on the node's JSON-RPC answers (packages/simulator/src/vary/node-variation.ts). */

const UINT64_MAX = '18446744073709551615';
const env = (_method: string, result: unknown) => ({ jsonrpc: '2.0', id: 1, result });

describe('NodeVarier', () => {
  it('is deterministic from the seed and the content, and does not modify its input', () => {
    const body = env('info.getTxFee', { txFee: '1000000', createAssetTxFee: '10000000' });
    const copy = structuredClone(body);
    const a = new NodeVarier('s1').vary(body, ['info.getTxFee']);
    expect(new NodeVarier('s1').vary(body, ['info.getTxFee'])).toEqual(a);
    expect(body).toEqual(copy);
  });

  it('reaches every kind of variant over some seeds, and keeps identities', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const v = new NodeVarier(`seed-${i}`);
      const fee = (
        v.vary(env('', { txFee: '1000000', createAssetTxFee: '10000000' }), ['avm.getTxFee']) as any
      ).result;
      if (fee.txFee === UINT64_MAX) seen.add('uint64 max');
      if (fee.txFee === '0') seen.add('u64 zero');
      const peers = (
        v.vary(
          env('', {
            numPeers: '1',
            peers: [
              {
                ip: '1.2.3.4:9651',
                publicIP: '1.2.3.4:9651',
                nodeID: 'NodeID-abc',
                version: 'avalanchego/1.13.4',
                lastSent: 't',
                lastReceived: 't',
                observedUptime: '99',
                trackedSubnets: ['x'],
                supportedACPs: [23],
                objectedACPs: [],
                benched: [],
              },
            ],
          }),
          ['info.peers'],
        ) as any
      ).result;
      if (peers.peers.length === 0) {
        seen.add('no peers');
        expect(peers.numPeers).toBe('0');
      } else {
        expect(peers.peers[0].nodeID).toBe('NodeID-abc');
        expect(peers.peers[0].ip).toBe('1.2.3.4:9651');
        if (!('publicIP' in peers.peers[0])) seen.add('publicIP absent');
        if (peers.numPeers === 1) seen.add('numPeers number');
        if (peers.peers[0].trackedSubnets.length === 0) seen.add('empty set');
        if (peers.peers[0].version === 'avalanche/1.13.4') seen.add('old version form');
      }
      const boot = (v.vary(env('', { isBootstrapped: true }), ['info.isBootstrapped']) as any)
        .result;
      if (boot.isBootstrapped === false) seen.add('boolean flipped');
      const base = (v.vary(env('', '0x5d21dba00'), ['eth_baseFee']) as any).result as string;
      if (BigInt(base) > 2n ** 53n) seen.add('hex above 2^53');
      const sync = (v.vary(env('', false), ['eth_syncing']) as any).result;
      if (sync !== false) seen.add('syncing object');
      const vms = (
        v.vary(env('', { vms: { id1: ['avm'] }, fxs: { f: 'secp256k1fx' } }), [
          'info.getVMs',
        ]) as any
      ).result;
      if (vms.vms.id1.length === 0) seen.add('no aliases');
      if (!('fxs' in vms)) seen.add('fxs absent');
      const up = (
        v.vary(
          env('', {
            banffTime: '2022-10-18T16:00:00Z',
            heliconTime: '2025-12-01T00:00:00Z',
            apricotPhase4MinPChainHeight: 793005,
          }),
          ['info.upgrades'],
        ) as any
      ).result;
      if (up.heliconTime === '9999-12-01T00:00:00Z') seen.add('unscheduled upgrade');
      expect(up.banffTime).toBe('2022-10-18T16:00:00Z');
      const cc = (
        v.vary(env('', { chainId: 43114, londonBlock: 0 }), ['eth_getChainConfig']) as any
      ).result;
      if ('heliconTimestamp' in cc) seen.add('newer fork');
      expect(cc.chainId).toBe(43114);
      // An unknown method and an error reply are left alone.
      expect(v.vary(env('', { blockchainID: 'abc' }), ['info.getBlockchainID'])).toEqual(
        env('', { blockchainID: 'abc' }),
      );
      const err = { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'x' } };
      expect(v.vary(err, ['avm.getTxFee'])).toEqual(err);
    }
    expect([...seen].sort()).toEqual(
      [
        'boolean flipped',
        'empty set',
        'fxs absent',
        'hex above 2^53',
        'newer fork',
        'no aliases',
        'no peers',
        'numPeers number',
        'old version form',
        'publicIP absent',
        'syncing object',
        'u64 zero',
        'uint64 max',
        'unscheduled upgrade',
      ].sort(),
    );
  });

  it('varies each reply of a batch by its own method', () => {
    const v = new NodeVarier('batch');
    const batch = [env('', '0xa86a'), env('', '0x5d21dba00')];
    const out = v.vary(batch, ['eth_chainId', 'eth_baseFee']) as any[];
    expect(out[0]).toEqual(batch[0]);
    expect(out[1]).toEqual(v.vary(batch[1], ['eth_baseFee']));
  });
});

describe('the simulator with SIM_VARY varies node answers', () => {
  let plain: RunningSimulator;
  let varied: RunningSimulator[];
  beforeAll(async () => {
    plain = await startSimulator({ port: 0, seed: 'nv' });
    varied = await Promise.all(
      ['nv-1', 'nv-2', 'nv-3', 'nv-4'].map((vary) => startSimulator({ port: 0, seed: 'nv', vary })),
    );
  });
  afterAll(async () => {
    await plain.close();
    for (const s of varied) await s.close();
  });
  const call = async (sim: RunningSimulator, path: string, method: string, params: unknown) =>
    (
      (await (
        await fetch(`${sim.nodeUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
      ).json()) as any
    ).result;

  it('some answer differs from the plain one, identities never', async () => {
    let differs = 0;
    for (const sim of varied) {
      for (const [path, method, params] of [
        ['/ext/info', 'info.peers', {}],
        ['/ext/info', 'info.getTxFee', {}],
        ['/ext/info', 'info.acps', {}],
        ['/ext/bc/X', 'avm.getTxFee', {}],
        ['/ext/bc/C/rpc', 'eth_baseFee', []],
      ] as const) {
        const a = await call(plain, path, method, params);
        const b = await call(sim, path, method, params);
        if (JSON.stringify(a) !== JSON.stringify(b)) differs++;
        if (method === 'info.peers' && b.peers.length > 0)
          expect(b.peers.map((p: any) => p.nodeID)).toEqual(a.peers.map((p: any) => p.nodeID));
      }
      expect(await call(sim, '/ext/info', 'info.getNodeID', {})).toEqual(
        await call(plain, '/ext/info', 'info.getNodeID', {}),
      );
      expect(await call(sim, '/ext/bc/C/rpc', 'eth_blockNumber', [])).toEqual(
        await call(plain, '/ext/bc/C/rpc', 'eth_blockNumber', []),
      );
    }
    expect(differs).toBeGreaterThan(4);
  });
});
