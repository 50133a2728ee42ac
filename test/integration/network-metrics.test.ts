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
 * The Metrics API's staking, ICM and L1-validator fee routes on Network and L1Validator: each series,
 * paged by cursor, equals the upstream's own sequence; filters reach the upstream under the spec's names
 * (the simulator refuses others); bad filters cost no call; nested series cost 1 + distinct, 0 warm.
 */
let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const m = () => sim.metricsApiUrl;

async function series(
  field: string,
  args: string,
  after: string | null,
  first: number,
  sel = 'timestamp value',
) {
  const a = [args, `first: ${first}`, after ? `after: "${after}"` : ''].filter(Boolean).join(', ');
  const r = await gw.query(
    `{ network(name: "mainnet") { ${field}(${a}) { edges { node { ${sel} } } pageInfo { hasNextPage endCursor } } } }`,
  );
  expect(r.errors).toBeUndefined();
  return r.data!.network[field];
}

const points = (edges: any[]) => edges.map((e) => [e.node.timestamp, e.node.value]);
const upPoints = (xs: any[]) => xs.map((p) => [p.timestamp, p.value]);

describe('Network.stakingMetrics (getStakingMetrics)', () => {
  it('pages by cursor through the upstream’s own sequence, primary network and an L1', async () => {
    const edges = await walk((after) =>
      series('stakingMetrics', 'metric: VALIDATOR_COUNT', after, 90),
    );
    const expected = await upstreamWalk(
      m(),
      '/v2/networks/mainnet/metrics/validatorCount',
      'results',
      {},
      2160,
    );
    expect(expected.length).toBeGreaterThan(180);
    expect(points(edges)).toEqual(upPoints(expected));
    const l1 = sim.world.primary.mainnet.l1s[0]!;
    const start = expected[60].timestamp;
    const end = expected[10].timestamp;
    const args = `metric: VALIDATOR_WEIGHT, subnetId: "${l1.subnetId}", startTimestamp: ${start}, endTimestamp: ${end}`;
    const l1Edges = await walk((after) => series('stakingMetrics', args, after, 7));
    const l1Expected = await upstreamWalk(
      m(),
      '/v2/networks/mainnet/metrics/validatorWeight',
      'results',
      {
        subnetId: l1.subnetId,
        startTimestamp: start,
        endTimestamp: end,
      },
      2160,
    );
    expect(l1Expected.length).toBeGreaterThan(0);
    expect(points(l1Edges)).toEqual(upPoints(l1Expected));
  });
});

describe('Network.icmMetrics and icmSummary (getICMTimeseries, getICMSummary)', () => {
  it('grouped hourly counts equal the upstream’s, every filter by its spec name', async () => {
    const msg = sim.world.icm.messages.find((x) => x.network === 'mainnet')!;
    for (const [args, query] of [
      [
        'groupBy: SRC_BLOCKCHAIN_ID_AND_DEST_BLOCKCHAIN_ID, timeInterval: HOUR',
        { groupBy: 'srcBlockchainId,destBlockchainId', timeInterval: 'hour' },
      ],
      [
        `srcBlockchainId: "${msg.sourceBlockchainId}", destBlockchainId: "${msg.destinationBlockchainId}", groupBy: DEST_BLOCKCHAIN_ID, startTimestamp: 0, endTimestamp: ${sim.world.now}, timeInterval: DAY`,
        {
          srcBlockchainId: msg.sourceBlockchainId,
          destBlockchainId: msg.destinationBlockchainId,
          groupBy: 'destBlockchainId',
          startTimestamp: 0,
          endTimestamp: sim.world.now,
          timeInterval: 'day',
        },
      ],
    ] as const) {
      const edges = await walk((after) =>
        series('icmMetrics', args, after, 2, 'timestamp value srcBlockchainId destBlockchainId'),
      );
      const expected = await upstreamWalk(
        m(),
        '/v2/icm/timeseries',
        'results',
        { ...query, network: 'mainnet' },
        2160,
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(edges.map((e: any) => e.node)).toEqual(expected);
    }
    const r =
      await gw.query(`{ network(name: "mainnet") { icmSummary(srcBlockchainId: "${msg.sourceBlockchainId}") {
      lastHour lastDay lastWeek lastMonth last90Days lastYear allTime srcBlockchainId destBlockchainId } } }`);
    expect(r.errors).toBeUndefined();
    const up = await upstreamGet(m(), '/v2/icm/summary', {
      srcBlockchainId: msg.sourceBlockchainId,
      network: 'mainnet',
    });
    expect(r.data!.network.icmSummary).toEqual(up.result);
  });
});

describe('L1 validator fee series', () => {
  it('total, subnet, validation and node series equal the upstream’s', async () => {
    const v = sim.world.primary.mainnet.l1Validators.find((x) => x.active)!;
    const cases = [
      [
        'l1ValidatorFeeMetrics',
        'metric: TOTAL_VALIDATOR_FEES_DAILY',
        '/v2/validators/metrics/totalValidatorFeesDaily',
      ],
    ] as const;
    for (const [field, args, path] of cases) {
      const edges = await walk((after) => series(field, args, after, 50));
      const [p, q] = path.split('?');
      const up = await upstreamGet(m(), p!, Object.fromEntries(new URLSearchParams(q ?? '')));
      expect(up.results.length, field).toBeGreaterThan(0);
      expect(points(edges)).toEqual(upPoints(up.results));
    }
    const r =
      await gw.query(`{ node(id: "${Buffer.from(`L1Validator:mainnet:${v.validationId}`).toString('base64url')}") { ... on L1Validator {
      feeMetrics(metric: VALIDATION_CUMULATIVE_FEES_DAILY, first: 500) { edges { node { timestamp value } } }
      nodeFeeMetrics(metric: PER_NODE_DAILY_FEES_PAID, first: 500) { edges { node { timestamp value } } } } } }`);
    expect(r.errors).toBeUndefined();
    const byValidation = await upstreamGet(
      m(),
      `/v2/validation/${v.validationId}/metrics/validationCumulativeFeesDaily`,
    );
    const byNode = await upstreamGet(m(), `/v2/validator/${v.nodeId}/metrics/perNodeDailyFeesPaid`);
    expect(points(r.data!.node.feeMetrics.edges)).toEqual(upPoints(byValidation.results));
    expect(points(r.data!.node.nodeFeeMetrics.edges)).toEqual(upPoints(byNode.results));
  });

  it('Subnet.feeMetrics: the L1’s series on the subnet itself, equal to the upstream’s', async () => {
    const v = sim.world.primary.mainnet.l1Validators.find((x) => x.active)!;
    const sub = (after: string | null) =>
      gw
        .query(
          `query($s: String!, $after: String, $start: Int) { network(name: "mainnet") { subnet(subnetId: $s) {
            feeMetrics(metric: PER_SUBNET_PAYING_VALIDATORS, startTimestamp: $start, first: 50, after: $after) {
              edges { node { timestamp value } } pageInfo { hasNextPage endCursor } } } } }`,
          { s: v.subnetId, after, start: v.creationTimestamp },
        )
        .then((r) => {
          expect(r.errors).toBeUndefined();
          return r.data!.network.subnet.feeMetrics;
        });
    const edges = await walk(sub);
    const up = await upstreamGet(
      m(),
      `/v2/subnet/${v.subnetId}/metrics/perSubnetPayingValidators`,
      {
        startTimestamp: String(v.creationTimestamp),
      },
    );
    expect(up.results.length).toBeGreaterThan(0);
    expect(points(edges)).toEqual(upPoints(up.results));
    // A malformed subnet id is refused before any call; a fuji subnet's series is refused (mainnet only).
    sim.reset();
    const bad = await gw.query(
      '{ network(name: "mainnet") { subnet(subnetId: "bad") { feeMetrics(metric: PER_SUBNET_DAILY_FEES_PAID, first: 1) { edges { cursor } } } } }',
    );
    expectBadInput(bad, 'subnetId');
    expect(sim.stats().total).toBe(0);
  });

  it('NetworkNode.l1FeeMetrics: the configured node’s series, by the node id it reports', async () => {
    sim.reset();
    const r = await gw.query(`{ networkNode { nodeId
      l1FeeMetrics(metric: PER_NODE_CUMULATIVE_FEES_PAID, first: 100) { edges { node { timestamp value } } } } }`);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    expect(r.data!.networkNode.nodeId).toBe(sim.world.selfNodeId);
    expect(routeCalls(sim)['metrics-api GET /v2/validator/:nodeId/metrics/:metric']).toBe(1);
    const up = await upstreamGet(
      m(),
      `/v2/validator/${sim.world.selfNodeId}/metrics/perNodeCumulativeFeesPaid`,
    );
    expect(points(r.data!.networkNode.l1FeeMetrics.edges)).toEqual(
      upPoints(up.results.slice(0, 100)),
    );
  });

  it('20 L1 validators with their fee series: 1 + 20 calls cold, 0 warm', async () => {
    const q = `{ network(name: "mainnet") { l1Validators(first: 20) { edges { node { validationId
      feeMetrics(metric: VALIDATION_FEES_DAILY, first: 3) { edges { node { timestamp value } } } } } } } }`;
    sim.reset();
    const cold = await gw.query(q);
    expect(cold.errors).toBeUndefined();
    expect(cold.data!.network.l1Validators.edges).toHaveLength(20);
    expect(routeCalls(sim)).toEqual({
      'data-api GET /v1/networks/:network/l1Validators': 1,
      'metrics-api GET /v2/validation/:l1ValidationId/metrics/:metric': 20,
    });
    await settle(gw);
    sim.reset();
    expect((await gw.query(q)).data).toEqual(cold.data);
    expect(sim.stats().total).toBe(0);
  });
});

describe('listChains and getChain', () => {
  it('Network.metricsChains equals listChains; Chain.metrics.info equals getChain, linked both ways', async () => {
    for (const [name, upstream] of [
      ['mainnet', 'mainnet'],
      ['fuji', 'testnet'],
    ] as const) {
      const r = await gw.query(`{ network(name: "${name}") { metricsChains(first: 50) {
        edges { node { evmChainId chainName blockchainId subnetId network chain { chainId } } } } } }`);
      expect(r.errors).toBeUndefined();
      const up = await upstreamGet(m(), '/v2/chains', { network: upstream });
      expect(up.chains.length).toBeGreaterThan(0);
      expect(r.data!.network.metricsChains.edges.map((e: any) => e.node)).toEqual(
        up.chains.map((c: any) => ({
          ...c,
          evmChainId: String(c.evmChainId),
          chain: { chainId: String(c.evmChainId) },
        })),
      );
    }
    sim.reset();
    const r = await gw.query(
      '{ chain(id: "43114") { metrics { info { evmChainId chainName blockchainId } } } }',
    );
    expect(r.errors).toBeUndefined();
    expect(routeCalls(sim)['metrics-api GET /v2/chains/:chainId']).toBe(1);
    const up = await upstreamGet(m(), '/v2/chains/43114');
    expect(r.data!.chain.metrics.info).toEqual({
      evmChainId: '43114',
      chainName: up.chainName,
      blockchainId: up.blockchainId,
    });
  });

  it('the cost estimate covers the calls the new single fields make', async () => {
    sim.reset();
    const r: any =
      await gw.query(`{ network(name: "mainnet") { details { validators { validatorCount } }
      icmSummary { allTime } } chain(id: "43113") { metrics { info { chainName } } } }`);
    expect(r.errors).toBeUndefined();
    expect(r.extensions.cost.estimatedCU).toBeGreaterThanOrEqual(sim.stats().total);
    expect(sim.stats().total).toBeGreaterThanOrEqual(3);
  });
});

describe('bad filters are refused before any upstream call', () => {
  it.each([
    [
      'stakingMetrics(metric: DELEGATOR_COUNT, startTimestamp: 10, endTimestamp: 5, first: 1)',
      'endTimestamp',
    ],
    ['stakingMetrics(metric: DELEGATOR_COUNT, subnetId: "nope", first: 1)', 'subnetId'],
    ['stakingMetrics(metric: DELEGATOR_COUNT, startTimestamp: -1, first: 1)', 'startTimestamp'],
    ['icmMetrics(srcBlockchainId: "0x12", first: 1)', 'srcBlockchainId'],
    ['icmMetrics(destBlockchainId: "zz", first: 1)', 'destBlockchainId'],
  ])('%s', async (field, argument) => {
    sim.reset();
    const r = await gw.query(`{ network(name: "mainnet") { ${field} { edges { cursor } } } }`);
    expectBadInput(r, argument);
    expect(sim.stats().total).toBe(0);
  });

  it('L1 fee series on fuji (the routes describe mainnet only)', async () => {
    sim.reset();
    const r = await gw.query(
      '{ network(name: "fuji") { l1ValidatorFeeMetrics(metric: TOTAL_PAYING_VALIDATORS_DAILY, first: 1) { edges { cursor } } } }',
    );
    expectBadInput(r, 'l1ValidatorFeeMetrics');
    expect(sim.stats().total).toBe(0);
  });
});
