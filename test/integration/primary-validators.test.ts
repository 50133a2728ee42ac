import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  L1ValidatorNodeDocument,
  L1ValidatorsDocument,
  NetworkValidatorsDocument,
  PrimaryNodeTwiceDocument,
  ValidatorNodeDocument,
} from '../__generated__/graphql.js';
import {
  codes,
  createTestGateway,
  type TestGateway,
  useSimAndGateway,
} from '../support/gateway.js';
import {
  globalId,
  iso,
  orNull,
  routeCalls,
  settle,
  upstreamGet,
  upstreamWalk,
  walk,
} from './primary-support.js';

/** Network.validators and Network.l1Validators: every field is the simulator's, every list pages to its end. */
const VALIDATORS_ROUTE = 'data-api GET /v1/networks/:network/validators/:nodeId';
const L1_ROUTE = 'data-api GET /v1/networks/:network/l1Validators';
const TYPE: Record<string, string> = {
  completed: 'CompletedValidator',
  active: 'ActiveValidator',
  pending: 'PendingValidator',
  removed: 'RemovedValidator',
};

let sim: RunningSimulator;
let gw: TestGateway;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, g, url) => {
  sim = s;
  gw = g;
  redisUrl = url;
});

const rewards = (r: any) => ({
  validationRewardAmount: r.validationRewardAmount,
  delegationRewardAmount: r.delegationRewardAmount,
  rewardAddresses: r.rewardAddresses ?? [],
  rewardTxHash: orNull(r.rewardTxHash),
});

/** The GraphQL rendering of one upstream validation period (ValidationPeriodFields). */
function expectedValidator(v: any, network: string) {
  const type = TYPE[v.validationStatus]!;
  const base = {
    __typename: type,
    // Stable for the period's life (docs/schema-conventions.md): the interface's name, not the status's.
    id: globalId('Validator', `${network}:${v.nodeId}:${v.txHash}`),
    network,
    txHash: v.txHash,
    nodeId: v.nodeId,
    subnetId: v.subnetId,
    amountStaked: v.amountStaked,
    delegationFee: orNull(v.delegationFee),
    startTimestamp: v.startTimestamp,
    startTimestampIso: iso(v.startTimestamp),
    endTimestamp: v.endTimestamp,
    endTimestampIso: iso(v.endTimestamp),
    blsCredentials: orNull(v.blsCredentials),
    validationStatus: v.validationStatus.toUpperCase(),
  };
  switch (v.validationStatus) {
    case 'completed':
      return {
        ...base,
        delegatorCount: v.delegatorCount,
        amountDelegated: orNull(v.amountDelegated),
        rewards: rewards(v.rewards),
      };
    case 'active':
      return {
        ...base,
        stakePercentage: v.stakePercentage,
        delegatorCount: v.delegatorCount,
        amountDelegated: orNull(v.amountDelegated),
        uptimePerformance: v.uptimePerformance,
        avalancheGoVersion: orNull(v.avalancheGoVersion),
        delegationCapacity: orNull(v.delegationCapacity),
        potentialRewards: rewards(v.potentialRewards),
        validatorHealth: v.validatorHealth,
        geolocation: orNull(v.geolocation),
      };
    case 'removed':
      return { ...base, removeTxHash: v.removeTxHash, removeTimestamp: v.removeTimestamp };
    default:
      return base;
  }
}

function expectedL1(v: any, network: string, blockHeight: string) {
  return {
    id: globalId('L1Validator', `${network}:${v.validationId}`),
    network,
    validationId: v.validationId,
    validationIdHex: v.validationIdHex,
    nodeId: v.nodeId,
    subnetId: v.subnetId,
    weight: String(v.weight),
    remainingBalance: String(v.remainingBalance),
    blockHeight,
    creationTimestamp: v.creationTimestamp,
    creationTimestampIso: iso(v.creationTimestamp),
    blsCredentials: {
      publicKey: orNull(v.blsCredentials.publicKey),
      proofOfPossession: orNull(v.blsCredentials.proofOfPossession),
    },
    remainingBalanceOwner: v.remainingBalanceOwner,
    deactivationOwner: v.deactivationOwner,
  };
}

const validators = (
  network: string,
  nodeId: string,
  first: number,
  extra: Record<string, unknown> = {},
) =>
  walk(async (after) => {
    const r = await gw.exec(NetworkValidatorsDocument, { network, nodeId, first, after, ...extra });
    expect(r.errors).toBeUndefined();
    return r.data!.network.validators!;
  });

describe('Network.validators(nodeId): the validation periods of one node, typed by status', () => {
  it('pages the simulated node to its end (completed and active), every field the upstream’s', async () => {
    const nodeId = sim.world.selfNodeId;
    const expected = await upstreamWalk(
      sim.dataApiUrl,
      `/v1/networks/mainnet/validators/${nodeId}`,
      'validators',
    );
    expect(new Set(expected.map((v) => v.validationStatus))).toEqual(
      new Set(['completed', 'active']),
    );
    sim.reset();
    const edges = await validators('mainnet', nodeId, 4);
    expect(edges.map((e) => e.node)).toEqual(expected.map((v) => expectedValidator(v, 'mainnet')));
    expect(new Set(edges.map((e) => e.node.txHash)).size).toBe(expected.length);
    // 13 periods fit one upstream page of 100; the cursors resume from the cached page.
    expect(routeCalls(sim)).toEqual({ [VALIDATORS_ROUTE]: 1 });
  });

  it('a pending period, on fuji under its other name testnet', async () => {
    const pending =
      sim.world.primary.fuji.validators.find((v) => v.status === 'pending') ??
      sim.world.primary.mainnet.validators.find((v) => v.status === 'pending')!;
    const network = sim.world.primary.fuji.validators.includes(pending) ? 'fuji' : 'mainnet';
    const expected = await upstreamWalk(
      sim.dataApiUrl,
      `/v1/networks/${network}/validators/${pending.nodeId}`,
      'validators',
    );
    const r = await gw.exec(NetworkValidatorsDocument, {
      network: network === 'fuji' ? 'testnet' : network,
      nodeId: pending.nodeId,
      first: 10,
    });
    expect(r.errors).toBeUndefined();
    expect(r.data!.network.name).toBe(network);
    expect(r.data!.network.validators!.edges.map((e) => e.node)).toEqual(
      expected.map((v) => expectedValidator(v, network)),
    );
    expect(
      r.data!.network.validators!.edges.some((e) => e.node.__typename === 'PendingValidator'),
    ).toBe(true);
  });

  it('a removed period (the simulator has none: the real shape is injected once at the route)', async () => {
    const nodeId = sim.world.selfNodeId;
    const removed = {
      txHash: '2BV5dxB4sBQYGyhR3FibWMKhWYNDGBDDMhrfztGfg6r2iDri4Q',
      nodeId,
      subnetId: sim.world.networks.mainnet.primarySubnetId,
      amountStaked: '2000000000000',
      startTimestamp: 1_700_000_000,
      endTimestamp: 1_710_000_000,
      removeTxHash: 'H86qtcRXMz4wwADdP2qXW8Td4J5RGj8LEP2NrUjQeg3knnG6X',
      removeTimestamp: 1_705_000_000,
      validationStatus: 'removed',
    };
    sim.addFault({
      route: VALIDATORS_ROUTE,
      status: 200,
      body: { validators: [removed] },
      count: 1,
    });
    const r = await gw.exec(NetworkValidatorsDocument, {
      network: 'mainnet',
      nodeId,
      validationStatus: 'REMOVED',
      first: 5,
    });
    expect(r.errors).toBeUndefined();
    expect(r.data!.network.validators!.edges.map((e) => e.node)).toEqual([
      expectedValidator(removed, 'mainnet'),
    ]);
  });

  it('validationStatus and sortOrder reach the upstream and bind the cursor', async () => {
    const nodeId = sim.world.selfNodeId;
    const expected = await upstreamWalk(
      sim.dataApiUrl,
      `/v1/networks/mainnet/validators/${nodeId}`,
      'validators',
      { validationStatus: 'completed', sortOrder: 'asc' },
    );
    expect(expected).toHaveLength(12);
    const edges = await validators('mainnet', nodeId, 5, {
      validationStatus: 'COMPLETED',
      sortOrder: 'ASC',
    });
    expect(edges.map((e) => e.node.txHash)).toEqual(expected.map((v) => v.txHash));
    const first = await gw.exec(NetworkValidatorsDocument, {
      network: 'mainnet',
      nodeId,
      first: 2,
      validationStatus: 'COMPLETED',
      sortOrder: 'ASC',
    });
    const other = await gw.exec(NetworkValidatorsDocument, {
      network: 'mainnet',
      nodeId,
      first: 2,
      after: first.data!.network.validators!.pageInfo.endCursor,
    });
    expect(codes(other)).toEqual(['BAD_USER_INPUT']);
  });

  it('node(id) refetches each status; one id twice in a query and its list cost one upstream call', async () => {
    const nodeId = sim.world.selfNodeId;
    const list = await gw.exec(NetworkValidatorsDocument, {
      network: 'mainnet',
      nodeId,
      first: 13,
    });
    await settle(gw);
    for (const { node } of list.data!.network.validators!.edges.slice(0, 3)) {
      const r = await gw.exec(ValidatorNodeDocument, { id: node.id });
      expect(r.errors).toBeUndefined();
      expect(r.data!.node).toEqual(node);
    }
    // A fresh gateway (cold LRU, no Redis): the two refetches share the one list page.
    const cold = createTestGateway(sim);
    sim.reset();
    const twice = await cold.exec(PrimaryNodeTwiceDocument, {
      id: list.data!.network.validators!.edges[5]!.node.id,
    });
    expect(twice.errors).toBeUndefined();
    expect(twice.data!.a!.id).toBe(twice.data!.b!.id);
    expect(routeCalls(sim)).toEqual({ [VALIDATORS_ROUTE]: 1 });
    await cold.close();
  });

  it('an unknown period is NOT_FOUND; a malformed id is BAD_USER_INPUT without an upstream call', async () => {
    const nodeId = sim.world.selfNodeId;
    const unknown = globalId(
      'ActiveValidator',
      `mainnet:${nodeId}:H86qtcRXMz4wwADdP2qXW8Td4J5RGj8LEP2NrUjQeg3knnG6X`,
    );
    expect(codes(await gw.exec(ValidatorNodeDocument, { id: unknown }))).toEqual(['NOT_FOUND']);
    sim.reset();
    const bad = await gw.exec(ValidatorNodeDocument, {
      id: globalId('ActiveValidator', `mainnet:${nodeId}:nothex`),
    });
    expect(codes(bad)).toEqual(['BAD_USER_INPUT']);
    expect(sim.stats().total).toBe(0);
  });
});

describe('Network.l1Validators: a connection with the upstream’s block height', () => {
  it('pages every L1 validator (inactive included) to its end, every field the upstream’s', async () => {
    const expected = await upstreamWalk(
      sim.dataApiUrl,
      '/v1/networks/mainnet/l1Validators',
      'validators',
      { includeInactiveL1Validators: true },
    );
    const { blockHeight } = await upstreamGet(sim.dataApiUrl, '/v1/networks/mainnet/l1Validators', {
      pageSize: 1,
    });
    expect(expected.length).toBeGreaterThan(100);
    sim.reset();
    const heights = new Set<string | null | undefined>();
    const edges = await walk(async (after) => {
      const r = await gw.exec(L1ValidatorsDocument, {
        network: 'mainnet',
        includeInactive: true,
        first: 40,
        after,
      });
      expect(r.errors).toBeUndefined();
      heights.add(r.data!.network.l1Validators!.blockHeight);
      return r.data!.network.l1Validators!;
    });
    expect(edges.map((e) => e.node)).toEqual(
      expected.map((v) => expectedL1(v, 'mainnet', blockHeight)),
    );
    expect(heights).toEqual(new Set([blockHeight]));
    expect(routeCalls(sim)[L1_ROUTE]).toBe(Math.ceil(expected.length / 100));
  });

  it('filters by subnet, node and validation id; the default leaves inactive validators out', async () => {
    const all = await upstreamWalk(
      sim.dataApiUrl,
      '/v1/networks/mainnet/l1Validators',
      'validators',
      { includeInactiveL1Validators: true },
    );
    const active = await upstreamWalk(
      sim.dataApiUrl,
      '/v1/networks/mainnet/l1Validators',
      'validators',
    );
    expect(active.length).toBeLessThan(all.length);
    const subnetId = sim.world.fixtures.l1SubnetId;
    const bySubnet = await walk(
      async (after) =>
        (await gw.exec(L1ValidatorsDocument, { network: 'mainnet', subnetId, first: 50, after }))
          .data!.network.l1Validators!,
    );
    expect(bySubnet.map((e) => e.node.validationId)).toEqual(
      active.filter((v) => v.subnetId === subnetId).map((v) => v.validationId),
    );
    const one = all.find((v) => v.nodeId !== sim.world.selfNodeId)!;
    const byNode = await gw.exec(L1ValidatorsDocument, {
      network: 'mainnet',
      nodeId: one.nodeId,
      includeInactive: true,
    });
    expect(byNode.data!.network.l1Validators!.edges.map((e) => e.node.validationId)).toContain(
      one.validationId,
    );
    const byId = await gw.exec(L1ValidatorsDocument, {
      network: 'mainnet',
      l1ValidationId: one.validationId,
      includeInactive: true,
    });
    expect(byId.data!.network.l1Validators!.edges.map((e) => e.node.validationId)).toEqual([
      one.validationId,
    ]);
  });

  it('node(id) refetches an L1 validator, inactive ones too', async () => {
    const inactive = sim.world.primary.mainnet.l1Validators.find((v) => !v.active)!;
    const r = await gw.exec(L1ValidatorsDocument, {
      network: 'mainnet',
      l1ValidationId: inactive.validationId,
      includeInactive: true,
    });
    const node = r.data!.network.l1Validators!.edges[0]!.node;
    const again = await gw.exec(L1ValidatorNodeDocument, { id: node.id });
    expect(again.errors).toBeUndefined();
    expect(again.data!.node).toEqual({ __typename: 'L1Validator', ...node });
  });
});

describe('cache: cold and warm, through Redis', () => {
  it('a second gateway sharing Redis answers validators and L1 validators without the upstream', async () => {
    const vars = { network: 'mainnet', nodeId: sim.world.selfNodeId, first: 13 };
    const cold = await gw.exec(NetworkValidatorsDocument, vars);
    const coldL1 = await gw.exec(L1ValidatorsDocument, { network: 'fuji', first: 30 });
    await settle(gw);
    sim.reset();
    const other = createTestGateway(sim, { redisUrl });
    await other.ready();
    expect((await other.exec(NetworkValidatorsDocument, vars)).data).toEqual(cold.data);
    expect((await other.exec(L1ValidatorsDocument, { network: 'fuji', first: 30 })).data).toEqual(
      coldL1.data,
    );
    expect(routeCalls(sim)).toEqual({});
    await other.close();
  });
});
