import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { NodePeersDocument } from '../__generated__/graphql.js';
import { codes, createTestGateway, useSimAndGateway } from '../support/gateway.js';
import { simNodeRpc } from '../support/sim.js';

/** Issue 11, defect 8: the smaller ones. */
// The gateway's clock, moved past a TTL instead of waiting for it.
let clock = Date.now();
const now = () => clock;
let sim: RunningSimulator;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, _gw, r) => {
  sim = s;
  redisUrl = r;
});

describe('peers', () => {
  it('paging neither repeats nor skips a peer when the node answers its list in another order', async () => {
    const gw = createTestGateway(sim, {
      redisUrl,
      now,
      ttlOverrides: { head: 50 },
      staleOverrides: { head: { swr: 0, ifError: 0 } },
    });
    const answer = await simNodeRpc(sim.nodeUrl, '/ext/info', 'info.peers', { nodeIDs: [] });
    const all = (answer.peers as { nodeID: string }[]).map((p) => p.nodeID);
    expect(all.length).toBeGreaterThan(60);
    const page1 = await gw.exec(NodePeersDocument, { first: 30 });
    expect(page1.errors).toBeUndefined();
    clock += 100; // the node's list is read again for the next page, now in another order
    const reversed = {
      jsonrpc: '2.0',
      id: 1,
      result: { ...answer, peers: [...answer.peers].reverse() },
    };
    sim.addFault({ route: 'node POST /ext/info', status: 200, body: reversed, count: 1 });
    const page2 = await gw.exec(NodePeersDocument, {
      first: 30,
      after: page1.data!.networkNode!.peers!.pageInfo.endCursor,
    });
    expect(page2.errors).toBeUndefined();
    const seen = [
      ...page1.data!.networkNode!.peers!.edges,
      ...page2.data!.networkNode!.peers!.edges,
    ].map((e) => e.node.nodeId);
    expect(new Set(seen).size).toBe(60);
    expect(seen).toEqual([...all].sort().slice(0, 60));
    await gw.close();
  });
});

describe('upstream bodies', () => {
  it('an answer larger than UPSTREAM_MAX_BODY_BYTES is UPSTREAM_ERROR, read no further', async () => {
    const gw = createTestGateway(sim, { redisUrl, env: { UPSTREAM_MAX_BODY_BYTES: '4096' } });
    const huge = {
      chainId: '43114',
      status: 'OK',
      chainName: 'x'.repeat(100_000),
      description: 'd',
    };
    sim.addFault({ route: 'data-api GET /v1/chains/:chainId', status: 200, body: huge, count: 1 });
    const r = await gw.query('{ chain(id: "43114") { name } }');
    expect(codes(r)).toEqual(['UPSTREAM_ERROR']);
    expect(r.errors![0]!.message).toMatch(/larger than 4096 bytes/);
    const ok = await gw.query('{ chain(id: "43114") { name } }');
    expect(ok.errors).toBeUndefined();
    await gw.close();
  });
});

describe('block(chainId: <blockchain id>)', () => {
  it('is the same block as by EVM chain id: same chainId, same global id, one cache entry', async () => {
    const gw = createTestGateway(sim, { redisUrl });
    const info = await (await fetch(`${sim.dataApiUrl}/v1/chains/43114`)).json();
    const blockchainId = info.platformChainId as string;
    const head = (await (await fetch(`${sim.dataApiUrl}/v1/chains/43114/blocks?pageSize=1`)).json())
      .blocks[0];
    const number = String(Number(head.blockNumber) - 5);
    const raw = await (await fetch(`${sim.dataApiUrl}/v1/chains/43114/blocks/${number}`)).json();
    // The block answer without its chainId (seen on the real API; the contract tolerates it).
    const { chainId: _omitted, ...withoutChain } = raw;
    sim.reset();
    sim.addFault({
      route: 'data-api GET /v1/chains/:chainId/blocks/:blockId',
      status: 200,
      body: withoutChain,
    });
    const q = (chainId: string) =>
      `{ block(chainId: "${chainId}", id: "${number}") { id chainId number } }`;
    const byBlockchain = await gw.query(q(blockchainId));
    expect(byBlockchain.errors).toBeUndefined();
    const byEvm = await gw.query(q('43114'));
    expect(byBlockchain.data).toEqual(byEvm.data);
    expect(byEvm.data!.block).toMatchObject({ chainId: '43114', number });
    expect(sim.stats().byRoute['data-api GET /v1/chains/:chainId/blocks/:blockId']).toBe(1);
    sim.clearFaults();
    await gw.close();
  });
});
