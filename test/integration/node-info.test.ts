import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  NetworkNodeByIdDocument,
  NetworkNodesDocument,
  NodeInfoDocument,
  NodePeersDocument,
  type NodePeersQuery,
  NodeTenInfoFieldsDocument,
  NodeValidatorLinksDocument,
} from '../__generated__/graphql.js';
import { codes, createTestGateway, useSimulator } from '../support/gateway.js';
import { allocateRedisDb } from '../support/redis-db.js';
import { flushRedisDb, simGet, simNodeRpc, startTestSimulator } from '../support/sim.js';

/** The node's info API through the gateway, compared with the simulator's own answers. */
let sim: RunningSimulator;
const redisUrl = await allocateRedisDb();

const nodeRpc = (path: string, method: string, params: unknown = {}) =>
  simNodeRpc(sim.nodeUrl, path, method, params);

const flush = async () => {
  await flushRedisDb(redisUrl);
};

const { gateway } = useSimulator({}, (s) => {
  sim = s;
});
beforeEach(async () => {
  await flush();
});

describe('networkNode: the info API', () => {
  it('every field is the node’s own answer; numbers the node sends as strings stay exact', async () => {
    const gw = gateway({ redisUrl });
    const r = await gw.exec(NodeInfoDocument, { chain: 'X', alias: 'P' });
    expect(r.errors).toBeUndefined();
    const n = r.data!.networkNode!;
    const [
      id,
      ip,
      version,
      networkId,
      networkName,
      boot,
      chainId,
      upgrades,
      acps,
      vms,
      uptime,
      fee,
    ] = await Promise.all([
      nodeRpc('/ext/info', 'info.getNodeID'),
      nodeRpc('/ext/info', 'info.getNodeIP'),
      nodeRpc('/ext/info', 'info.getNodeVersion'),
      nodeRpc('/ext/info', 'info.getNetworkID'),
      nodeRpc('/ext/info', 'info.getNetworkName'),
      nodeRpc('/ext/info', 'info.isBootstrapped', { chain: 'X' }),
      nodeRpc('/ext/info', 'info.getBlockchainID', { alias: 'P' }),
      nodeRpc('/ext/info', 'info.upgrades'),
      nodeRpc('/ext/info', 'info.acps'),
      nodeRpc('/ext/info', 'info.getVMs'),
      nodeRpc('/ext/info', 'info.uptime'),
      nodeRpc('/ext/info', 'info.getTxFee'),
    ]);
    expect(n).toMatchObject({
      name: 'default',
      isDefault: true,
      nodeId: id.nodeID,
      proofOfPossession: id.nodePOP,
      ip: ip.ip,
    });
    expect(n.version).toEqual({
      version: version.version,
      databaseVersion: version.databaseVersion,
      gitCommit: version.gitCommit,
      rpcProtocolVersion: Number(version.rpcProtocolVersion),
      vmVersions: Object.entries(version.vmVersions).map(([vm, v]) => ({ vm, version: v })),
    });
    expect(n.networkId).toBe(Number(networkId.networkID));
    expect(n.networkName).toBe(networkName.networkName);
    expect(n.isBootstrapped).toBe(boot.isBootstrapped);
    expect(n.blockchainId).toBe(chainId.blockchainID);
    expect(n.upgrades).toMatchObject({
      apricotPhase1Time: upgrades.apricotPhase1Time,
      apricotPhase4MinPChainHeight: String(upgrades.apricotPhase4MinPChainHeight),
      cortinaXChainStopVertexId: upgrades.cortinaXChainStopVertexID,
      durangoTime: upgrades.durangoTime,
      heliconTime: upgrades.heliconTime,
    });
    const times = Object.entries(upgrades).filter(([k]) => k.endsWith('Time'));
    expect(n.upgrades!.schedule).toEqual(
      times.map(([k, time]) => ({ name: k.slice(0, -4), time })),
    );
    expect(n.acps).toEqual(
      Object.entries(acps.acps).map(([acp, p]: [string, any]) => ({ acp: Number(acp), ...p })),
    );
    expect(n.vms).toEqual(
      Object.entries(vms.vms).map(([vmId, aliases]) => ({ id: vmId, aliases })),
    );
    expect(n.featureExtensions).toEqual(
      Object.entries(vms.fxs).map(([fxId, name]) => ({ id: fxId, name })),
    );
    // float64 percentages and uint64 fees arrive as strings: passed on exactly as printed
    expect(n.uptime).toEqual({
      rewardingStakePercentage: uptime.rewardingStakePercentage,
      weightedAveragePercentage: uptime.weightedAveragePercentage,
    });
    expect(n.txFee).toEqual(fee);
    await gw.close();
  });

  it('ten info fields: one request per distinct method, all in flight at once, none when warm', async () => {
    const latencyMs = 300;
    const slow = await startTestSimulator({ latencyMs });
    try {
      const gw = createTestGateway(slow, { redisUrl });
      await gw.ready();
      await gw.exec(NetworkNodesDocument, {}); // schema and server warm, no upstream call
      const started = performance.now();
      const cold = await gw.exec(NodeTenInfoFieldsDocument, {});
      const elapsed = performance.now() - started;
      expect(cold.errors).toBeUndefined();
      const methods = slow.stats().byRpcMethod;
      expect(Object.keys(methods).sort()).toEqual(
        [
          'acps',
          'getBlockchainID',
          'getNetworkID',
          'getNetworkName',
          'getNodeID',
          'getNodeIP',
          'getNodeVersion',
          'isBootstrapped',
          'upgrades',
          'uptime',
        ].map((m) => `/ext/info info.${m}`),
      );
      expect(Object.values(methods).every((c) => c === 1)).toBe(true);
      expect(slow.stats().byRoute['node POST /ext/info']).toBe(10);
      // One after the other, ten calls would take at least ten latencies; all in flight at once, about one
      // (the bound leaves room for a loaded machine, still far below sequential).
      expect(elapsed).toBeGreaterThanOrEqual(latencyMs);
      expect(elapsed).toBeLessThan(latencyMs * 4);
      console.info(
        `ten info fields, cold: ${elapsed.toFixed(0)} ms with the node at ${latencyMs} ms per call (sequential: >= ${latencyMs * 10} ms)`,
      );

      await gw.settled(); // cache writes land
      slow.reset();
      const warmStart = performance.now();
      const warm = await gw.exec(NodeTenInfoFieldsDocument, {});
      expect(warm.data).toEqual(cold.data);
      expect(slow.stats().total).toBe(0);
      console.info(
        `ten info fields, warm: ${(performance.now() - warmStart).toFixed(0)} ms, 0 upstream calls`,
      );
      await gw.close();

      // Another gateway process sharing Redis answers from it too.
      const other = createTestGateway(slow, { redisUrl });
      await other.ready();
      expect((await other.exec(NodeTenInfoFieldsDocument, {})).data).toEqual(cold.data);
      expect(slow.stats().total).toBe(0);
      await other.close();
    } finally {
      await slow.close();
    }
  });

  it('peers: a connection over the node’s list, filtered by node ids, each peer linked to its validator records', async () => {
    const gw = gateway({ redisUrl });
    const all = ((await nodeRpc('/ext/info', 'info.peers', { nodeIDs: [] })).peers as any[]).sort(
      (a, b) => (a.nodeID < b.nodeID ? -1 : 1),
    ); // paged in node id order
    expect(all.length).toBeGreaterThan(60);
    sim.reset();
    const seen: any[] = [];
    let after: string | null = null;
    let firstEnd: string | null = null;
    for (;;) {
      const r: { data?: NodePeersQuery | null; errors?: unknown } = await gw.exec(
        NodePeersDocument,
        { first: 50, after },
      );
      expect(r.errors).toBeUndefined();
      const conn = r.data!.networkNode!.peers!;
      expect(conn.totalCount).toBe(all.length);
      seen.push(...conn.edges.map((e) => e.node));
      firstEnd ??= conn.pageInfo.endCursor;
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor!;
    }
    expect(seen.map((p) => p.nodeId)).toEqual(all.map((p) => p.nodeID));
    expect(seen[0]).toEqual({
      nodeId: all[0].nodeID,
      ip: all[0].ip,
      publicIp: all[0].publicIP,
      version: all[0].version,
      lastSent: all[0].lastSent,
      lastReceived: all[0].lastReceived,
      observedUptime: Number(all[0].observedUptime),
      trackedSubnets: all[0].trackedSubnets,
      supportedAcps: all[0].supportedACPs,
      objectedAcps: all[0].objectedACPs,
      benched: all[0].benched,
      connectedTo: { name: 'default' },
    });
    // the whole walk read the node's list once (head data, cached about one block time)
    expect(sim.stats().byRpcMethod['/ext/info info.peers']).toBe(1);

    const picked = [all[3].nodeID, all[7].nodeID];
    const filtered = await gw.exec(NodePeersDocument, { nodeIds: picked, first: 10 });
    expect(filtered.data!.networkNode!.peers!.edges.map((e) => e.node.nodeId).sort()).toEqual(
      [...picked].sort(),
    );
    // a cursor of the unfiltered list is refused for the filtered one
    const wrong = await gw.exec(NodePeersDocument, { nodeIds: picked, first: 1, after: firstEnd });
    expect(codes(wrong)).toEqual(['BAD_USER_INPUT']);
    await gw.close();
  });

  it('the node and its peers link to their validator records, and a record links back to the configured node', async () => {
    const gw = gateway({ redisUrl });
    const peerId = (await nodeRpc('/ext/info', 'info.peers', { nodeIDs: [] })).peers[0].nodeID;
    const r = await gw.exec(NodeValidatorLinksDocument, { peerIds: [peerId] });
    expect(r.errors).toBeUndefined();
    const n = r.data!.networkNode!;
    expect(n.network).toEqual({ name: 'mainnet' });
    const own = (
      await simGet(sim.dataApiUrl, `/v1/networks/mainnet/validators/${n.nodeId}`, { pageSize: 100 })
    ).validators;
    expect(own.length).toBeGreaterThan(0);
    expect(n.validators!.edges.map((e) => e.node.txHash)).toEqual(
      own.slice(0, 20).map((v: any) => v.txHash),
    );
    for (const { node: v } of n.validators!.edges)
      expect(v).toMatchObject({ nodeId: n.nodeId, networkNode: { name: 'default' } });

    const peer = n.peers!.edges[0]!.node;
    const theirs = (
      await simGet(sim.dataApiUrl, `/v1/networks/mainnet/validators/${peerId}`, { pageSize: 100 })
    ).validators;
    expect(peer.validators!.edges.map((e) => e.node.txHash)).toEqual(
      theirs.slice(0, 5).map((v: any) => v.txHash),
    );
    // another node's record is not the configured node
    for (const { node: v } of peer.validators!.edges) expect(v.networkNode).toBeNull();
    await gw.close();
  });

  it('bad node ids are BAD_USER_INPUT before any upstream call', async () => {
    const gw = gateway();
    const r = await gw.exec(NodePeersDocument, { nodeIds: ['NodeID-notachecksum'], first: 5 });
    expect(codes(r)).toEqual(['BAD_USER_INPUT']);
    expect(r.errors![0]!.extensions).toMatchObject({ argument: 'nodeIds' });
    const u = await gw.query(
      '{ networkNode { uptime(subnetId: "zzz") { weightedAveragePercentage } isBootstrapped(chain: "no such chain!") } }',
    );
    expect(codes(u).sort()).toEqual(['BAD_USER_INPUT', 'BAD_USER_INPUT']);
    expect(sim.stats().total).toBe(0);
    await gw.close();
  });
});

describe('configured nodes: chosen by name, never by URL', () => {
  it('lists the configured nodes, the first as default; each is a Relay node by name; an unknown name is refused', async () => {
    const gw = gateway({
      env: { NODE_RPC_URL: `main=${sim.nodeUrl},backup=${sim.nodeUrl}` },
    });
    const list = await gw.exec(NetworkNodesDocument, {});
    expect(list.data!.networkNodes.map((n) => [n.name, n.isDefault])).toEqual([
      ['main', true],
      ['backup', false],
    ]);
    const byId = await gw.exec(NetworkNodeByIdDocument, { id: list.data!.networkNodes[1]!.id });
    expect(byId.data!.node).toMatchObject({ name: 'backup', networkName: 'mainnet' });

    // the same method on two nodes is two cache entries: both reach their node
    const a = await gw.exec(NodeTenInfoFieldsDocument, { name: 'main' });
    const b = await gw.exec(NodeTenInfoFieldsDocument, { name: 'backup' });
    expect(b.data).toEqual(a.data);
    expect(sim.stats().byRpcMethod['/ext/info info.getNodeVersion']).toBe(2);

    sim.reset();
    const unknown = await gw.exec(NodeTenInfoFieldsDocument, { name: 'http://evil.example' });
    expect(codes(unknown)).toEqual(['BAD_USER_INPUT']);
    expect(unknown.errors![0]!.message).toMatch(/configured: main, backup/);
    expect(sim.stats().total).toBe(0);
    await gw.close();
  });

  it('a public node refusing node-specific methods gives a typed error; the other fields still answer', async () => {
    const gw = gateway();
    // What a public API node answers for info.getNodeID (the method is not exposed there).
    sim.addFault({
      route: 'node POST /ext/info',
      count: 1,
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32601,
          message: 'the method info.getNodeID does not exist/is not available',
        },
      },
    });
    const r = await gw.query('{ networkNode { nodeId } }');
    expect(r.data).toEqual({ networkNode: { nodeId: null } });
    expect(codes(r)).toEqual(['UPSTREAM_ERROR']);
    expect(r.errors![0]!.extensions).toMatchObject({
      reason: 'NODE_METHOD_UNAVAILABLE',
      upstream: 'node',
      rpcCode: -32601,
    });
    expect(r.errors![0]!.message).toMatch(
      /does not serve info\.getNodeID.*does not exist\/is not available/,
    );
    const ok = await gw.query('{ networkNode { networkName } }');
    expect(ok.data).toEqual({ networkNode: { networkName: 'mainnet' } });
    await gw.close();
  });
});
