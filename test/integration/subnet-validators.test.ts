import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { expect, it } from 'vitest';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { expectBadInput, routeCalls, settle } from './primary-support.js';

/**
 * Subnet.validators is `listValidators` with the subnet's id: the same list (items, pages, cursors
 * and cache entries) as `Network.validators(subnetId:)` with the same filters.
 */
const LIST = 'data-api GET /v1/networks/:network/validators';
let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

it('equals Network.validators(subnetId:) and shares its pages and cursors', async () => {
  const subnets = await gw.query(
    '{ network(name: "mainnet") { subnets(first: 50) { edges { node { subnetId } } } } }',
  );
  expect(subnets.errors).toBeUndefined();
  const ids: string[] = [
    sim.world.primary.mainnet.info.primarySubnetId,
    ...subnets.data!.network.subnets.edges.map((e: any) => e.node.subnetId),
  ];
  let checked = 0;
  for (const subnetId of ids) {
    const q = `{ network(name: "mainnet") {
      subnet(subnetId: "${subnetId}") { validators(first: 3, sortOrder: ASC) {
        edges { node { txHash nodeId } } pageInfo { endCursor hasNextPage } } }
      validators(subnetId: "${subnetId}", first: 3, sortOrder: ASC) {
        edges { node { txHash nodeId } } pageInfo { endCursor hasNextPage } } } }`;
    const r = await gw.query(q);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    const viaSubnet = r.data!.network.subnet.validators;
    expect(viaSubnet).toEqual(r.data!.network.validators);
    if (viaSubnet.edges.length === 0) continue;
    checked++;
    await settle(gw);
    sim.reset();
    const again = await gw.query(q);
    expect(again.data).toEqual(r.data);
    expect(routeCalls(sim)[LIST] ?? 0).toBe(0);
    if (checked >= 2) break;
  }
  expect(checked, 'the world has subnets with validators').toBeGreaterThan(0);
});

it('refuses a bad filter under a subnet before any call', async () => {
  const subnets = await gw.query(
    '{ network(name: "mainnet") { subnets(first: 1) { edges { node { subnetId } } } } }',
  );
  const subnetId = subnets.data!.network.subnets.edges[0].node.subnetId;
  sim.reset();
  const r = await gw.query(`{ network(name: "mainnet") { subnet(subnetId: "${subnetId}") {
    validators(minFeePercentage: 1, first: 2) { edges { node { txHash } } } } } }`);
  expectBadInput(r, 'minFeePercentage');
  expect(routeCalls(sim)[LIST] ?? 0).toBe(0);
});
