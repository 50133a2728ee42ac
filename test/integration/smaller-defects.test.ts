import { describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/sim/index.js';
import { NodePeersDocument } from '../__generated__/graphql.js';
import { createTestGateway, useSimAndGateway } from '../support/gateway.js';
import { simNodeRpc } from '../support/sim.js';

/** Issue 11, defect 8: the smaller ones. */
let sim: RunningSimulator;
let redisUrl: string;
useSimAndGateway({ db: 58 }, (s, _gw, r) => {
  sim = s;
  redisUrl = r;
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('peers', () => {
  it('paging neither repeats nor skips a peer when the node answers its list in another order', async () => {
    const gw = createTestGateway(sim, { redisUrl, ttlOverrides: { head: 50 }, staleOverrides: { head: { swr: 0, ifError: 0 } } });
    const answer = await simNodeRpc(sim.nodeUrl, '/ext/info', 'info.peers', { nodeIDs: [] });
    const all = (answer.peers as { nodeID: string }[]).map((p) => p.nodeID);
    expect(all.length).toBeGreaterThan(60);
    const page1 = await gw.exec(NodePeersDocument, { first: 30 });
    expect(page1.errors).toBeUndefined();
    await sleep(100); // the node's list is read again for the next page, now in another order
    const reversed = { jsonrpc: '2.0', id: 1, result: { ...answer, peers: [...answer.peers].reverse() } };
    sim.addFault({ route: 'node POST /ext/info', status: 200, body: reversed, count: 1 });
    const page2 = await gw.exec(NodePeersDocument, { first: 30, after: page1.data!.networkNode!.peers!.pageInfo.endCursor });
    expect(page2.errors).toBeUndefined();
    const seen = [...page1.data!.networkNode!.peers!.edges, ...page2.data!.networkNode!.peers!.edges].map((e) => e.node.nodeId);
    expect(new Set(seen).size).toBe(60);
    expect(seen).toEqual([...all].sort().slice(0, 60));
    await gw.close();
  });
});
