import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import {
  ICM_SUMMARY_PARAMS,
  ICM_TIMESERIES_PARAMS,
  L1_METRIC_PARAMS,
} from '@avalanche-gateway/simulator/metrics-api/routes-icm-l1.js';
import { STAKING_METRICS_PARAMS } from '@avalanche-gateway/simulator/metrics-api/routes-network.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpec, SPEC_DIR } from '../support/specs.js';

/**
 * The simulated Metrics API's ICM and L1-validator fee routes (and getStakingMetrics' parameters)
 * against the real spec: answers validate against each operation's response schema; the query
 * parameters accepted are exactly the operation's; bad values and unknown names are spec-shaped 400s.
 */
type Op = {
  operationId: string;
  parameters?: { name: string; in: string; schema?: any }[];
  responses: Record<string, any>;
};
const spec = JSON.parse(readSpec('metrics-api.openapi.json')) as {
  paths: Record<string, Record<string, Op>>;
};
const ajv = new Ajv2020.default({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema(spec, 'metrics-api.json');

function op(operationId: string): Op {
  for (const ops of Object.values(spec.paths))
    for (const o of Object.values(ops)) if (o.operationId === operationId) return o;
  throw new Error(`no operation ${operationId}`);
}
const queryParams = (id: string) =>
  (op(id).parameters ?? [])
    .filter((p) => p.in === 'query')
    .map((p) => p.name)
    .sort();
const pathEnum = (id: string, name: string): string[] =>
  op(id).parameters!.find((p) => p.name === name)!.schema.enum;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, vary: process.env.SIM_VARY, specDir: SPEC_DIR });
});
afterAll(() => sim.close());

async function check(
  operationId: string,
  path: string,
  query: Record<string, string | number> = {},
  status = 200,
) {
  const u = new URL(`${sim.metricsApiUrl}${path}`);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, String(v));
  const res = await fetch(u);
  const body = await res.json();
  expect(res.status, `${path}${u.search}: ${JSON.stringify(body).slice(0, 300)}`).toBe(status);
  const ref = `metrics-api.json${op(operationId).responses[String(status)].content['application/json'].schema.$ref}`;
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(body))
    throw new Error(
      `${operationId}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 400)}`,
    );
  return body as any;
}

describe('ICM and L1-validator metrics routes validate against the real spec', () => {
  it('accept exactly the query parameters their operation declares', () => {
    expect([...ICM_TIMESERIES_PARAMS].sort()).toEqual(queryParams('getICMTimeseries'));
    expect([...ICM_SUMMARY_PARAMS].sort()).toEqual(queryParams('getICMSummary'));
    for (const id of [
      'getTotalL1ValidatorMetrics',
      'getMetricsByValidationId',
      'getMetricsByNodeId',
      'getMetricsBySubnetId',
    ]) {
      expect([...L1_METRIC_PARAMS].sort(), id).toEqual(queryParams(id));
    }
    expect([...STAKING_METRICS_PARAMS].sort()).toEqual(queryParams('getStakingMetrics'));
  });

  it('ICM timeseries (every grouping and interval, paged) and summary', async () => {
    const msg = sim.world.icm.messages[0]!;
    for (const groupBy of pathEnum('getICMTimeseries', 'groupBy') ?? []) {
      for (const timeInterval of ['hour', 'day', 'week', 'month'])
        await check('getICMTimeseries', '/v2/icm/timeseries', {
          groupBy,
          timeInterval,
          network: 'mainnet',
        });
    }
    const first = await check('getICMTimeseries', '/v2/icm/timeseries', {
      groupBy: 'srcBlockchainId,destBlockchainId',
      pageSize: 1,
    });
    expect(first.nextPageToken).toBeDefined();
    await check('getICMTimeseries', '/v2/icm/timeseries', {
      groupBy: 'srcBlockchainId,destBlockchainId',
      pageSize: 1,
      pageToken: first.nextPageToken,
    });
    const all = {
      srcBlockchainId: msg.sourceBlockchainId,
      destBlockchainId: msg.destinationBlockchainId,
      startTimestamp: 0,
      endTimestamp: sim.world.now,
    };
    expect(
      (
        await check('getICMTimeseries', '/v2/icm/timeseries', {
          ...all,
          timeInterval: 'hour',
          network: 'testnet',
        })
      ).results,
    ).toBeDefined();
    await check('getICMSummary', '/v2/icm/summary');
    await check('getICMSummary', '/v2/icm/summary', {
      srcBlockchainId: msg.sourceBlockchainId,
      groupBy: 'destBlockchainId',
      network: 'fuji',
    });
  });

  it('L1 validator fee series: all validators, a validation, a node, a subnet', async () => {
    const v = sim.world.primary.mainnet.l1Validators.find((x) => x.active)!;
    for (const metric of pathEnum('getTotalL1ValidatorMetrics', 'metric')) {
      expect(
        (await check('getTotalL1ValidatorMetrics', `/v2/validators/metrics/${metric}`)).results
          .length,
      ).toBeGreaterThan(0);
    }
    for (const metric of pathEnum('getMetricsByValidationId', 'metric'))
      await check(
        'getMetricsByValidationId',
        `/v2/validation/${v.validationId}/metrics/${metric}`,
        { startTimestamp: 0 },
      );
    for (const metric of pathEnum('getMetricsByNodeId', 'metric'))
      await check('getMetricsByNodeId', `/v2/validator/${v.nodeId}/metrics/${metric}`, {
        endTimestamp: sim.world.now,
      });
    for (const metric of pathEnum('getMetricsBySubnetId', 'metric'))
      await check('getMetricsBySubnetId', `/v2/subnet/${v.subnetId}/metrics/${metric}`);
  });

  it.each([
    ['getICMTimeseries', '/v2/icm/timeseries', { groupBy: 'chain' }],
    ['getICMTimeseries', '/v2/icm/timeseries', { pageSize: 2161 }],
    ['getICMTimeseries', '/v2/icm/timeseries', { srcBlockchain: 'x' }],
    ['getICMTimeseries', '/v2/icm/timeseries', { startTimestamp: 10, endTimestamp: 1 }],
    ['getICMSummary', '/v2/icm/summary', { network: 'devnet' }],
    ['getTotalL1ValidatorMetrics', '/v2/validators/metrics/feesDaily', {}],
    [
      'getTotalL1ValidatorMetrics',
      '/v2/validators/metrics/totalValidatorFeesDaily',
      { pageSize: 10 },
    ],
    ['getMetricsByValidationId', '/v2/validation/nope/metrics/validationFeesDaily', {}],
    ['getMetricsByNodeId', '/v2/validator/node-1/metrics/perNodeDailyFeesPaid', {}],
    [
      'getMetricsBySubnetId',
      '/v2/subnet/11111111111111111111111111111111LpoYY/metrics/perSubnetDailyFeesPaid',
      { startTimestamp: -1 },
    ],
    ['getStakingMetrics', '/v2/networks/mainnet/metrics/validatorCount', { subnet: 'x' }],
  ])('%s refuses %s %j', async (operationId, path, query) => {
    await check(operationId, path, query as Record<string, string>, 400);
  });
});
