import { createHash } from 'node:crypto';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { cb58Encode } from '../../src/upstream/schemas/node-codec.js';
import {
  CChainAdminSetLogLevelDocument,
  CChainIssueAtomicTxDocument,
  NodeAdminAliasesDocument,
  NodeAdminLoadVmsDocument,
  NodeAdminProfilersDocument,
  NodeAdminReadsDocument,
  NodeAdminSetLoggerLevelDocument,
  XChainIssueTxDocument,
} from '../__generated__/graphql.js';
import { codes, createTestGateway, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { simNodeRpc, startTestSimulator } from '../support/sim.js';

/**
 * Node admin reads and mutations and transaction issuing: refused before anything reaches the node without
 * the right bearer token, performed with it, never cached.
 */
const TOKEN = 'test-admin-token-0123456789';
const AUTH = { authorization: `Bearer ${TOKEN}` };
let sim: RunningSimulator;
const redisUrl = await allocateRedisDb();

const nodeRpc = (path: string, method: string, params: unknown = {}) =>
  simNodeRpc(sim.nodeUrl, path, method, params);

/** Signed-tx bytes in the node's hex encoding (0x, bytes, last 4 bytes of their sha256), and their id. */
function signedTx(seed: string): { hex: string; id: string } {
  const body = Buffer.concat([
    Buffer.from('0000000000000000', 'hex'),
    createHash('sha256').update(seed).digest(),
  ]);
  const sum = createHash('sha256').update(body).digest().subarray(-4);
  return {
    hex: `0x${body.toString('hex')}${sum.toString('hex')}`,
    id: cb58Encode(createHash('sha256').update(body).digest()),
  };
}

const xChainId = () => sim.world.primary.mainnet.info.xChainId;

const { gateway } = useSimulator({ adminEnabled: true }, (s) => {
  sim = s;
});

describe('without the right bearer token nothing reaches the node', () => {
  const everything = async (
    gw: ReturnType<typeof createTestGateway>,
    headers: Record<string, string>,
  ) => [
    await gw.exec(NodeAdminReadsDocument, { chain: xChainId() }, headers),
    await gw.exec(NodeAdminSetLoggerLevelDocument, { loggerName: 'C', logLevel: 'DEBUG' }, headers),
    await gw.exec(
      NodeAdminAliasesDocument,
      { endpoint: 'bc/X', endpointAlias: 'x1', chain: 'X', chainAlias: 'x1' },
      headers,
    ),
    await gw.exec(NodeAdminProfilersDocument, {}, headers),
    await gw.exec(NodeAdminLoadVmsDocument, {}, headers),
    await gw.exec(CChainAdminSetLogLevelDocument, { level: 'DEBUG' }, headers),
    await gw.exec(XChainIssueTxDocument, { tx: signedTx('a').hex }, headers),
    await gw.exec(CChainIssueAtomicTxDocument, { tx: signedTx('b').hex }, headers),
  ];

  it('no token: UNAUTHENTICATED; a wrong one: FORBIDDEN; a gateway without ADMIN_TOKEN: FORBIDDEN', async () => {
    const gw = gateway({ env: { ADMIN_TOKEN: TOKEN } });
    for (const [headers, code] of [
      [{}, 'UNAUTHENTICATED'],
      [
        { authorization: `Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}` },
        'UNAUTHENTICATED',
      ],
      [{ authorization: 'Bearer not-the-token' }, 'FORBIDDEN'],
      [{ authorization: `Bearer ${TOKEN}x` }, 'FORBIDDEN'],
    ] as const) {
      for (const r of await everything(gw, headers)) {
        expect(r.errors?.length, JSON.stringify(headers)).toBeGreaterThan(0);
        expect(new Set(codes(r))).toEqual(new Set([code]));
        // the token never appears in an answer
        expect(JSON.stringify(r)).not.toContain(TOKEN);
      }
    }
    await gw.close();
    const disabled = gateway();
    for (const r of await everything(disabled, AUTH))
      expect(new Set(codes(r))).toEqual(new Set(['FORBIDDEN']));
    await disabled.close();
    expect(sim.stats().total).toBe(0);
  });
});

describe('with the token', () => {
  it('admin reads are the node’s answers and are never cached', async () => {
    const gw = gateway({ env: { ADMIN_TOKEN: TOKEN }, redisUrl });
    const r = await gw.exec(NodeAdminReadsDocument, { chain: xChainId(), loggerName: 'X' }, AUTH);
    expect(r.errors).toBeUndefined();
    const [aliases, levels, vm] = await Promise.all([
      nodeRpc('/ext/admin', 'admin.getChainAliases', { chain: xChainId() }),
      nodeRpc('/ext/admin', 'admin.getLoggerLevel', { loggerName: 'X' }),
      nodeRpc('/ext/bc/C/admin', 'admin.getVMConfig'),
    ]);
    const n = r.data!.networkNode!;
    expect(n.admin!.chainAliases).toEqual(aliases.aliases);
    expect(n.admin!.loggerLevels).toEqual(
      Object.entries(levels.loggerLevels).map(([name, l]: [string, any]) => ({ name, ...l })),
    );
    expect(Object.fromEntries(n.cChain.vmConfig!.map((e) => [e.key, JSON.parse(e.value)]))).toEqual(
      vm.config,
    );
    sim.reset();
    await gw.exec(NodeAdminReadsDocument, { chain: xChainId(), loggerName: 'X' }, AUTH);
    expect(sim.stats().byRoute).toMatchObject({
      'node POST /ext/admin': 2,
      'node POST /ext/bc/C/admin': 1,
    });
    await gw.close();
  });

  it('mutations are performed, each reaching the node once', async () => {
    const gw = gateway({ env: { ADMIN_TOKEN: TOKEN } });
    const set = await gw.exec(
      NodeAdminSetLoggerLevelDocument,
      { loggerName: 'P', logLevel: 'DEBUG', displayLevel: 'WARN' },
      AUTH,
    );
    expect(set.errors).toBeUndefined();
    expect(set.data!.nodeAdminSetLoggerLevel).toEqual({
      networkNode: { name: 'default' },
      method: 'admin.setLoggerLevel',
      loggerLevels: [{ name: 'P', logLevel: 'DEBUG', displayLevel: 'WARN' }],
    });
    expect(
      (await nodeRpc('/ext/admin', 'admin.getLoggerLevel', { loggerName: 'P' })).loggerLevels.P,
    ).toEqual({ logLevel: 'DEBUG', displayLevel: 'WARN' });

    const aliases = await gw.exec(
      NodeAdminAliasesDocument,
      { endpoint: '/ext/bc/X', endpointAlias: 'exchange', chain: 'X', chainAlias: 'xchain' },
      AUTH,
    );
    expect(aliases.errors).toBeUndefined();
    expect(
      (await nodeRpc('/ext/admin', 'admin.getChainAliases', { chain: xChainId() })).aliases,
    ).toContain('xchain');
    expect(await nodeRpc('/ext/exchange', 'avm.getHeight')).toHaveProperty('height');

    const profilers = await gw.exec(NodeAdminProfilersDocument, {}, AUTH);
    expect(profilers.errors).toBeUndefined();
    expect(Object.values(profilers.data!).map((p) => p.method)).toEqual([
      'admin.startCPUProfiler',
      'admin.memoryProfile',
      'admin.lockProfile',
      'admin.stopCPUProfiler',
      'admin.startCPUProfiler',
      'admin.stopCPUProfiler',
      'admin.memoryProfile',
      'admin.lockProfile',
    ]);
    const level = await gw.exec(CChainAdminSetLogLevelDocument, { level: 'DEBUG' }, AUTH);
    expect(level.data!.cChainAdminSetLogLevel).toEqual({
      method: 'admin.setLogLevel',
      networkNode: { name: 'default' },
    });
    expect((await nodeRpc('/ext/bc/C/admin', 'admin.getVMConfig')).config['log-level']).toBe(
      'debug',
    );
    const vms = await gw.exec(NodeAdminLoadVmsDocument, {}, AUTH);
    expect(vms.data!.nodeAdminLoadVms).toEqual({
      method: 'admin.loadVMs',
      newVms: [],
      failedVms: [],
    });

    // a state conflict is the node's own error, typed
    const again = await gw.exec(NodeAdminProfilersDocument, {}, AUTH);
    expect(again.errors).toBeUndefined();
    await gw.query('mutation { nodeAdminStartCpuProfiler { method } }', {}, AUTH);
    const conflict = await gw.query('mutation { nodeAdminStartCpuProfiler { method } }', {}, AUTH);
    expect(codes(conflict)).toEqual(['UPSTREAM_ERROR']);
    expect(conflict.errors![0]!.message).toMatch(
      /admin\.startCPUProfiler: cpu profiler already running/,
    );
    await gw.query('mutation { nodeAdminStopCpuProfiler { method } }', {}, AUTH);
    await gw.close();
  });

  it('issuing transactions: the node’s tx id, then the tx is readable through the graph', async () => {
    const gw = gateway({ env: { ADMIN_TOKEN: TOKEN } });
    const x = signedTx('x-chain tx');
    const r = await gw.exec(XChainIssueTxDocument, { tx: x.hex }, AUTH);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    expect(r.data!.xChainIssueTx).toEqual({ txId: x.id, transaction: { txId: x.id, hex: x.hex } });
    expect(sim.stats().byRpcMethod['/ext/bc/X avm.issueTx']).toBe(1);

    const c = signedTx('c-chain atomic tx');
    const a = await gw.exec(CChainIssueAtomicTxDocument, { tx: c.hex }, AUTH);
    expect(a.errors).toBeUndefined();
    expect(a.data!.cChainIssueAtomicTx).toEqual({
      txId: c.id,
      atomicTransaction: { txId: c.id, status: 'Processing' },
    });
    await gw.close();
  });

  it('side-effecting calls are sent once: a failure is not retried', async () => {
    const gw = gateway({ env: { ADMIN_TOKEN: TOKEN, UPSTREAM_RETRIES: '2' } });
    sim.addFault({ route: 'node POST /ext/bc/X', status: 503, count: 5 });
    const r = await gw.exec(XChainIssueTxDocument, { tx: signedTx('retry?').hex }, AUTH);
    sim.clearFaults();
    expect(codes(r)).toEqual(['UPSTREAM_UNAVAILABLE']);
    expect(sim.stats().byRoute['node POST /ext/bc/X']).toBe(1);
    await gw.close();
  });

  it('bad arguments are BAD_USER_INPUT naming the argument, before any upstream call', async () => {
    const gw = gateway({ env: { ADMIN_TOKEN: TOKEN } });
    const bad = signedTx('checksum').hex.replace(/.$/, (d) => (d === '0' ? '1' : '0'));
    const cases: [
      Promise<{ errors?: readonly { extensions?: Record<string, unknown> }[] }>,
      string,
    ][] = [
      [gw.exec(XChainIssueTxDocument, { tx: bad }, AUTH), 'tx'],
      [gw.exec(CChainIssueAtomicTxDocument, { tx: 'deadbeef' }, AUTH), 'tx'],
      [gw.exec(NodeAdminSetLoggerLevelDocument, { loggerName: 'C' }, AUTH), 'logLevel'],
      [
        gw.exec(
          NodeAdminAliasesDocument,
          { endpoint: 'bc/X', endpointAlias: 'a'.repeat(513), chain: 'X', chainAlias: 'ok' },
          AUTH,
        ),
        'alias',
      ],
      [gw.query('{ networkNode { admin { chainAliases(chain: "X") } } }', {}, AUTH), 'chain'],
      [gw.exec(NodeAdminLoadVmsDocument, { node: 'elsewhere' }, AUTH), 'node'],
    ];
    for (const [p, argument] of cases) {
      const r = await p;
      expect(r.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument });
    }
    expect(sim.stats().byRoute['node POST /ext/admin'] ?? 0).toBe(0);
    expect(sim.stats().byRoute['node POST /ext/bc/X'] ?? 0).toBe(0);
    expect(sim.stats().byRoute['node POST /ext/bc/C/avax'] ?? 0).toBe(0);
    await gw.close();
  });
});

describe('a node without its admin API', () => {
  it('gives a typed NODE_METHOD_UNAVAILABLE error for admin methods', async () => {
    const plain = await startTestSimulator(); // admin API not enabled: the routes answer 404
    try {
      const gw = createTestGateway(plain, { env: { ADMIN_TOKEN: TOKEN } });
      const r = await gw.exec(NodeAdminSetLoggerLevelDocument, { logLevel: 'INFO' }, AUTH);
      expect(codes(r)).toEqual(['UPSTREAM_ERROR']);
      expect(r.errors![0]!.extensions).toMatchObject({
        reason: 'NODE_METHOD_UNAVAILABLE',
        upstream: 'node',
      });
      expect(r.errors![0]!.message).toMatch(/does not serve admin\.setLoggerLevel/);
      const reads = await gw.exec(
        NodeAdminReadsDocument,
        { chain: plain.world.primary.mainnet.info.xChainId },
        AUTH,
      );
      expect(codes(reads)).toEqual(['UPSTREAM_ERROR', 'UPSTREAM_ERROR', 'UPSTREAM_ERROR']);
      await gw.close();
    } finally {
      await plain.close();
    }
  });
});
