import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import {
  HISTORICAL_REWARDS_PARAMS,
  LIST_DELEGATORS_PARAMS,
  PENDING_REWARDS_PARAMS,
} from '@avalanche-gateway/simulator/data-api/routes-rewards.js';
import { LIST_VALIDATORS_PARAMS } from '@avalanche-gateway/simulator/data-api/routes-staking.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpec, SPEC_DIR } from '../support/specs.js';

/**
 * The network-wide staking routes of the simulated Data API against the real spec: every answer
 * validates against the operation's response schema, the query parameters the simulator accepts are
 * exactly the operation's (so a client sending another name, or a list repeated instead of
 * comma-separated, is refused with a 400, as the gateway's integration tests rely on), and each
 * declared bound is enforced.
 */
type Op = {
  operationId: string;
  parameters?: { name: string; in: string; schema?: Record<string, unknown> }[];
  responses: Record<string, any>;
};
const spec = JSON.parse(readSpec('data-api.openapi.json')) as {
  paths: Record<string, Record<string, Op>>;
  components: unknown;
};

function nullableToAnyOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableToAnyOf);
  if (node === null || typeof node !== 'object') return node;
  const o = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, nullableToAnyOf(v)]));
  if (o.nullable === true && o.type === undefined) {
    const { nullable: _drop, ...rest } = o;
    return { anyOf: [{ type: 'null' }, rest] };
  }
  return o;
}

const ajv = new Ajv2020.default({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema({ $id: 'data-api.json', components: nullableToAnyOf(spec.components) });

function op(operationId: string): Op {
  for (const ops of Object.values(spec.paths))
    for (const o of Object.values(ops)) if (o.operationId === operationId) return o;
  throw new Error(`no operation ${operationId}`);
}
const queryParams = (operationId: string) =>
  (op(operationId).parameters ?? [])
    .filter((p) => p.in === 'query')
    .map((p) => p.name)
    .sort();

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, vary: process.env.SIM_VARY, specDir: SPEC_DIR });
});
afterAll(async () => {
  await sim?.close();
});

async function call(
  operationId: string,
  path: string,
  query: Record<string, string> = {},
  status = 200,
) {
  const u = new URL(sim.dataApiUrl + path);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  const res = await fetch(u);
  const body = await res.json();
  expect(res.status, `${operationId} ${u.search}: ${JSON.stringify(body).slice(0, 300)}`).toBe(
    status,
  );
  const schema = JSON.parse(
    JSON.stringify(
      op(operationId).responses[String(status)].content['application/json'].schema,
    ).replaceAll('"#/components/', '"data-api.json#/components/'),
  );
  const validate = ajv.compile(schema);
  if (!validate(body))
    throw new Error(
      `${operationId}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 400)}`,
    );
  return body as any;
}

describe('network staking routes validate against the real OpenAPI spec', () => {
  it('accept exactly the query parameters their operation declares', () => {
    expect([...LIST_VALIDATORS_PARAMS].sort()).toEqual(queryParams('listValidators'));
    expect([...LIST_DELEGATORS_PARAMS].sort()).toEqual(queryParams('listDelegators'));
    expect([...PENDING_REWARDS_PARAMS].sort()).toEqual(
      queryParams('listPendingPrimaryNetworkRewards'),
    );
    expect([...HISTORICAL_REWARDS_PARAMS].sort()).toEqual(
      queryParams('listHistoricalPrimaryNetworkRewards'),
    );
    expect(queryParams('getNetworkDetails')).toEqual([]);
  });

  it('listValidators with every filter, each sortBy, and paged', async () => {
    const net = sim.world.primary.mainnet;
    const path = '/v1/networks/mainnet/validators';
    let body = await call('listValidators', path, { pageSize: '100', minUptimePerformance: '0' });
    expect(body.nextPageToken).toBeTruthy();
    body = await call('listValidators', path, {
      pageSize: '100',
      minUptimePerformance: '0',
      pageToken: body.nextPageToken,
    });
    for (const sortBy of [
      'blockIndex',
      'delegationCapacity',
      'timeRemaining',
      'delegationFee',
      'uptimePerformance',
    ]) {
      await call('listValidators', path, { sortBy, sortOrder: 'asc', pageSize: '100' });
    }
    const all = {
      nodeIds: net.validators
        .slice(0, 30)
        .map((v) => v.nodeId)
        .join(','),
      sortBy: 'timeRemaining',
      sortOrder: 'desc',
      validationStatus: 'active',
      minDelegationCapacity: '0',
      maxDelegationCapacity: '720000000000000000',
      minTimeRemaining: '0',
      maxTimeRemaining: '2147483647',
      minFeePercentage: '2',
      maxFeePercentage: '100',
      minUptimePerformance: '0',
      maxUptimePerformance: '100',
      subnetId: net.info.primarySubnetId,
    };
    body = await call('listValidators', path, all);
    expect(body.validators.length).toBeGreaterThan(0);
    for (const status of ['completed', 'active', 'pending'])
      await call('listValidators', path, { validationStatus: status, minUptimePerformance: '0' });
  });

  it('getNetworkDetails, listDelegators by status, pending and historical rewards', async () => {
    const net = sim.world.primary.fuji;
    await call('getNetworkDetails', '/v1/networks/mainnet');
    await call('getNetworkDetails', '/v1/networks/fuji');
    for (const delegationStatus of ['completed', 'active', 'pending']) {
      const body = await call('listDelegators', '/v1/networks/fuji/delegators', {
        delegationStatus,
        pageSize: '100',
      });
      expect(body.delegators.length, delegationStatus).toBeGreaterThan(0);
    }
    const addresses = net.pAddresses
      .slice(0, 50)
      .map((a) => `P-${a}`)
      .join(',');
    const pending = await call(
      'listPendingPrimaryNetworkRewards',
      '/v1/networks/fuji/rewards:listPending',
      { addresses, pageSize: '100' },
    );
    expect(pending.pendingRewards.length).toBeGreaterThan(0);
    const past = await call('listHistoricalPrimaryNetworkRewards', '/v1/networks/fuji/rewards', {
      addresses,
      currency: 'eur',
      pageSize: '100',
    });
    expect(past.historicalRewards.length).toBeGreaterThan(0);
  });

  it.each([
    ['listValidators', '/v1/networks/mainnet/validators', { nodeId: 'NodeID-x' }],
    ['listValidators', '/v1/networks/mainnet/validators', { minFeePercentage: '1' }],
    ['listValidators', '/v1/networks/mainnet/validators', { maxUptimePerformance: '101' }],
    ['listValidators', '/v1/networks/mainnet/validators', { minTimeRemaining: '2147483648' }],
    [
      'listValidators',
      '/v1/networks/mainnet/validators',
      { minDelegationCapacity: '720000000000000001' },
    ],
    [
      'listValidators',
      '/v1/networks/mainnet/validators',
      { minFeePercentage: '10', maxFeePercentage: '5' },
    ],
    ['listValidators', '/v1/networks/mainnet/validators', { sortBy: 'fee' }],
    ['listDelegators', '/v1/networks/mainnet/delegators', { delegationStatus: 'removed' }],
    ['listDelegators', '/v1/networks/mainnet/delegators', { rewardAddress: 'avax1x' }],
    ['listPendingPrimaryNetworkRewards', '/v1/networks/mainnet/rewards:listPending', {}],
    [
      'listHistoricalPrimaryNetworkRewards',
      '/v1/networks/mainnet/rewards',
      { nodeIds: 'NodeID-x' },
    ],
    ['getNetworkDetails', '/v1/networks/mainnet', { pageSize: '1' }],
  ])('%s refuses %s %j with a spec-shaped 400', async (operationId, path, query) => {
    await call(operationId, path, query as Record<string, string>, 400);
  });

  it('a list repeated instead of comma-separated is refused', async () => {
    const u = new URL(`${sim.dataApiUrl}/v1/networks/mainnet/validators`);
    u.searchParams.append('nodeIds', sim.world.selfNodeId);
    u.searchParams.append('nodeIds', sim.world.primary.mainnet.validators[0]!.nodeId);
    expect((await fetch(u)).status).toBe(400);
  });
});
