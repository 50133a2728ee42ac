import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { codes, createTestGateway, useSimAndGateway } from '../support/gateway.js';

/** A response that turned an upstream failure into null is never stored (DESIGN "What correct means"). */
let sim: RunningSimulator;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, _gw, r) => {
  sim = s;
  redisUrl = r;
});

describe('Validator.networkNode', () => {
  it('a failing node is an error, not a null the whole-response cache keeps', async () => {
    const gw = createTestGateway(sim, {
      redisUrl,
      env: { RESPONSE_CACHE_MAX_TTL_MS: '60000', UPSTREAM_RETRIES: '0' },
    });
    await gw.ready();
    const q = `{ network(name: "mainnet") { validators(nodeId: "${sim.world.selfNodeId}", first: 1) { edges { node { nodeId networkNode { name } } } } } }`;
    sim.addFault({ route: 'node POST /ext/info', status: 503 });
    const down = await gw.query(q);
    expect(codes(down)).toContain('UPSTREAM_UNAVAILABLE');
    expect(down.data!.network.validators.edges[0].node.networkNode).toBeNull();
    sim.clearFaults();
    sim.reset();
    const up = await gw.query(q);
    expect(up.errors).toBeUndefined();
    expect(up.data!.network.validators.edges[0].node).toEqual({
      nodeId: sim.world.selfNodeId,
      networkNode: { name: 'default' },
    });
    expect(sim.stats().byRoute['node POST /ext/info'] ?? 0).toBeGreaterThan(0);
    await gw.close();
  });

  it('a node that is genuinely another node is null without an error', async () => {
    const gw = createTestGateway(sim, { redisUrl });
    const otherId = sim.world.primary.mainnet.validators.find(
      (v) => v.nodeId !== sim.world.selfNodeId,
    )!.nodeId;
    const other = await gw.query(
      `{ network(name: "mainnet") { validators(nodeId: "${otherId}", first: 5) { edges { node { nodeId networkNode { name } } } } } }`,
    );
    expect(other.errors, JSON.stringify(other.errors)).toBeUndefined();
    const nodes = other.data!.network.validators.edges.map((e: any) => e.node);
    expect(nodes.length).toBeGreaterThan(0);
    for (const n of nodes)
      expect(n.networkNode).toEqual(n.nodeId === sim.world.selfNodeId ? { name: 'default' } : null);
    await gw.close();
  });
});
