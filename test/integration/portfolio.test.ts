import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  AddressCollectiblesDocument,
  AddressPortfolioDocument,
  ContractTransfersDocument,
  IcmMessagesAllDocument,
  LatestBlocksAcrossChainsDocument,
} from '../__generated__/graphql.js';
import { type TestGateway, useSimAndGateway } from '../support/gateway.js';
import {
  expectBadInput,
  type Query,
  routeCalls,
  settle,
  upstreamGet,
  upstreamWalk,
  walk,
} from './primary-support.js';

/**
 * An address's portfolio: ERC-20, ERC-721, ERC-1155 and collectible balances as connections over
 * the upstream's pages (walked across several pages: the gateway here asks for small balance pages,
 * since a simulated address holds fewer tokens than one page of 500), every filter passed as the
 * spec names it, bad filters refused before any call, each token's contract loaded once per
 * distinct contract.
 */
const C = '43114';
const PAGE = 3;
const A = (r: string) => `data-api GET /v1/chains/:chainId/addresses/:address/balances:${r}`;
const CONTRACT_ROUTE = 'data-api GET /v1/chains/:chainId/addresses/:address';

let sim: RunningSimulator;
let gw: TestGateway;
let busy: string;
useSimAndGateway({ redis: true, gateway: { tokenPageSizes: { balances: PAGE } } }, (s, g) => {
  sim = s;
  gw = g;
  busy = sim.world.fixtures.busyAddress;
});

const base = (address: string) => `/v1/chains/${C}/addresses/${address}/balances`;
const tooMany = Array.from({ length: 101 }, (_, i) => `"0x${i.toString(16).padStart(40, '0')}"`);
const ok = (r: { errors?: unknown }) => expect(r.errors).toBeUndefined();

async function gatewayWalk(
  field: string,
  args: string,
  selection: string,
  first: number,
  address = busy,
  vars: Record<string, unknown> = {},
) {
  const decl = Object.keys(vars)
    .map((k) => `, $${k}: ${VAR_TYPES[k]}`)
    .join('');
  const query = `query($a: String!, $after: String${decl}) { address(chainId: "${C}", address: $a) {
    ${field}(first: ${first}, after: $after${args}) {
      edges { cursor node { ${selection} } } pageInfo { hasNextPage endCursor } } } }`;
  return walk(async (after) => {
    const r = await gw.query(query, { a: address, after, ...vars });
    ok(r);
    return r.data!.address[field];
  });
}
const VAR_TYPES: Record<string, string> = {
  contracts: '[String!]',
  block: 'BigDecimal',
  contract: 'String',
};

const ERC20 =
  'address name symbol decimals balance tokenReputation price { currencyCode value } ' +
  'balanceValue { currencyCode value }';
// EVM addresses in lower case (docs/schema-conventions.md), whatever case the upstream sent.
const erc20Of = (b: any) => ({
  address: b.address.toLowerCase(),
  name: b.name,
  symbol: b.symbol,
  decimals: b.decimals,
  balance: b.balance,
  tokenReputation: b.tokenReputation?.toUpperCase() ?? null,
  price: b.price
    ? { currencyCode: b.price.currencyCode.toUpperCase(), value: String(b.price.value) }
    : null,
  balanceValue: b.balanceValue
    ? {
        currencyCode: b.balanceValue.currencyCode.toUpperCase(),
        value: String(b.balanceValue.value),
      }
    : null,
});
const E721 = 'tokenId token { address tokenUri owner { address } }';
const E1155 = 'tokenId balance token { address tokenUri }';
const NFT = `... on Erc721Balance { ${E721} } ... on Erc1155Balance { ${E1155} }`;
const SELECTION: Record<string, string> = {
  erc721Balances: E721,
  erc1155Balances: E1155,
  collectibleBalances: `__typename ${NFT}`,
};
const nftOf = (b: any) =>
  b.ercType === 'ERC-721'
    ? {
        tokenId: b.tokenId,
        token: {
          address: b.address.toLowerCase(),
          tokenUri: b.tokenUri,
          owner: { address: b.ownerAddress.toLowerCase() },
        },
      }
    : {
        tokenId: b.tokenId,
        balance: b.balance,
        token: { address: b.address.toLowerCase(), tokenUri: b.tokenUri },
      };

/**
 * The upstream's own sequence, walked at the gateway's page size, and the number of pages it took.
 */
async function upstream(route: string, field: string, query: Query = {}, address = busy) {
  const items = await upstreamWalk(sim.dataApiUrl, `${base(address)}:${route}`, field, query, PAGE);
  return { items, pages: Math.max(1, Math.ceil(items.length / PAGE)) };
}

describe('Address balance connections walk the upstream’s own sequence across pages', () => {
  it('erc20Balances: every token, in the upstream’s order and amounts, one call per upstream page', async () => {
    const up = await upstream('listErc20', 'erc20TokenBalances');
    expect(up.items.length).toBeGreaterThan(PAGE);
    sim.reset();
    const edges = await gatewayWalk('erc20Balances', '', ERC20, 3);
    expect(edges.map((e: any) => e.node)).toEqual(up.items.map(erc20Of));
    // Cursors resume inside the head snapshot's pages: each upstream page is read once.
    expect(routeCalls(sim)).toEqual({ [A('listErc20')]: up.pages });
  });

  for (const [field, route, list] of [
    ['erc721Balances', 'listErc721', 'erc721TokenBalances'],
    ['erc1155Balances', 'listErc1155', 'erc1155TokenBalances'],
    ['collectibleBalances', 'listCollectibles', 'collectibleBalances'],
  ] as const) {
    it(`${field}: every token, in the upstream’s order`, async () => {
      const up = await upstream(route, list);
      expect(up.items.length).toBeGreaterThan(3 * PAGE);
      sim.reset();
      const edges = await gatewayWalk(field, '', SELECTION[field]!, 7);
      expect(edges.map((e: any) => e.node).map(({ __typename, ...rest }: any) => rest)).toEqual(
        up.items.map(nftOf),
      );
      if (field === 'collectibleBalances') {
        expect(new Set(edges.map((e: any) => e.node.__typename))).toEqual(
          new Set(['Erc721Balance', 'Erc1155Balance']),
        );
      }
      expect(routeCalls(sim)).toEqual({ [A(route)]: up.pages });
    });
  }
});

describe('filters reach the upstream exactly as the spec names and serialises them', () => {
  it('erc20Balances: currency, blockNumber, contractAddresses and filterSpamTokens', async () => {
    const all = await upstream('listErc20', 'erc20TokenBalances', { filterSpamTokens: 'false' });
    const spam = all.items.filter((b) => b.tokenReputation === 'Malicious');
    expect(spam.length).toBeGreaterThan(0);
    const two = all.items.slice(0, 2).map((b) => b.address);
    const block = String(sim.world.head(C).number - 40);
    const query: Query = {
      filterSpamTokens: 'false',
      currency: 'eur',
      blockNumber: block,
      contractAddresses: two.join(','),
    };
    const up = await upstream('listErc20', 'erc20TokenBalances', query);
    expect(up.items.map((b) => b.address)).toEqual(two);
    sim.reset();
    const edges = await gatewayWalk(
      'erc20Balances',
      ', filterSpamTokens: false, currency: EUR, blockNumber: $block, contractAddresses: ' +
        '$contracts',
      ERC20,
      50,
      busy,
      { block, contracts: [...two].reverse().map((x) => x.toUpperCase().replace('0X', '0x')) },
    );
    expect(edges.map((e: any) => e.node)).toEqual(up.items.map(erc20Of));
    expect((edges[0] as any).node.price.currencyCode).toBe('EUR');
    // Spam is left out by default, as the spec's default says.
    const byDefault = await gatewayWalk('erc20Balances', '', 'address', 50);
    expect(byDefault.map((e: any) => e.node.address)).toEqual(
      all.items
        .filter((b) => b.tokenReputation !== 'Malicious')
        .map((b) => b.address.toLowerCase()),
    );
  });

  it('erc1155Balances at a block and of one contract; erc721 and collectibles of one contract', async () => {
    const block = String(sim.world.head(C).number - 100);
    const contract = sim.world.fixtures.contracts.erc1155;
    const up = await upstream('listErc1155', 'erc1155TokenBalances', {
      blockNumber: block,
      contractAddress: contract,
    });
    expect(up.items.length).toBeGreaterThan(0);
    const edges = await gatewayWalk(
      'erc1155Balances',
      ', blockNumber: $block, contractAddress: $contract',
      E1155,
      50,
      busy,
      { block, contract },
    );
    expect(edges.map((e: any) => e.node)).toEqual(up.items.map(nftOf));
    const nft = sim.world.fixtures.contracts.erc721;
    for (const [field, route, list] of [
      ['erc721Balances', 'listErc721', 'erc721TokenBalances'],
      ['collectibleBalances', 'listCollectibles', 'collectibleBalances'],
    ] as const) {
      const one = await upstream(route, list, { contractAddress: nft });
      expect(one.items.length).toBeGreaterThan(0);
      expect(new Set(one.items.map((b) => b.address))).toEqual(new Set([nft]));
      const got = await gatewayWalk(
        field,
        ', contractAddress: $contract',
        field === 'erc721Balances' ? E721 : NFT,
        50,
        busy,
        { contract: nft },
      );
      expect(got.map((e: any) => e.node)).toEqual(one.items.map(nftOf));
    }
  });

  it('bad filter values are refused before any upstream call', async () => {
    const q = (field: string, args: string) =>
      gw.query(
        `{ address(chainId: "${C}", address: "${busy}") { ${field}(first: 5${args}) { edges {
          cursor } } } }`,
      );
    const cases: [string, string, string][] = [
      ['erc20Balances', ', contractAddresses: ["0xnope"]', 'contractAddresses'],
      ['erc20Balances', ', contractAddresses: []', 'contractAddresses'],
      ['erc20Balances', `, contractAddresses: [${tooMany.join(',')}]`, 'contractAddresses'],
      ['erc20Balances', ', blockNumber: "-1"', 'blockNumber'],
      ['erc20Balances', ', blockNumber: "12"', ''],
      ['erc721Balances', ', contractAddress: "0x123"', 'contractAddress'],
      ['erc1155Balances', ', blockNumber: "99999999999999999999999"', 'blockNumber'],
      ['erc1155Balances', ', contractAddress: "nope"', 'contractAddress'],
      ['collectibleBalances', ', contractAddress: ""', 'contractAddress'],
      ['erc20Balances', ', after: "garbage"', 'after'],
    ];
    for (const [field, args, argument] of cases.filter(([, , a]) => a !== '')) {
      const r = await q(field, args);
      expectBadInput(r, argument);
    }
    // Not a decimal at all: the BigDecimal scalar refuses it while coercing the arguments.
    for (const bad of ['12.5', 'abc', '1e3']) {
      const r = await q('erc20Balances', `, blockNumber: "${bad}"`);
      expect(r.errors?.map((e) => e.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    }
    const wrongType = await q('erc20Balances', ', currency: BTC');
    expect(wrongType.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(sim.stats().total).toBe(0);
  });
});

describe('each token links to its Contract: cold 1 + distinct contracts, warm 0', () => {
  it('erc20Balances with their contracts', async () => {
    const other = sim.world.fixtures.busyAddresses[1]!;
    const body = await upstreamGet(sim.dataApiUrl, `${base(other)}:listErc20`, { pageSize: PAGE });
    const distinct = new Set(body.erc20TokenBalances.map((b: any) => b.address.toLowerCase()));
    sim.reset();
    const query = `{ address(chainId: "${C}", address: "${other}") { erc20Balances(first: ${PAGE}) {
      edges { node { symbol contract { __typename address name ... on Erc20Contract { decimals } }
        } } } } }`;
    const cold = await gw.query(query);
    ok(cold);
    const nodes = cold.data!.address.erc20Balances.edges.map((e: any) => e.node);
    expect(nodes).toHaveLength(PAGE);
    for (const n of nodes)
      expect(n.contract).toMatchObject({
        __typename: 'Erc20Contract',
        address: expect.any(String),
      });
    expect(routeCalls(sim)).toEqual({ [A('listErc20')]: 1, [CONTRACT_ROUTE]: distinct.size });
    await settle(gw);
    sim.reset();
    const warm = await gw.query(query);
    expect(warm.data).toEqual(cold.data);
    expect(sim.stats().total).toBe(0);
  });

  it('a page of owned NFTs, many per collection, resolves each collection once', async () => {
    const other = sim.world.fixtures.busyAddresses[2]!;
    const body = await upstreamGet(sim.dataApiUrl, `${base(other)}:listCollectibles`, {
      pageSize: PAGE,
    });
    const distinct = new Set(body.collectibleBalances.map((b: any) => b.address.toLowerCase()));
    // Paged at 4, a page holds several tokens of one collection: deduplication is what is shown.
    expect(distinct.size).toBeLessThan(body.collectibleBalances.length);
    sim.reset();
    const query = `{ address(chainId: "${C}", address: "${other}") {
      collectibleBalances(first: ${PAGE}) {
      edges { node { ... on Erc721Balance { contract { name } } ... on Erc1155Balance { contract {
        name } } } } } } }`;
    const cold = await gw.query(query);
    ok(cold);
    expect(routeCalls(sim)).toEqual({
      [A('listCollectibles')]: 1,
      [CONTRACT_ROUTE]: distinct.size,
    });
    await settle(gw);
    sim.reset();
    expect((await gw.query(query)).data).toEqual(cold.data);
    expect(sim.stats().total).toBe(0);
  });
});

describe('Address.chains', () => {
  it('is listAddressChains: indexed chains as Chain entities (no further call) and unindexed ids', async () => {
    const up = await upstreamGet(sim.dataApiUrl, `/v1/address/${busy}/chains`);
    expect(up.indexedChains.length).toBeGreaterThan(1);
    sim.reset();
    const r = await gw.query(
      `{ address(chainId: "${C}", address: "${busy}") { chains { indexedChains { chainId name }
        unindexedChainIds } } }`,
    );
    ok(r);
    expect(r.data!.address.chains).toEqual({
      indexedChains: up.indexedChains.map((c: any) => ({ chainId: c.chainId, name: c.chainName })),
      unindexedChainIds: up.unindexedChains,
    });
    expect(routeCalls(sim)).toEqual({ 'data-api GET /v1/address/:address/chains': 1 });
  });
});

describe('the example operations (schema/operations/portfolio.graphql)', () => {
  it('each answers in full against the simulator', async () => {
    const f = sim.world.fixtures;
    const portfolio = await gw.exec(AddressPortfolioDocument, {
      chainId: C,
      address: busy,
      first: 2,
    });
    ok(portfolio);
    expect(portfolio.data!.address!.erc20Balances!.edges).toHaveLength(2);
    expect(portfolio.data!.address!.erc20Balances!.edges[0]!.node.contract?.__typename).toBe(
      'Erc20Contract',
    );
    expect(portfolio.data!.address!.chains!.indexedChains.length).toBeGreaterThan(0);
    const collectibles = await gw.exec(AddressCollectiblesDocument, {
      chainId: C,
      address: busy,
      first: 5,
    });
    ok(collectibles);
    expect(collectibles.data!.address!.collectibleBalances!.edges).toHaveLength(5);
    const transfers = await gw.exec(ContractTransfersDocument, {
      chainId: C,
      address: f.contracts.erc20,
      first: 5,
    });
    ok(transfers);
    expect(
      transfers.data!.address!.contract!.transfers!.edges.map((e) => e.node.__typename),
    ).toEqual(Array(5).fill('Erc20Transfer'));
    const blocks = await gw.exec(LatestBlocksAcrossChainsDocument, {
      network: 'fuji' as never,
      first: 5,
    });
    ok(blocks);
    expect(new Set(blocks.data!.latestBlocks!.edges.map((e) => e.node.chainId))).toEqual(
      new Set(['43113']),
    );
    const icm = await gw.exec(IcmMessagesAllDocument, { network: 'mainnet', first: 5 });
    ok(icm);
    expect(icm.data!.icmMessages!.edges).toHaveLength(5);
  });
});
