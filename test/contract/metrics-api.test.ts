import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSpec, SPEC_DIR } from '../support/specs.js';

/**
 * Every simulated Metrics API route, validated against the real OpenAPI document
 * (metrics-api.openapi.json in SPEC_DIR, loaded whole). The legacy
 * `/v1/avg_tps` routes were removed from that document; they are validated against their schemas
 * in extra/metrics-api.2025-09.openapi.yaml.
 */

const spec = JSON.parse(readSpec('metrics-api.openapi.json')) as {
  paths: Record<string, Record<string, any>>;
};

const ajv = new Ajv2020.default({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema(spec, 'metrics-api.json');

/**
 * The handful of YAML constructs a components block of the 2025-09 spec uses (nested mappings,
 * `- item` sequences, plain scalars): enough to read a few schemas without a YAML dependency.
 */
function yamlBlock(text: string, name: string): unknown {
  const lines = text.split('\n');
  const start = lines.indexOf(`    ${name}:`);
  if (start < 0) throw new Error(`no schema ${name} in the 2025-09 spec`);
  const body: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (l.trim() !== '' && !l.startsWith('      ')) break;
    if (l.trim() !== '') body.push(l);
  }
  const scalar = (s: string): unknown =>
    /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s.replace(/^'(.*)'$/, '$1');
  let i = 0;
  const indentOf = (l: string) => l.length - l.trimStart().length;
  function parse(indent: number): unknown {
    if (body[i]!.trimStart().startsWith('- ')) {
      const out: unknown[] = [];
      while (
        i < body.length &&
        indentOf(body[i]!) === indent &&
        body[i]!.trimStart().startsWith('- ')
      ) {
        const rest = body[i]!.trimStart().slice(2);
        if (rest.includes(': ') || rest.endsWith(':')) {
          body[i] = ' '.repeat(indent + 2) + rest; // "- key: v" opens a mapping at indent + 2
          out.push(parse(indent + 2));
        } else {
          out.push(scalar(rest));
          i++;
        }
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    while (
      i < body.length &&
      indentOf(body[i]!) === indent &&
      !body[i]!.trimStart().startsWith('- ')
    ) {
      const line = body[i]!.trim();
      const colon = line.indexOf(':');
      const key = line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      i++;
      out[key] = value !== '' ? scalar(value) : parse(indentOf(body[i]!));
    }
    return out;
  }
  return parse(6);
}

const legacyYaml = readSpec('extra/metrics-api.2025-09.openapi.yaml');
ajv.addSchema(
  {
    components: {
      schemas: {
        LegacyEvmMetric: yamlBlock(legacyYaml, 'LegacyEvmMetric'),
        LegacyEvmMetricsResponse: yamlBlock(legacyYaml, 'LegacyEvmMetricsResponse'),
        RollingWindowResponse: yamlBlock(legacyYaml, 'RollingWindowResponse'),
      },
    },
  },
  'metrics-legacy.json',
);

function responseSchemaRef(operationId: string, status: number): string {
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (op.operationId !== operationId) continue;
      const ref = op.responses?.[String(status)]?.content?.['application/json']?.schema?.$ref as
        | string
        | undefined;
      if (!ref) throw new Error(`${method} ${path} has no ${status} schema ref`);
      return `metrics-api.json${ref}`;
    }
  }
  throw new Error(`no operation ${operationId} in the spec`);
}

function expectValid(ref: string, body: unknown, label: string) {
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(body))
    throw new Error(
      `${label}: ${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body).slice(0, 500)}`,
    );
}

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, vary: process.env.SIM_VARY, specDir: SPEC_DIR });
});
afterAll(() => sim.close());

async function check(
  operationId: string | { legacy: string },
  path: string,
  query: Record<string, string | number> = {},
  status = 200,
) {
  const u = new URL(`${sim.metricsApiUrl}${path}`);
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, String(v));
  const res = await fetch(u);
  const body = await res.json();
  expect(res.status, `${path}: ${JSON.stringify(body).slice(0, 300)}`).toBe(status);
  const ref =
    typeof operationId === 'string'
      ? responseSchemaRef(operationId, status)
      : `metrics-legacy.json#/components/schemas/${operationId.legacy}`;
  expectValid(ref, body, `${path}?${u.searchParams}`);
  return body as any;
}

// Every chain metric the spec names (read from the document itself, not from our own copy).
const CHAIN_METRICS = (
  spec as unknown as { components: { schemas: { ChainMetric: { enum: string[] } } } }
).components.schemas.ChainMetric.enum;

describe('Metrics API responses validate against the real OpenAPI schemas', () => {
  it('health checks', async () => {
    await check('metrics-health-check', '/v2/health-check');
    await check('metrics-live-check', '/v2/live-check');
  });

  it('listChains and getChain', async () => {
    expect((await check('listChains', '/v2/chains')).chains.length).toBeGreaterThan(0);
    await check('listChains', '/v2/chains', { network: 'testnet' });
    for (const c of sim.world.chains) await check('getChain', `/v2/chains/${c.chainId}`);
    await check('getChain', '/v2/chains/1', {}, 404);
  });

  it('every chain metric, every interval it supports, every chain key', async () => {
    for (const metric of CHAIN_METRICS) {
      const body = await check('getEvmChainMetrics', `/v2/chains/43114/metrics/${metric}`, {
        pageSize: 3,
      });
      expect(body.results).toHaveLength(3);
      expect(body.nextPageToken).toBeDefined();
      await check('getEvmChainMetrics', `/v2/chains/43114/metrics/${metric}`, {
        pageSize: 2,
        pageToken: body.nextPageToken,
      });
    }
    for (const timeInterval of ['hour', 'day', 'week', 'month']) {
      await check('getEvmChainMetrics', '/v2/chains/total/metrics/txCount', {
        timeInterval,
        pageSize: 5,
      });
    }
    for (const chain of ['mainnet', 'testnet', '43113', sim.world.fixtures.l1ChainId]) {
      await check('getEvmChainMetrics', `/v2/chains/${chain}/metrics/activeAddresses`, {
        startTimestamp: 1722470400,
        endTimestamp: 1725062400,
        pageSize: 31,
      });
    }
    await check(
      'getEvmChainMetrics',
      '/v2/chains/43114/metrics/avgTps',
      { timeInterval: 'hour' },
      400,
    );
    await check('getEvmChainMetrics', '/v2/chains/43114/metrics/txCount', { pageSize: 9999 }, 400);
    await check('getEvmChainMetrics', '/v2/chains/999/metrics/txCount', {}, 404);
  });

  it('rolling windows of every rolling metric', async () => {
    for (const metric of CHAIN_METRICS.filter((m) => !m.startsWith('cumulative'))) {
      await check(
        'getEvmChainRollingWindowMetrics',
        `/v2/chains/43114/rollingWindowMetrics/${metric}`,
      );
    }
    await check('getEvmChainRollingWindowMetrics', '/v2/chains/total/rollingWindowMetrics/txCount');
    await check(
      'getEvmChainRollingWindowMetrics',
      '/v2/chains/43114/rollingWindowMetrics/nope',
      {},
      400,
    );
  });

  it('staking metrics of the primary network and an L1', async () => {
    for (const metric of [
      'validatorCount',
      'validatorWeight',
      'delegatorCount',
      'delegatorWeight',
    ]) {
      for (const network of ['mainnet', 'fuji', 'testnet'])
        await check('getStakingMetrics', `/v2/networks/${network}/metrics/${metric}`, {
          pageSize: 4,
        });
    }
    await check('getStakingMetrics', '/v2/networks/mainnet/metrics/validatorWeight', {
      subnetId: sim.world.fixtures.l1SubnetId,
    });
    await check(
      'getStakingMetrics',
      '/v2/networks/mainnet/metrics/validatorCount',
      { pageSize: 0 },
      400,
    );
  });

  it('the legacy avg_tps routes (2025-09 spec)', async () => {
    const page = await check({ legacy: 'LegacyEvmMetricsResponse' }, '/v1/avg_tps/43114', {
      from: 1654819200,
      to: 1664819200,
    });
    expect(page.nextPageStartKey).toBeDefined();
    const rolling = await fetch(`${sim.metricsApiUrl}/v1/avg_tps/43114/rollingWindow`).then(
      (r) => r.json() as Promise<any>,
    );
    // The spec's `result` is oneOf [the window object, any object]: every object matches both branches,
    // so validate against the first branch (the window object) directly.
    const { result, ...rest } = rolling;
    expectValid(
      'metrics-legacy.json#/components/schemas/RollingWindowResponse/properties/result/oneOf/0',
      result,
      'rollingWindow result',
    );
    expect(rest).toMatchObject({ status: 200, lastRun: expect.any(Number) });
  });
});

describe('the validators themselves', () => {
  it('reject bodies that break the schemas', () => {
    expect(() =>
      expectValid(
        responseSchemaRef('getEvmChainMetrics', 200),
        { results: [{ value: '1', timestamp: 1 }] },
        'bad',
      ),
    ).toThrow(/must be number/);
    expect(() =>
      expectValid(
        responseSchemaRef('getEvmChainMetrics', 400),
        { message: [1], statusCode: 400, error: 'Bad Request' },
        'bad',
      ),
    ).toThrow();
    expect(() =>
      expectValid(
        'metrics-legacy.json#/components/schemas/LegacyEvmMetricsResponse',
        { results: [] },
        'bad',
      ),
    ).toThrow(/status/);
    expect(() =>
      expectValid(
        'metrics-legacy.json#/components/schemas/LegacyEvmMetricsResponse',
        { status: 200, results: [{ timestamp: 1 }] },
        'bad',
      ),
    ).toThrow(/value/);
  });
});
