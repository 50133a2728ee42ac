import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import {
  expectBadInput,
  routeCalls,
  settle,
  upstreamGet,
  upstreamWalk,
  walk,
} from './primary-support.js';

/**
 * Network.validators (listValidators, every filter), Network.delegators, pending and historical rewards
 * and Network.details: each list walked across several upstream pages equals the upstream's own
 * sequence; filters reach the upstream under the spec's names (the simulator refuses any other name or
 * a repeated parameter); bad filters are refused before any call; nested links cost 1 + distinct.
 */
const LIST = 'data-api GET /v1/networks/:network/validators';
const TX = 'data-api GET /v1/networks/:network/blockchains/:blockchainId/transactions/:txHash';

let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const base = () => sim.dataApiUrl;

async function conn(
  field: string,
  args: string,
  after: string | null,
  first: number,
  sel = 'txHash',
) {
  const a = [args, `first: ${first}`, after ? `after: "${after}"` : ''].filter(Boolean).join(', ');
  const r = await gw.query(
    `{ network(name: "mainnet") { ${field}(${a}) { edges { node { ${sel} } } pageInfo { hasNextPage endCursor } } } }`,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.network[field];
}

describe('Network.validators over listValidators', () => {
  it('walks several upstream pages in the upstream’s own order, with sortBy/sortOrder and uptime bounds', async () => {
    const args = 'sortBy: DELEGATION_CAPACITY, sortOrder: ASC, minUptimePerformance: 0';
    const edges = await walk((after) => conn('validators', args, after, 70));
    const expected = await upstreamWalk(base(), '/v1/networks/mainnet/validators', 'validators', {
      sortBy: 'delegationCapacity',
      sortOrder: 'asc',
      minUptimePerformance: 0,
    });
    expect(expected.length).toBeGreaterThan(200);
    expect(edges.map((e: any) => e.node.txHash)).toEqual(expected.map((v) => v.txHash));
  });

  it('sends every filter under its spec name and format (the simulator refuses any other)', async () => {
    const net = sim.world.primary.mainnet;
    const nodes = [...new Set(net.validators.map((v) => v.nodeId))].slice(0, 40);
    sim.reset();
    const args = [
      `nodeIds: ${JSON.stringify(nodes)}`,
      'sortBy: TIME_REMAINING',
      'sortOrder: DESC',
      'validationStatus: ACTIVE',
      'minDelegationCapacity: "0"',
      'maxDelegationCapacity: "720000000000000000"',
      'minTimeRemaining: 0',
      'maxTimeRemaining: 2147483647',
      'minFeePercentage: 2',
      'maxFeePercentage: 15.5',
      'minUptimePerformance: 50.5',
      'maxUptimePerformance: 100',
      `subnetId: "${net.info.primarySubnetId}"`,
    ].join(', ');
    const edges = await walk((after) =>
      conn('validators', args, after, 100, 'txHash nodeId delegationFee validationStatus'),
    );
    expect(routeCalls(sim)).toEqual({ [LIST]: 1 });
    const expected = await upstreamWalk(base(), '/v1/networks/mainnet/validators', 'validators', {
      nodeIds: [...nodes].sort().join(','),
      sortBy: 'timeRemaining',
      sortOrder: 'desc',
      validationStatus: 'active',
      minDelegationCapacity: '0',
      maxDelegationCapacity: '720000000000000000',
      minTimeRemaining: 0,
      maxTimeRemaining: 2147483647,
      minFeePercentage: 2,
      maxFeePercentage: 15.5,
      minUptimePerformance: 50.5,
      maxUptimePerformance: 100,
      subnetId: net.info.primarySubnetId,
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(edges.map((e: any) => e.node.txHash)).toEqual(expected.map((v) => v.txHash));
    for (const e of edges as any[]) {
      expect(nodes).toContain(e.node.nodeId);
      expect(Number(e.node.delegationFee)).toBeLessThanOrEqual(15.5);
      expect(e.node.validationStatus).toBe('ACTIVE');
    }
  });

  it('still serves one node’s periods with nodeId (getSingleValidatorDetails)', async () => {
    const edges = await walk((after) =>
      conn('validators', `nodeId: "${sim.world.selfNodeId}"`, after, 5),
    );
    const expected = await upstreamWalk(
      base(),
      `/v1/networks/mainnet/validators/${sim.world.selfNodeId}`,
      'validators',
    );
    expect(edges.map((e: any) => e.node.txHash)).toEqual(expected.map((v) => v.txHash));
  });

  it.each([
    ['minFeePercentage: 20, maxFeePercentage: 10', 'maxFeePercentage'],
    ['minFeePercentage: 1', 'minFeePercentage'],
    ['maxUptimePerformance: 100.5', 'maxUptimePerformance'],
    ['minUptimePerformance: 90, maxUptimePerformance: 80', 'maxUptimePerformance'],
    ['minTimeRemaining: -1', 'minTimeRemaining'],
    ['minTimeRemaining: 100, maxTimeRemaining: 10', 'maxTimeRemaining'],
    ['minDelegationCapacity: "12abc"', 'minDelegationCapacity'],
    ['maxDelegationCapacity: "720000000000000001"', 'maxDelegationCapacity'],
    ['minDelegationCapacity: "5", maxDelegationCapacity: "4"', 'maxDelegationCapacity'],
    ['nodeIds: ["NodeID-notanode"]', 'nodeIds'],
    ['subnetId: "not-a-subnet"', 'subnetId'],
    [`nodeId: "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg", sortBy: DELEGATION_FEE`, 'sortBy'],
  ])('refuses %s before any upstream call', async (args, argument) => {
    sim.reset();
    const r = await gw.query(
      `{ network(name: "mainnet") { validators(${args}, first: 5) { edges { node { txHash } } } } }`,
    );
    expectBadInput(r, argument);
    expect(sim.stats().total).toBe(0);
  });

  it('20 validators with their staking transactions: 1 + 20 calls cold, 0 warm', async () => {
    const q = `{ network(name: "mainnet") { validators(first: 20, sortBy: UPTIME_PERFORMANCE) {
      edges { node { txHash stakingTransaction { txHash nodeId } } } } } }`;
    sim.reset();
    const cold = await gw.query(q);
    expect(cold.errors).toBeUndefined();
    const edges = cold.data!.network.validators.edges;
    expect(edges).toHaveLength(20);
    for (const e of edges) expect(e.node.stakingTransaction.txHash).toBe(e.node.txHash);
    expect(routeCalls(sim)).toEqual({ [LIST]: 1, [TX]: 20 });
    await settle(gw);
    sim.reset();
    const warm = await gw.query(q);
    expect(warm.data).toEqual(cold.data);
    expect(sim.stats().total).toBe(0);
  });
});

describe('Network.delegators, rewards and details', () => {
  it('delegators walk several pages equal to listDelegators, filters by spec name', async () => {
    const edges = await walk((after) => conn('delegators', 'sortOrder: ASC', after, 80));
    const expected = await upstreamWalk(base(), '/v1/networks/mainnet/delegators', 'delegators', {
      sortOrder: 'asc',
    });
    expect(expected.length).toBeGreaterThan(200);
    expect(edges.map((e: any) => e.node.txHash)).toEqual(expected.map((d) => d.txHash));
    const addr = expected[0].rewardAddresses[0];
    const node = expected[0].nodeId;
    const args = `nodeIds: ["${node}"], rewardAddresses: ["P-${addr}"], delegationStatus: ${expected[0].delegationStatus.toUpperCase()}`;
    const filtered = await walk((after) => conn('delegators', args, after, 10));
    const want = await upstreamWalk(base(), '/v1/networks/mainnet/delegators', 'delegators', {
      nodeIds: node,
      rewardAddresses: addr,
      delegationStatus: expected[0].delegationStatus,
    });
    expect(want.length).toBeGreaterThan(0);
    expect(filtered.map((e: any) => e.node.txHash)).toEqual(want.map((d) => d.txHash));
  });

  it('20 delegators with validator and staking transaction: 1 + distinct nodes + 20, 0 warm', async () => {
    const q = `{ network(name: "mainnet") { delegators(first: 20, delegationStatus: ACTIVE) { edges { node {
      __typename txHash nodeId ... on ActiveDelegator { estimatedNetReward }
      validator { nodeId startTimestamp endTimestamp } stakingTransaction { txHash txType } } } } } }`;
    sim.reset();
    const cold = await gw.query(q);
    expect(cold.errors).toBeUndefined();
    const edges = cold.data!.network.delegators.edges.map((e: any) => e.node);
    expect(edges).toHaveLength(20);
    const nodes = new Set(edges.map((d: any) => d.nodeId));
    for (const d of edges) {
      expect(d.__typename).toBe('ActiveDelegator');
      expect(d.validator.nodeId).toBe(d.nodeId);
      expect(d.stakingTransaction.txHash).toBe(d.txHash);
      expect(d.stakingTransaction.txType).toMatch(/Delegator/);
    }
    expect(routeCalls(sim)).toEqual({
      'data-api GET /v1/networks/:network/delegators': 1,
      'data-api GET /v1/networks/:network/validators/:nodeId': nodes.size,
      [TX]: 20,
    });
    await settle(gw);
    sim.reset();
    expect((await gw.query(q)).data).toEqual(cold.data);
    expect(sim.stats().total).toBe(0);
  });

  it('pending and historical rewards walk several pages equal to the upstream, linked to their stake', async () => {
    const nodes = [...new Set(sim.world.primary.mainnet.validators.map((v) => v.nodeId))].slice(
      0,
      64,
    );
    const list = JSON.stringify(nodes);
    const nodeIds = [...nodes].sort().join(',');
    for (const [field, path, key] of [
      ['pendingRewards', '/v1/networks/mainnet/rewards:listPending', 'pendingRewards'],
      ['historicalRewards', '/v1/networks/mainnet/rewards', 'historicalRewards'],
    ] as const) {
      const edges = await walk((after) =>
        conn(field, `nodeIds: ${list}, sortOrder: ASC`, after, 60, 'txHash rewardType'),
      );
      const expected = await upstreamWalk(base(), path, key, { nodeIds, sortOrder: 'asc' });
      expect(expected.length, field).toBeGreaterThan(100);
      expect(edges.map((e: any) => e.node.txHash)).toEqual(expected.map((r) => r.txHash));
    }
    const q = `{ network(name: "mainnet") { historicalRewards(nodeIds: ${list}, first: 5, currency: EUR) { edges { node {
      txHash nodeId rewardType historicalPrice { currencyCode } validator { nodeId } stakingTransaction { txHash } } } } } }`;
    const r = await gw.query(q);
    expect(r.errors).toBeUndefined();
    for (const { node } of r.data!.network.historicalRewards.edges) {
      expect(node.stakingTransaction.txHash).toBe(node.txHash);
      expect(node.validator.nodeId).toBe(node.nodeId);
      expect(node.historicalPrice?.currencyCode ?? 'EUR').toBe('EUR');
    }
  });

  it.each([
    ['delegators(nodeIds: ["NodeID-x"], first: 1)', 'nodeIds'],
    ['delegators(rewardAddresses: ["fuji1abc"], first: 1)', 'rewardAddresses'],
    ['pendingRewards(first: 1)', 'addresses'],
    ['historicalRewards(addresses: [], nodeIds: [], first: 1)', 'addresses'],
    ['historicalRewards(addresses: ["avax1notanaddress"], first: 1)', 'addresses'],
  ])('refuses %s before any upstream call', async (field, argument) => {
    sim.reset();
    const r = await gw.query(`{ network(name: "mainnet") { ${field} { edges { cursor } } } }`);
    expectBadInput(r, argument);
    expect(sim.stats().total).toBe(0);
  });

  it('details equal getNetworkDetails, one call cold and none warm, and refetch by id', async () => {
    const q = `{ network(name: "mainnet") { details { id validators { validatorCount totalAmountStaked stakingRatio
      stakingDistributionByVersion { version amountStaked validatorCount } } delegators { delegatorCount totalAmountStaked } } } }`;
    sim.reset();
    const r = await gw.query(q);
    expect(r.errors).toBeUndefined();
    expect(routeCalls(sim)).toEqual({ 'data-api GET /v1/networks/:network': 1 });
    await settle(gw);
    sim.reset();
    expect((await gw.query(q)).data).toEqual(r.data);
    expect(sim.stats().total).toBe(0);
    const up = await upstreamGet(base(), '/v1/networks/mainnet');
    const d = r.data!.network.details;
    expect(d.validators).toEqual({
      ...up.validatorDetails,
      estimatedAnnualStakingReward: undefined,
      stakingRatio: up.validatorDetails.stakingRatio,
    });
    expect(d.delegators).toEqual(up.delegatorDetails);
    const node = await gw.query(
      `{ node(id: "${d.id}") { ... on NetworkDetails { delegators { delegatorCount } } } }`,
    );
    expect(node.data!.node.delegators.delegatorCount).toBe(up.delegatorDetails.delegatorCount);
  });

  it('a delegator refetches through node(id) in its current status', async () => {
    const r = await gw.query(
      '{ network(name: "mainnet") { delegators(first: 3) { edges { node { id txHash delegationStatus } } } } }',
    );
    for (const { node } of r.data!.network.delegators.edges) {
      const back = await gw.query(
        `{ node(id: "${node.id}") { ... on Delegator { txHash delegationStatus } } }`,
      );
      expect(back.errors).toBeUndefined();
      expect(back.data!.node).toEqual({
        txHash: node.txHash,
        delegationStatus: node.delegationStatus,
      });
    }
  });
});
