import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createIcmApiClient } from '../../src/upstream/data-api-icm.js';
import { createTokensApiClient } from '../../src/upstream/data-api-tokens.js';
import { buildSearch, type HttpClient } from '../../src/upstream/http.js';
import type { UpstreamRequest } from '../../src/upstream/request.js';
import { readSpec } from '../support/specs.js';

/**
 * The gateway's own requests against the spec (data-api.openapi.json in SPEC_DIR): every
 * request the portfolio, token and ICM clients build, with every filter set, must hit its
 * operation's path, name only query parameters the operation declares, serialise each value so that
 * it validates against the parameter's schema, and use every query parameter the operation has (no
 * filter left out). A misnamed or misformatted filter fails here, before any simulator is involved.
 */

type Param = { name: string; in: string; schema: unknown; description?: string };
type Op = { operationId: string; parameters?: Param[] };
type Spec = { paths: Record<string, Record<string, Op>>; components: unknown };
const spec = JSON.parse(readSpec('data-api.openapi.json')) as Spec;

// Query values travel as strings: coerce them to the parameter's declared type, as a server does.
const ajv = new Ajv2020.default({
  strict: false,
  allErrors: true,
  validateSchema: false,
  coerceTypes: true,
});
ajv.addSchema({ $id: 'data-api.json', components: spec.components });
const rebase = (schema: unknown) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"data-api.json#/components/'));

function operation(operationId: string): { template: string; op: Op } {
  for (const [template, ops] of Object.entries(spec.paths))
    for (const op of Object.values(ops))
      if (op.operationId === operationId) return { template, op };
  throw new Error(`no operation ${operationId} in the spec`);
}

/** Extra format rules the spec states in words (a description), not in a schema. */
const DESCRIBED_FORMATS: Record<string, (v: string) => boolean> = {
  // "A comma separated list of contract addresses to filter by."
  contractAddresses: (v) => v.split(',').every((a) => /^0x[0-9a-fA-F]{40}$/.test(a.trim())),
};

/** Problems of one built request against its operation; empty when it conforms. */
function problems(operationId: string, req: UpstreamRequest<unknown>): string[] {
  const { template, op } = operation(operationId);
  const out: string[] = [];
  const pattern = new RegExp(
    `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`,
  );
  if (!pattern.test(req.path)) out.push(`path ${req.path} is not ${template}`);
  const declared = new Map(
    (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p]),
  );
  const sent = new URLSearchParams(buildSearch(req.query));
  for (const name of new Set(sent.keys())) {
    const p = declared.get(name);
    if (!p) {
      out.push(`query parameter ${name} is not declared by ${operationId}`);
      continue;
    }
    const values = sent.getAll(name);
    if (values.length !== 1)
      out.push(`${name} sent ${values.length} times (the spec declares one value)`);
    const holder = { v: values[0] };
    const validate = ajv.compile({ type: 'object', properties: { v: rebase(p.schema) } });
    if (!validate(holder)) out.push(`${name}=${values[0]}: ${ajv.errorsText(validate.errors)}`);
    const rule = DESCRIBED_FORMATS[name];
    if (rule && !rule(values[0]!))
      out.push(`${name}=${values[0]} does not follow the spec's stated format`);
  }
  for (const name of declared.keys())
    if (!sent.has(name)) out.push(`${operationId} declares ${name}, which the request never sends`);
  return out;
}

const http = {} as HttpClient; // requests are only described here, never run
const tokens = createTokensApiClient(http);
const icm = createIcmApiClient(http);
const A = '0x71c7656ec7ab88b098defb751b7401b5f6d8976f';
const B = '0xb31f66aa3c1e785363f0875a1b74e27b85fd66c7';
const page = { pageToken: 'f3c1b6a0-2b5e-4a5e-9d3c-1a2b3c4d5e6f', pageSize: 100 };
const BLOCKCHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';

/** Every request with every filter set. */
const REQUESTS: [string, UpstreamRequest<unknown>][] = [
  [
    'listErc20Balances',
    tokens.listErc20Balances(
      '43114',
      A,
      { blockNumber: '123', filterSpamTokens: false, contractAddresses: [A, B], currency: 'eur' },
      { ...page, pageSize: 500 },
    ),
  ],
  [
    'listErc721Balances',
    tokens.listErc721Balances('43114', A, { contractAddress: B }, { ...page, pageSize: 500 }),
  ],
  [
    'listErc1155Balances',
    tokens.listErc1155Balances(
      '43114',
      A,
      { blockNumber: '7', contractAddress: B },
      { ...page, pageSize: 500 },
    ),
  ],
  [
    'listCollectibleBalances',
    tokens.listCollectibleBalances('43114', A, { contractAddress: B }, { ...page, pageSize: 500 }),
  ],
  ['listAddressChains', tokens.listAddressChains(A)],
  ['listTransfers', tokens.listTransfers('43114', A, { startBlock: 10, endBlock: 20 }, page)],
  ['listTokens', tokens.listNftTokens('43114', A, page)],
  ['getTokenDetails', tokens.getNftToken('43114', A, '42')],
  ['listContractDeployments', tokens.listContractDeployments('43114', A, page)],
  ['getDeploymentTransaction', tokens.getDeploymentTransaction('43114', A, { currency: 'jpy' })],
  ['listLatestBlocksAllChains', tokens.listLatestBlocksAllChains({ network: 'fuji' }, page)],
  [
    'listLatestTransactionsAllChains',
    tokens.listLatestTransactionsAllChains({ network: 'mainnet', status: 'failed' }, page),
  ],
  ['supportedChains', tokens.supportedChains({ network: 'mainnet', feature: 'nftIndexing' })],
  [
    'listIcmMessages',
    icm.listMessages(
      {
        sourceBlockchainId: '43114',
        destinationBlockchainId: BLOCKCHAIN,
        blockchainId: BLOCKCHAIN,
        to: A,
        from: B,
        network: 'fuji',
      },
      page,
    ),
  ],
];

describe('the gateway names and serialises every filter as the Data API spec does', () => {
  for (const [operationId, req] of REQUESTS) {
    it(operationId, () => {
      expect(problems(operationId, req)).toEqual([]);
    });
  }

  it('fails on a wrong name, a wrong format or a missing filter (the check can fail)', () => {
    const good = tokens.listErc20Balances(
      '43114',
      A,
      { blockNumber: '1', filterSpamTokens: true, contractAddresses: [A], currency: 'usd' },
      page,
    );
    expect(
      problems('listErc20Balances', {
        ...good,
        query: { ...good.query, contractAddress: A, contractAddresses: undefined },
      }),
    ).toEqual([
      'query parameter contractAddress is not declared by listErc20Balances',
      'listErc20Balances declares contractAddresses, which the request never sends',
    ]);
    expect(
      problems('listErc20Balances', { ...good, query: { ...good.query, currency: 'USD' } })[0],
    ).toMatch(/^currency=USD: /);
    expect(
      problems('listErc20Balances', {
        ...good,
        query: { ...good.query, filterSpamTokens: 'yes' },
      })[0],
    ).toMatch(/^filterSpamTokens=yes: /);
    expect(
      problems('listErc20Balances', {
        ...good,
        query: { ...good.query, contractAddresses: `${A};${B}` },
      }),
    ).toEqual([`contractAddresses=${A};${B} does not follow the spec's stated format`]);
    expect(
      problems('listErc20Balances', { ...good, query: { ...good.query, pageSize: 501 } })[0],
    ).toMatch(/^pageSize=501: /);
    const transfers = tokens.listTransfers('43114', A, { startBlock: 1, endBlock: 2 }, page);
    expect(
      problems('listTransfers', {
        ...transfers,
        query: { ...transfers.query, startBlock: 'one' },
      })[0],
    ).toMatch(/^startBlock=one: /);
    expect(
      problems('listTransfers', { ...transfers, path: '/v1/chains/43114/token/x/transfers' })[0],
    ).toMatch(/^path /);
  });
});
