import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { createTestGateway, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import {
  expectBadInput,
  routeCalls,
  settle,
  upstreamGet,
  upstreamWalk,
  walk,
} from './primary-support.js';

/**
 * Contract.transfers (listTransfers), an NFT collection's tokens and one token (listTokens,
 * getTokenDetails), Address.deployedContracts and Contract.deploymentTransaction, the newest blocks
 * and transactions of every chain, chains(network, feature): each list walked across several
 * upstream pages against the upstream's own sequence, filters as the spec names them, bad arguments
 * refused before any call even below a contract (which costs a call to reach).
 */
const C = '43114';
const R = {
  contract: 'data-api GET /v1/chains/:chainId/addresses/:address',
  transfers: 'data-api GET /v1/chains/:chainId/tokens/:address/transfers',
  tokens: 'data-api GET /v1/chains/:chainId/nfts/collections/:address/tokens',
  token: 'data-api GET /v1/chains/:chainId/nfts/collections/:address/tokens/:tokenId',
  deployments: 'data-api GET /v1/chains/:chainId/contracts/:address/deployments',
  deployment: 'data-api GET /v1/chains/:chainId/contracts/:address/transactions:getDeployment',
  blocks: 'data-api GET /v1/blocks',
  txs: 'data-api GET /v1/transactions',
  chains: 'data-api GET /v1/chains',
};

let sim: RunningSimulator;
let gw: TestGateway;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, g, r) => {
  sim = s;
  gw = g;
  redisUrl = r;
});

const ok = (r: { errors?: unknown }) => expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
const pages = (n: number) => Math.max(1, Math.ceil(n / 100));

/** Walks a connection under `address(…) { contract { … } }` (on `type` when given). */
async function contractWalk(
  address: string,
  field: string,
  selection: string,
  first: number,
  args = '',
  type?: string,
) {
  const conn = `${field}(first: ${first}, after: $after${args}) { edges { node { ${selection} } }
    pageInfo { hasNextPage endCursor } }`;
  const query = `query($a: String!, $after: String) { address(chainId: "${C}", address: $a) {
    contract {
    ${type ? `... on ${type} { ${conn} }` : conn} } } }`;
  return walk(async (after) => {
    const r = await gw.query(query, { a: address, after });
    ok(r);
    return r.data!.address.contract[field];
  });
}

describe('Contract.transfers', () => {
  it('walks every transfer of an NFT collection in the upstream’s order, one call per upstream page', async () => {
    const nft = sim.world.fixtures.contracts.erc721;
    const up = await upstreamWalk(
      sim.dataApiUrl,
      `/v1/chains/${C}/tokens/${nft}/transfers`,
      'transfers',
    );
    expect(up.length).toBeGreaterThan(200);
    sim.reset();
    const edges = await contractWalk(
      nft,
      'transfers',
      '__typename txHash logIndex blockNumber from { address } to { address } ... on ' +
        'Erc721Transfer { token { tokenId } }',
      130,
    );
    expect(edges.map((e: any) => e.node)).toEqual(
      up.map((t) => ({
        __typename: 'Erc721Transfer',
        txHash: t.txHash,
        logIndex: t.logIndex,
        blockNumber: t.blockNumber,
        from: { address: t.from.address.toLowerCase() },
        to: { address: t.to.address.toLowerCase() },
        token: { tokenId: t.erc721Token.tokenId },
      })),
    );
    // Each request of the walk reads the contract (cached after the first) and the pages it covers.
    expect(routeCalls(sim)).toEqual({ [R.contract]: 1, [R.transfers]: pages(up.length) });
  });

  it('takes the block range as startBlock/endBlock, the spec’s names, and types each transfer', async () => {
    const token = sim.world.fixtures.contracts.erc20;
    const head = sim.world.head(C).number;
    const [startBlock, endBlock] = [head - 300, head - 100];
    const up = await upstreamWalk(
      sim.dataApiUrl,
      `/v1/chains/${C}/tokens/${token}/transfers`,
      'transfers',
      { startBlock, endBlock },
    );
    expect(up.length).toBeGreaterThan(100);
    const edges = await contractWalk(
      token,
      'transfers',
      '__typename txHash ... on Erc20Transfer { value }',
      500,
      `, startBlock: "${startBlock}", endBlock: "${endBlock}"`,
    );
    expect(edges.map((e: any) => e.node)).toEqual(
      up.map((t) => ({ __typename: 'Erc20Transfer', txHash: t.txHash, value: t.value })),
    );
  });

  it('refuses a bad range before any call, although reaching the contract costs one', async () => {
    const token = sim.world.fixtures.contracts.erc20;
    for (const [args, argument] of [
      [', startBlock: "10", endBlock: "10"', 'startBlock'],
      [', endBlock: "99999999999999999999999"', 'endBlock'],
    ] as const) {
      const r = await gw.query(
        `{ address(chainId: "${C}", address: "${token}") { contract { transfers(first: 5${args}) {
          edges { cursor } } } } }`,
      );
      expectBadInput(r, argument);
    }
    // Deep below a list too: a balance filter on an address reached through transfers.
    const deep = await gw.query(`{ address(chainId: "${C}", address: "${token}") { contract {
        transfers(first: 5) { edges { node {
      from { erc20Balances(contractAddresses: ["0xbad"]) { edges { cursor } } } } } } } } }`);
    expectBadInput(deep, 'contractAddresses');
    expect(sim.stats().total).toBe(0);
  });

  it("one document, several requests: the range is judged on each request's variables", async () => {
    // The fields a document's checks apply to are found once per parsed document; the values are
    // each request's own, so a good range after a bad one (and a bad one after a good one) is judged anew.
    const token = sim.world.fixtures.contracts.erc20;
    const doc = `query R($s: BigDecimal, $e: BigDecimal) { address(chainId: "${C}", address: "${token}") {
      contract { transfers(first: 2, startBlock: $s, endBlock: $e) { edges { cursor } } } } }`;
    expectBadInput(await gw.query(doc, { s: '10', e: '10' }), 'startBlock');
    expect(sim.stats().total).toBe(0);
    const good = await gw.query(doc, { s: '1', e: '99999999' });
    expect(good.errors).toBeUndefined();
    expect(sim.stats().total).toBeGreaterThan(0);
    sim.reset();
    expectBadInput(await gw.query(doc, { s: '30', e: '20' }), 'startBlock');
    expect(sim.stats().total).toBe(0);
  });
});

describe('NFT collections', () => {
  for (const kind of ['erc721', 'erc1155'] as const) {
    it(`${kind}: tokens walks the collection; token(tokenId) is getTokenDetails`, async () => {
      const address = sim.world.fixtures.contracts[kind];
      const type = kind === 'erc721' ? 'Erc721Contract' : 'Erc1155Contract';
      const up = await upstreamWalk(
        sim.dataApiUrl,
        `/v1/chains/${C}/nfts/collections/${address}/tokens`,
        'tokens',
      );
      expect(up.length).toBeGreaterThan(kind === 'erc721' ? 200 : 10);
      sim.reset();
      const sel =
        '__typename ... on Erc721Token { tokenId tokenUri owner { address } } ' +
        '... on Erc1155Token { tokenId tokenUri }';
      const edges = await contractWalk(address, 'tokens', sel, 90, '', type);
      expect(edges.map((e: any) => e.node)).toEqual(
        up.map((t) =>
          t.ercType === 'ERC-721'
            ? {
                __typename: 'Erc721Token',
                tokenId: t.tokenId,
                tokenUri: t.tokenUri,
                owner: t.ownerAddress ? { address: t.ownerAddress.toLowerCase() } : null,
              }
            : { __typename: 'Erc1155Token', tokenId: t.tokenId, tokenUri: t.tokenUri },
        ),
      );
      // The contract's metadata may already be cached by an earlier test; the pages are read once
      // each.
      const { [R.contract]: contractCalls = 0, ...rest } = routeCalls(sim);
      expect(contractCalls).toBeLessThanOrEqual(1);
      expect(rest).toEqual({ [R.tokens]: pages(up.length) });
      const one = up[Math.floor(up.length / 2)];
      const detail = await upstreamGet(
        sim.dataApiUrl,
        `/v1/chains/${C}/nfts/collections/${address}/tokens/${one.tokenId}`,
      );
      const r = await gw.query(`{ address(chainId: "${C}", address: "${address}") { contract { ...
          on ${type} {
        token(tokenId: "${one.tokenId}") { ... on Erc721Token { tokenId name metadata { name
          imageUri } } ... on Erc1155Token { tokenId metadata { name imageUri } } } } } } }`);
      ok(r);
      expect(r.data!.address.contract.token).toMatchObject({
        tokenId: detail.tokenId,
        metadata: { name: detail.metadata.name, imageUri: detail.metadata.imageUri },
      });
    });
  }

  it('a bad token id is refused before any call; an unknown one is NOT_FOUND', async () => {
    const address = sim.world.fixtures.contracts.erc721;
    const q = (id: string) =>
      gw.query(
        `{ address(chainId: "${C}", address: "${address}") { contract { ... on Erc721Contract {
          token(tokenId: "${id}") { __typename } } } } }`,
      );
    expectBadInput(await q('-1'), 'tokenId');
    expect(sim.stats().total).toBe(0);
    const missing = await q('99999999');
    expect(missing.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
  });
});

describe('deployments', () => {
  it(
    'Address.deployedContracts walks listContractDeployments across pages; each contract needs ' +
      'no further call',
    async () => {
      const chain = sim.world.chain(C)!;
      const counts = new Map<string, number>();
      for (const t of chain.transactions)
        if (t.createdContract) counts.set(t.from, (counts.get(t.from) ?? 0) + 1);
      const deployer = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
      const up = await upstreamWalk(
        sim.dataApiUrl,
        `/v1/chains/${C}/contracts/${deployer}/deployments`,
        'contracts',
        {},
        5,
      );
      expect(up.length).toBeGreaterThan(10);
      sim.reset();
      // A deployer has a few dozen contracts, fewer than one page of 100: this gateway asks for pages
      // of 5.
      const small = createTestGateway(sim, {
        redisUrl,
        tokenPageSizes: { contractDeployments: 5 },
      });
      const query = `query($after: String) { address(chainId: "${C}", address: "${deployer}") {
      deployedContracts(first: 7, after: $after) {
      edges { node { __typename address name deployment { txHash } } } pageInfo { hasNextPage
        endCursor } } } }`;
      const edges = await walk(async (after) => {
        const r = await small.query(query, { after });
        ok(r);
        return r.data!.address.deployedContracts;
      });
      await small.close();
      expect(edges.map((e: any) => e.node)).toEqual(
        up.map((c) => ({
          __typename: 'UnknownContract',
          address: c.address.toLowerCase(),
          name: c.name,
          deployment: { txHash: c.deploymentDetails.txHash },
        })),
      );
      expect(routeCalls(sim)).toEqual({ [R.deployments]: Math.ceil(up.length / 5) });
    },
  );

  it(
    'Contract.deploymentTransaction is the Transaction entity: one call, and its fields need no ' +
      'other',
    async () => {
      const created = sim.world.chain(C)!.transactions.find((t) => t.createdContract)!;
      const up = await upstreamGet(
        sim.dataApiUrl,
        `/v1/chains/${C}/contracts/${created.createdContract}/transactions:getDeployment`,
        { currency: 'eur' },
      );
      sim.reset();
      const query = `{ address(chainId: "${C}", address: "${created.createdContract}") { contract {
      deploymentTransaction(currency: EUR) {
      id hash from { address } input } } } }`;
      const cold = await gw.query(query);
      ok(cold);
      expect(cold.data!.address.contract.deploymentTransaction).toMatchObject({
        hash: up.nativeTransaction.txHash,
        from: { address: up.nativeTransaction.from.address.toLowerCase() },
        input: up.nativeTransaction.input,
      });
      expect(routeCalls(sim)).toEqual({ [R.contract]: 1, [R.deployment]: 1 });
      await settle(gw);
      sim.reset();
      expect((await gw.query(query)).data).toEqual(cold.data);
      expect(sim.stats().total).toBe(0);
    },
  );

  it(
    'in USD (the default) it stands for the get-transaction answer: the transaction’s transfers ' +
      'need no call',
    async () => {
      const created = sim.world.chain(C)!.transactions.filter((t) => t.createdContract)[1]!;
      const up = await upstreamGet(sim.dataApiUrl, `/v1/chains/${C}/transactions/${created.hash}`);
      sim.reset();
      const r =
        await gw.query(`{ address(chainId: "${C}", address: "${created.createdContract}") { contract
        { deploymentTransaction {
      hash erc20Transfers { logIndex } icmMessageInfo { messageId } } } } }`);
      ok(r);
      expect(r.data!.address.contract.deploymentTransaction).toEqual({
        hash: up.nativeTransaction.txHash,
        erc20Transfers: (up.erc20Transfers ?? []).map((t: any) => ({ logIndex: t.logIndex })),
        icmMessageInfo: null,
      });
      expect(routeCalls(sim)).toEqual({ [R.contract]: 1, [R.deployment]: 1 });
    },
  );
});

describe('across chains', () => {
  it('latestBlocks(network) walks listLatestBlocksAllChains in the upstream’s order', async () => {
    for (const network of [undefined, 'fuji']) {
      const expected = (
        await upstreamWalk(sim.dataApiUrl, '/v1/blocks', 'blocks', { network })
      ).slice(0, 250);
      sim.reset();
      const query = `query($after: String) { latestBlocks(first: 125, after: $after${
        network
          ? `,
        network: ${network}`
          : ''
      }) {
        edges { node { chainId number hash } } pageInfo { hasNextPage endCursor } } }`;
      const edges: any[] = [];
      let after: string | null = null;
      for (let i = 0; i < 2; i++) {
        const r = await gw.query(query, { after });
        ok(r);
        edges.push(...r.data!.latestBlocks.edges);
        after = r.data!.latestBlocks.pageInfo.endCursor;
      }
      expect(edges.map((e) => e.node)).toEqual(
        expected.map((b) => ({ chainId: b.chainId, number: b.blockNumber, hash: b.blockHash })),
      );
      expect(new Set(edges.map((e) => e.node.chainId)).size).toBe(network ? 1 : 3);
      expect(routeCalls(sim)).toEqual({ [R.blocks]: 3 });
    }
  });

  it('latestTransactions(network, status) walks listLatestTransactionsAllChains', async () => {
    const expected = (
      await upstreamWalk(sim.dataApiUrl, '/v1/transactions', 'transactions', {
        network: 'mainnet',
        status: 'failed',
      })
    ).slice(0, 150);
    expect(expected.length).toBe(150);
    sim.reset();
    const r = await gw.query(
      `{ latestTransactions(first: 150, network: mainnet, status: FAILED) { edges { node { chainId
        hash } } pageInfo { hasNextPage } } }`,
    );
    ok(r);
    expect(r.data!.latestTransactions.edges.map((e: any) => e.node)).toEqual(
      expected.map((t) => ({ chainId: t.chainId, hash: t.txHash })),
    );
    expect(routeCalls(sim)).toEqual({ [R.txs]: 2 });
  });

  it('chains(network, feature) passes both filters; without them it is the shared all-chains answer', async () => {
    const up = await upstreamGet(sim.dataApiUrl, '/v1/chains', {
      network: 'mainnet',
      feature: 'nftIndexing',
    });
    const all = await upstreamGet(sim.dataApiUrl, '/v1/chains');
    expect(up.chains.length).toBeLessThan(all.chains.length);
    sim.reset();
    const r = await gw.query(
      '{ filtered: chains(network: mainnet, feature: NFT_INDEXING) { chainId name } all: chains ' +
        '{ chainId } }',
    );
    ok(r);
    expect(r.data!.filtered).toEqual(
      up.chains.map((c: any) => ({ chainId: c.chainId, name: c.chainName })),
    );
    expect(r.data!.all).toEqual(all.chains.map((c: any) => ({ chainId: c.chainId })));
    expect(routeCalls(sim)).toEqual({ [R.chains]: 2 });
  });
});
