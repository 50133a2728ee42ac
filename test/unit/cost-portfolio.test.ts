import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createCachePolicy, DEFAULT_TTL_MS, RESOURCE_CLASS } from '../../src/cache/policy.js';
import { estimateCost } from '../../src/edge/cost.js';
import { buildSchema } from '../../src/schema/index.js';

/**
 * The portfolio, token and ICM fields are priced in compute units, and their resources have a
 * class.
 */
const schema = buildSchema();
const cost = (query: string) => estimateCost(schema, parse(query), undefined, {}).cu;
const A = 'address(chainId: "43114", address: "0x0000000000000000000000000000000000000001")';

describe('cost of the portfolio and token fields', () => {
  // CUs: an address's lists, balances and contract metadata 20 each page or look-up; `address(…)` itself 0.
  it('a balance list is its pages plus one contract per item (an upper bound of 1 + distinct)', () => {
    expect(cost(`{ ${A} { erc20Balances(first: 50) { edges { node { balance } } } } }`)).toBe(20);
    expect(
      cost(`{ ${A} { erc20Balances(first: 50) { edges { node { contract { name } } } } } }`),
    ).toBe(20 + 50 * 20);
    expect(
      cost(
        `{ ${A} { collectibleBalances(first: 10) { edges { node { ... on Erc721Balance { contract {
          name } } } } } } }`,
      ),
    ).toBe(20 + 10 * 20);
  });
  it('Address.chains is one call; the cross-chain lists are their pages', () => {
    // `GET /v1/address/{address}/chains` (listAddressChains): Medium in the price table.
    expect(cost(`{ ${A} { chains { unindexedChainIds } } }`)).toBe(20);
    // listLatestBlocksAllChains is Medium (20 CU), src/upstream/compute-units-table.ts.
    expect(cost('{ latestBlocks(first: 250) { edges { node { hash } } } }')).toBe(3 * 20);
    expect(
      cost('{ latestTransactions(first: 10, network: fuji) { edges { node { hash } } } }'),
    ).toBe(20);
  });
  it('a contract’s lists and links cost the contract plus their own calls', () => {
    expect(
      cost(
        `{ ${A} { contract { transfers(first: 100) { edges { cursor } } deploymentTransaction {
          hash } } } }`,
      ),
    ).toBe(20 + 20 + 20);
    expect(
      cost(
        `{ ${A} { contract { ... on Erc721Contract { token(tokenId: "1") { __typename } } } } }`,
      ),
    ).toBe(20 + 20);
    expect(
      cost('{ icmMessage(id: "00") { messageId } icmMessages(first: 200) { edges { cursor } } }'),
    ).toBe(20 + 2 * 20);
  });
});

describe('cache classes of the new resources', () => {
  const policy = createCachePolicy();
  it(
    'balance pages stay head data behind a token (their items change); transfer pages become ' +
      'token pages',
    () => {
      for (const r of [
        'data.erc20Balances',
        'data.erc721Balances',
        'data.erc1155Balances',
        'data.collectibleBalances',
        'data.icmMessagesAll',
      ] as const) {
        expect(policy.ttlFor(r, { pageToken: 'T', lastPage: false }).ttlMs).toBe(
          DEFAULT_TTL_MS.head,
        );
      }
      for (const r of [
        'data.tokenTransfers',
        'data.contractDeployments',
        'data.latestBlocksAllChains',
        'data.latestTransactionsAllChains',
      ] as const) {
        expect(policy.ttlFor(r).ttlMs).toBe(DEFAULT_TTL_MS.head);
        expect(policy.ttlFor(r, { pageToken: 'T', lastPage: false }).ttlMs).toBe(
          DEFAULT_TTL_MS.tokenPage,
        );
      }
      expect(RESOURCE_CLASS['data.deploymentTransaction']).toBe('immutable');
      expect(RESOURCE_CLASS['data.addressChains']).toBe('slow');
      expect(RESOURCE_CLASS['data.nftTokens']).toBe('slow');
    },
  );
});
