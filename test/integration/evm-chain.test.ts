import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  ChainAddressDocument,
  ChainDocument,
  ChainsDocument,
  ChainTransactionsDocument,
  type ChainTransactionsQuery,
  type ChainTransactionsQueryVariables,
} from '../__generated__/graphql.js';
import * as X from '../support/evm-expected.js';
import { codes, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/** chains, chain(id): info, latest transactions with the status filter, the address shortcut. */
const C = '43114';
let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

function expectedChain(c: any) {
  return {
    id: X.chainId(c.chainId),
    chainId: c.chainId,
    name: c.chainName,
    description: c.description,
    status: c.status,
    vmName: c.vmName,
    vmId: c.vmId ?? null,
    subnetId: c.subnetId ?? null,
    platformChainId: c.platformChainId ?? null,
    isTestnet: c.isTestnet,
    rpcUrl: c.rpcUrl,
    wsUrl: c.wsUrl ?? null,
    explorerUrl: c.explorerUrl ?? null,
    logoUri: c.chainLogoUri ?? null,
    isPrivate: c.private ?? null,
    multicallAddress: c.utilityAddresses?.multicall?.toLowerCase() ?? null,
    enabledFeatures: c.enabledFeatures ?? [],
    networkToken: {
      name: c.networkToken.name,
      symbol: c.networkToken.symbol,
      decimals: c.networkToken.decimals,
      logoUri: c.networkToken.logoUri ?? null,
      description: c.networkToken.description ?? null,
    },
  };
}

async function upstreamLatest(
  query: Record<string, string> = {},
  limit = Infinity,
): Promise<any[]> {
  const out: any[] = [];
  let pageToken: string | undefined;
  do {
    const page = await simGet(sim.dataApiUrl, `/v1/chains/${C}/transactions`, {
      ...query,
      pageSize: 100,
      pageToken,
    });
    out.push(...page.transactions);
    pageToken = page.nextPageToken || undefined;
  } while (pageToken && out.length < limit);
  return out;
}

describe('chains and chain(id)', () => {
  it('chains lists every supported chain with every field; chain(id) by EVM id and by blockchain id', async () => {
    const upstream = (await simGet(sim.dataApiUrl, '/v1/chains')).chains;
    const r = await gw.exec(ChainsDocument, {});
    expect(r.errors).toBeUndefined();
    expect(r.data!.chains).toEqual(upstream.map(expectedChain));
    for (const c of upstream) {
      const one = await gw.exec(ChainDocument, { id: c.chainId });
      expect(one.data!.chain).toEqual(
        expectedChain(await simGet(sim.dataApiUrl, `/v1/chains/${c.chainId}`)),
      );
      if (c.platformChainId) {
        const byBlockchainId = await gw.exec(ChainDocument, { id: c.platformChainId });
        expect(byBlockchainId.data!.chain).toEqual(one.data!.chain);
      }
    }
  });

  it('an unknown chain is NOT_FOUND (on each chain-info field asked: the chain itself loads lazily)', async () => {
    const r = await gw.exec(ChainDocument, { id: '999999' });
    expect(r.data!.chain).toBeNull();
    expect(codes(r).length).toBeGreaterThan(0);
    expect(new Set(codes(r))).toEqual(new Set(['NOT_FOUND']));
  });
});

describe('chain(id).transactions — latest transactions', () => {
  it('pages the failed ones to their end, every upstream item once', async () => {
    const expected = await upstreamLatest({ status: 'failed' });
    expect(expected.length).toBeGreaterThan(200);
    const seen: any[] = [];
    let after: string | null = null;
    for (;;) {
      const r: Awaited<
        ReturnType<typeof gw.exec<ChainTransactionsQuery, ChainTransactionsQueryVariables>>
      > = await gw.exec(ChainTransactionsDocument, {
        chainId: C,
        first: 200,
        after,
        status: 'FAILED',
      });
      expect(r.errors).toBeUndefined();
      const conn = r.data!.chain!.transactions!;
      seen.push(...conn.edges.map((e) => e.node));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor!;
    }
    expect(seen).toEqual(expected.map(X.transaction));
    expect(seen.every((t) => t.status === '0')).toBe(true);
  });

  it('unfiltered and successful lists match the upstream; a cursor is bound to its status filter', async () => {
    const all = await upstreamLatest({}, 300);
    const r = await gw.exec(ChainTransactionsDocument, { chainId: C, first: 300 });
    expect(r.data!.chain!.transactions!.edges.map((e) => e.node)).toEqual(
      all.slice(0, 300).map(X.transaction),
    );
    const ok = await upstreamLatest({ status: 'success' }, 120);
    const s = await gw.exec(ChainTransactionsDocument, {
      chainId: C,
      first: 120,
      status: 'SUCCESS',
    });
    expect(s.data!.chain!.transactions!.edges.map((e) => e.node.hash)).toEqual(
      ok.slice(0, 120).map((t) => t.txHash),
    );
    sim.reset();
    const mixed = await gw.exec(ChainTransactionsDocument, {
      chainId: C,
      first: 5,
      status: 'FAILED',
      after: s.data!.chain!.transactions!.pageInfo.endCursor,
    });
    expect(codes(mixed)).toEqual(['BAD_USER_INPUT']);
    expect(mixed.errors![0]!.extensions!.argument).toBe('after');
  });
});

describe('chain(id).address(address)', () => {
  it('is the address on that chain, with the chain’s EVM id in its key', async () => {
    const busy = sim.world.fixtures.busyAddress;
    const balance = (
      await simGet(sim.dataApiUrl, `/v1/chains/${C}/addresses/${busy}/balances:getNative`)
    ).nativeTokenBalance;
    const chain = (await simGet(sim.dataApiUrl, `/v1/chains/${C}`)) as any;
    const r = await gw.exec(ChainAddressDocument, {
      chainId: chain.platformChainId,
      address: busy,
    });
    expect(r.errors).toBeUndefined();
    expect(r.data!.chain!.address).toEqual({
      id: X.addressId(C, busy),
      chainId: C,
      address: busy.toLowerCase(),
      chain: { chainId: C },
      balance: { balance: balance.balance },
    });
    // address(chainId, address) keys the address by the EVM chain id too, whichever id the client gave
    const direct = await gw.query(
      `{ address(chainId: "${chain.platformChainId}", address: "${busy}") { id chainId } }`,
    );
    expect(direct.data!.address).toEqual({ id: X.addressId(C, busy), chainId: C });
  });
});
