import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import { PRIMARY_NET_QUERY_PARAMS } from '@avalanche-gateway/simulator/data-api/routes-primary-net.js';
import { SIM_L1 } from '@avalanche-gateway/simulator/world/index.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrimaryNetApiClient } from '../../src/upstream/data-api-primary-net.js';
import type { HttpClient } from '../../src/upstream/http.js';
import type { UpstreamRequest } from '../../src/upstream/request.js';
import { createTestGateway } from '../support/gateway.js';
import { readSpec, SPEC_DIR } from '../support/specs.js';

/**
 * Subnets, blockchains, UTXOs / last activity by addresses, chain ids of addresses and the AVAX
 * supply against the real Data API spec (data-api.openapi.json in SPEC_DIR):
 * - the simulator's answers validate against each operation's response schema;
 * - the simulator accepts exactly the query parameters each operation declares (it refuses others);
 * - every request the gateway's client builds (path, method, each query parameter's NAME and its
 * serialised VALUE, the POST body) validates against the operation's parameters and request body: a
 * filter renamed or sent in another format fails here (the checker is shown to catch both);
 * - the gateway renders every field over spec-varied answers (SIM_VARY), so its contracts (zod)
 * accept everything the spec allows.
 */
type Param = { name: string; in: string; required?: boolean; schema: unknown };
type Op = {
  operationId: string;
  parameters?: Param[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
const spec = JSON.parse(readSpec('data-api.openapi.json')) as {
  paths: Record<string, Record<string, Op>>;
  components: unknown;
};

const ajv = new Ajv2020.default({
  strict: false,
  allErrors: true,
  validateSchema: false,
  coerceTypes: false,
});
addFormats.default(ajv);
ajv.addSchema({ $id: 'data-api.json', components: spec.components });
const rebase = (schema: unknown) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"data-api.json#/components/'));

const OPS = Object.keys(PRIMARY_NET_QUERY_PARAMS);
const P_UTXOS = 'ListPChainUtxosResponse';
const XC_UTXOS = 'ListUtxosResponse';
function operation(operationId: string): { path: string; method: string; op: Op } {
  for (const [path, ops] of Object.entries(spec.paths))
    for (const [method, op] of Object.entries(ops))
      if (op.operationId === operationId) return { path, method: method.toUpperCase(), op };
  throw new Error(`no operation ${operationId}`);
}

function valid(schema: unknown, value: unknown): string | undefined {
  const v = ajv.compile(rebase(schema) as object);
  return v(value) ? undefined : ajv.errorsText(v.errors);
}

/**
 * A query value as the server reads it back from the URL (a string), typed by the parameter's
 * schema.
 */
function fromQueryString(raw: string, schema: any): unknown {
  const s = schema.$ref ? undefined : schema;
  if (s?.type === 'integer' || s?.type === 'number')
    return /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  if (s?.type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

/**
 * Problems of one described request against its operation: path, method, parameter names and
 * values, body.
 */
function requestProblems(
  operationId: string,
  req: Pick<UpstreamRequest<unknown>, 'method' | 'path' | 'query' | 'body'>,
): string[] {
  const { path, method, op } = operation(operationId);
  const problems: string[] = [];
  if (req.method !== method) problems.push(`method ${req.method}, spec ${method}`);
  const template = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  if (!template.test(req.path)) problems.push(`path ${req.path} does not match ${path}`);
  const declared = new Map(
    (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]),
  );
  for (const [name, value] of Object.entries(req.query)) {
    if (value === undefined) continue;
    const p = declared.get(name);
    if (!p) {
      problems.push(`query parameter ${name} is not declared by ${operationId}`);
      continue;
    }
    const err = valid(p.schema, fromQueryString(String(value), p.schema));
    if (err) problems.push(`query parameter ${name}=${String(value)}: ${err}`);
  }
  for (const p of declared.values())
    if (p.required && req.query[p.name] === undefined)
      problems.push(`required query parameter ${p.name} missing`);
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  if (bodySchema) {
    const err = valid(bodySchema, req.body);
    if (err) problems.push(`body: ${err}`);
  } else if (req.body !== undefined) problems.push(`${operationId} takes no body`);
  return problems;
}

const noHttp = {} as HttpClient; // requests are only described here, never run
const api = createPrimaryNetApiClient(noHttp);
const A = 'avax1h2ccj9f5ay5acl6tyn9mwmw32p8wref8vl8ctg';
const page = { pageToken: 'f8b2d6a4-2c5e-4f4c-9d0e-1b2a3c4d5e6f', pageSize: 100 };
const allUtxoFilters = {
  assetId: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
  minUtxoAmount: '1000',
  includeSpent: true,
  sortBy: 'amount',
  sortOrder: 'desc',
} as const;
const many = Array.from({ length: 200 }, () => A);

describe('the gateway builds requests exactly as the spec names and serialises them', () => {
  const cases: [string, UpstreamRequest<unknown>][] = [
    ['listSubnets', api.listSubnets('mainnet', { sortOrder: 'asc' }, page)],
    ['getSubnetById', api.getSubnet('fuji', '11111111111111111111111111111111LpoYY')],
    ['listBlockchains', api.listBlockchains('mainnet', { sortOrder: 'desc' }, page)],
    [
      'getBlockchainById',
      api.getBlockchain('mainnet', '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5'),
    ],
    ['getUtxosByAddresses', api.listUtxos('mainnet', 'x-chain', [A, A], allUtxoFilters, page)],
    [
      'getUtxosByAddressesV2',
      api.listUtxos('mainnet', 'p-chain', many, allUtxoFilters, { ...page, pageSize: 1024 }),
    ],
    ['getLastActivityTimestampByAddresses', api.getLastActivity('fuji', 'c-chain', [A])],
    ['getLastActivityTimestampByAddressesV2', api.getLastActivity('mainnet', 'p-chain', many)],
    ['getChainIdsForAddresses', api.getChainIdsForAddresses('mainnet', [A, A])],
    ['getAvaxSupply', api.getAvaxSupply()],
  ];
  it.each(cases)('%s', (operationId, req) => {
    expect(requestProblems(operationId, req)).toEqual([]);
  });

  it('covers every operation of this area with every query parameter it declares', () => {
    expect(cases.map(([id]) => id).sort()).toEqual([...OPS].sort());
    for (const [id, req] of cases) {
      const declared = (operation(id).op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort();
      const sent = Object.keys(req.query)
        .filter((k) => req.query[k] !== undefined)
        .sort();
      expect(sent, id).toEqual(declared);
    }
  });

  it('the checker catches a renamed filter, a wrong format, route or body', () => {
    const good = api.listUtxos('mainnet', 'x-chain', [A], allUtxoFilters, page);
    expect(
      requestProblems('getUtxosByAddresses', {
        ...good,
        query: { ...good.query, sort_order: 'desc', sortOrder: undefined },
      }),
    ).toEqual(['query parameter sort_order is not declared by getUtxosByAddresses']);
    expect(
      requestProblems('getUtxosByAddresses', {
        ...good,
        query: { ...good.query, includeSpent: 'yes' },
      })[0],
    ).toMatch(/includeSpent=yes/);
    expect(
      requestProblems('getUtxosByAddresses', {
        ...good,
        query: { ...good.query, sortBy: 'AMOUNT' },
      })[0],
    ).toMatch(/sortBy=AMOUNT/);
    expect(
      requestProblems('getUtxosByAddresses', {
        ...good,
        query: { ...good.query, pageSize: 1024 },
      })[0],
    ).toMatch(/pageSize=1024/);
    expect(
      requestProblems('getUtxosByAddresses', {
        ...good,
        path: '/v1/networks/mainnet/blockchains/x-chain/utxo',
      })[0],
    ).toMatch(/does not match/);
    const post = api.listUtxos('mainnet', 'p-chain', many, {}, page);
    expect(
      requestProblems('getUtxosByAddressesV2', { ...post, body: { addresses: many } })[0],
    ).toMatch(/^body:/);
    expect(
      requestProblems('getLastActivityTimestampByAddressesV2', {
        ...api.getLastActivity('mainnet', 'p-chain', many),
        body: {},
      })[0],
    ).toMatch(/^body:/);
  });
});

describe('the simulator answers in the spec’s shapes, takes only declared parameters', () => {
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
    init: { query?: Record<string, string>; body?: unknown; status?: number } = {},
  ) {
    const u = new URL(sim.dataApiUrl + path);
    for (const [k, v] of Object.entries(init.query ?? {})) u.searchParams.set(k, v);
    const res = await fetch(
      u,
      init.body === undefined
        ? {}
        : {
            method: 'POST',
            body: JSON.stringify(init.body),
            headers: { 'content-type': 'application/json' },
          },
    );
    const body = await res.json();
    expect(res.status, `${operationId}: ${JSON.stringify(body).slice(0, 300)}`).toBe(
      init.status ?? 200,
    );
    let schema = operation(operationId).op.responses[String(init.status ?? 200)]!.content![
      'application/json'
    ]!.schema as any;
    // The UTXO oneOf is told apart by chainInfo.chainName (as clients must; a P answer also fits
    // the other).
    if (schema.oneOf?.length === 2 && body.chainInfo) {
      schema = {
        $ref: `#/components/schemas/${body.chainInfo.chainName === 'p-chain' ? P_UTXOS : XC_UTXOS}`,
      };
    }
    const err = valid(schema, body);
    expect(err, `${operationId} ${path}: ${JSON.stringify(body).slice(0, 400)}`).toBeUndefined();
    return body;
  }

  it('declares exactly the spec’s query parameters per operation', () => {
    for (const id of OPS) {
      const declared = (operation(id).op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort();
      expect([...PRIMARY_NET_QUERY_PARAMS[id]!].sort(), id).toEqual(declared);
    }
  });

  it('answers every operation in its response schema', async () => {
    const n = sim.world.primary.mainnet;
    const addrs = n.pAddresses.slice(0, 20).join(',');
    const xAddrs = n.xChain.addresses
      .slice(0, 5)
      .map((a) => `X-${a}`)
      .join(',');
    await call('listSubnets', '/v1/networks/mainnet/subnets', {
      query: { pageSize: '100', sortOrder: 'asc' },
    });
    await call('getSubnetById', `/v1/networks/mainnet/subnets/${SIM_L1.subnetId}`);
    await call('getSubnetById', `/v1/networks/fuji/subnets/${n.info.primarySubnetId}`);
    await call('listBlockchains', '/v1/networks/testnet/blockchains', {
      query: { pageSize: '100' },
    });
    for (const id of [SIM_L1.blockchainId, n.info.xChainId, n.info.cChainId])
      await call('getBlockchainById', `/v1/networks/mainnet/blockchains/${id}`);
    await call('getUtxosByAddresses', '/v1/networks/mainnet/blockchains/p-chain/utxos', {
      query: { addresses: addrs, includeSpent: 'true', pageSize: '100' },
    });
    await call('getUtxosByAddresses', '/v1/networks/mainnet/blockchains/x-chain/utxos', {
      query: { addresses: xAddrs, sortBy: 'amount', minUtxoAmount: '1' },
    });
    await call('getUtxosByAddresses', '/v1/networks/mainnet/blockchains/c-chain/utxos', {
      query: { addresses: n.pAddresses.slice(0, 60).join(',') },
    });
    await call('getUtxosByAddressesV2', '/v1/networks/mainnet/blockchains/p-chain/utxos', {
      query: { pageSize: '1024' },
      body: { addresses: addrs },
    });
    await call(
      'getLastActivityTimestampByAddresses',
      '/v1/networks/mainnet/blockchains/x-chain/lastActivityTimestampByAddresses',
      { query: { addresses: xAddrs } },
    );
    await call(
      'getLastActivityTimestampByAddressesV2',
      '/v1/networks/mainnet/blockchains/p-chain/lastActivityTimestampByAddresses',
      { body: { addresses: addrs } },
    );
    await call('getChainIdsForAddresses', '/v1/networks/mainnet/addresses:listChainIds', {
      query: { addresses: `${addrs},${xAddrs}` },
    });
    await call('getAvaxSupply', '/v1/avax/supply');
  });

  it('refuses undeclared parameters, bad formats and bodies with a 400', async () => {
    const a = sim.world.primary.mainnet.pAddresses[0]!;
    const bad = (
      op: string,
      path: string,
      init: { query?: Record<string, string>; body?: unknown },
    ) => call(op, path, { ...init, status: 400 });
    await bad('listSubnets', '/v1/networks/mainnet/subnets', { query: { sort_order: 'asc' } });
    await bad('listBlockchains', '/v1/networks/mainnet/blockchains', {
      query: { sortOrder: 'ASC' },
    });
    await bad('getUtxosByAddresses', '/v1/networks/mainnet/blockchains/p-chain/utxos', {
      query: { addresses: a, includeSpent: 'yes' },
    });
    await bad('getUtxosByAddresses', '/v1/networks/mainnet/blockchains/p-chain/utxos', {
      query: { addresses: a, sortBy: 'AMOUNT' },
    });
    await bad('getUtxosByAddresses', '/v1/networks/mainnet/blockchains/p-chain/utxos', {
      query: { addresses: a, minAmount: '5' },
    });
    await bad('getUtxosByAddresses', '/v1/networks/mainnet/blockchains/q-chain/utxos', {
      query: { addresses: a },
    });
    await bad('getUtxosByAddressesV2', '/v1/networks/mainnet/blockchains/p-chain/utxos', {
      query: { addresses: a },
      body: { addresses: a },
    });
    await bad('getUtxosByAddressesV2', '/v1/networks/mainnet/blockchains/p-chain/utxos', {
      body: { addresses: [a] },
    });
    await bad(
      'getLastActivityTimestampByAddressesV2',
      '/v1/networks/mainnet/blockchains/p-chain/lastActivityTimestampByAddresses',
      { body: { address: a } },
    );
    await bad('getChainIdsForAddresses', '/v1/networks/mainnet/addresses:listChainIds', {
      query: { addresses: 'avax1bad' },
    });
    await call('getSubnetById', `/v1/networks/mainnet/subnets/${SIM_L1.blockchainId}`, {
      status: 404,
    });
  });
});

describe('the gateway renders this area over spec-varied answers', () => {
  it.each(['primary-net-a', 'primary-net-b', 'primary-net-c'])(
    'SIM_VARY=%s',
    async (seed) => {
      const sim = await startSimulator({ port: 0, vary: seed, specDir: SPEC_DIR });
      // Contracts are under test here, not latency: a loaded machine is slow with varied answers.
      const gw = createTestGateway(sim, { env: { UPSTREAM_TIMEOUT_MS: '15000' } });
      try {
        const n = sim.world.primary.mainnet;
        const addrs = n.pAddresses.slice(0, 20);
        const r = await gw.query(
          `query($a: [String!]!, $x: [String!]!, $s: String!) { network(name: "mainnet") {
        subnets(first: 150) { edges { node { subnetId isL1 createBlockIndex ownership { addresses
          threshold locktime } l1ValidatorManager { contractAddress }
          blockchains { blockchainId evmChainId genesisData { __typename } } } } }
        blockchains(first: 150) {
          edges { node { blockchainId name evmChainId createBlockNumber } }
        }
        subnet(subnetId: $s) { subnetId blockchains { name } }
        p: utxos(blockchain: P_CHAIN, addresses: $a, includeSpent: true, first: 120) { edges { node
          { __typename ... on PChainUtxo { amount utxoType threshold } } } }
        x: utxos(blockchain: X_CHAIN, addresses: $x, first: 50) { edges { node { ... on
          PrimaryNetworkUtxo { outputIndex threshold locktime asset { amount } } } } }
        c: utxos(blockchain: C_CHAIN, addresses: $a) { edges { node { ... on PrimaryNetworkUtxo {
          utxoId } } } }
        lastActivity(blockchain: P_CHAIN, addresses: $a) { timestamp blockNumber isConsumed chain }
        addressChainIds(addresses: $a) { address chains }
        avaxSupply { totalSupply lastUpdated }
      } }`,
          { a: addrs, x: n.xChain.addresses.slice(0, 5), s: SIM_L1.subnetId },
        );
        expect(r.errors ?? [], JSON.stringify(r.errors)).toEqual([]);
        expect(r.data!.network.subnets.edges.length).toBeGreaterThan(100);
      } finally {
        await gw.close();
        await sim.close();
      }
      // A varied simulator is slow on a loaded machine (every answer is re-derived from the spec).
    },
    60_000,
  );
});
