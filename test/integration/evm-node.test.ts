import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { EvmNodeDocument, EvmNodesDocument } from '../__generated__/graphql.js';
import * as X from '../support/evm-expected.js';
import {
  codes,
  createTestGateway,
  type TestGateway,
  useSimAndGateway,
} from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/** node(id) / nodes(ids): every EVM node type round-trips; malformed and unknown ids are typed errors. */
const C = '43114';
let sim: RunningSimulator;
let gw: TestGateway;

useSimAndGateway({}, (s, g) => {
  sim = s;
  gw = g;
});

const raw = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

describe('node(id) round-trips every EVM node type', () => {
  it('Address, Transaction, Block, Chain and each kind of contract', async () => {
    const f = sim.world.fixtures;
    const tx = await simGet(sim.dataApiUrl, `/v1/chains/${C}/transactions/${f.txHash}`);
    const cases: [string, Record<string, unknown>][] = [
      [
        X.addressId(C, f.busyAddress),
        { __typename: 'Address', chainId: C, address: f.busyAddress.toLowerCase() },
      ],
      [X.transactionId(C, f.txHash), { __typename: 'Transaction', chainId: C, hash: f.txHash }],
      [
        X.blockId(C, String(f.blockNumber)),
        { __typename: 'Block', chainId: C, number: String(f.blockNumber), hash: f.blockHash },
      ],
      [X.chainId(C), { __typename: 'Chain', chainId: C }],
    ];
    for (const address of Object.values(f.contracts)) {
      const c = await simGet(sim.dataApiUrl, `/v1/chains/${C}/addresses/${address}`);
      const typename = {
        'ERC-20': 'Erc20Contract',
        'ERC-721': 'Erc721Contract',
        'ERC-1155': 'Erc1155Contract',
        UNKNOWN: 'UnknownContract',
      }[c.ercType as string]!;
      cases.push([
        X.contractId(typename, C, address),
        {
          __typename: typename,
          chainId: C,
          address: address.toLowerCase(),
          ercType: X.ercEnum(c.ercType),
          name: c.name,
        },
      ]);
    }
    expect(tx.nativeTransaction.txHash).toBe(f.txHash);
    for (const [id, expected] of cases) {
      const r = await gw.exec(EvmNodeDocument, { id });
      expect(r.errors).toBeUndefined();
      expect(r.data!.node).toEqual({ id, ...expected });
    }
    const all = await gw.exec(EvmNodesDocument, { ids: cases.map(([id]) => id) });
    expect(all.errors).toBeUndefined();
    expect(all.data!.nodes).toEqual(cases.map(([id, e]) => ({ id, __typename: e.__typename })));
  });

  it('an address id needs no call beyond its chain (validated once, cached)', async () => {
    const fresh = createTestGateway(sim);
    const id = X.addressId(C, sim.world.fixtures.ordinaryAddress);
    expect((await fresh.exec(EvmNodeDocument, { id })).data!.node!.id).toBe(id);
    expect((await fresh.exec(EvmNodeDocument, { id })).data!.node!.id).toBe(id);
    expect(sim.stats().byRoute).toEqual({ 'data-api GET /v1/chains/:chainId': 1 });
    await fresh.close();
  });
});

describe('bad ids are typed errors', () => {
  const hex40 = 'ab'.repeat(20);
  const hex64 = 'cd'.repeat(32);
  const malformed = [
    '!!!',
    raw('Address:43114'),
    raw('Address:43114:0x1234'),
    raw(`Address:not a chain:0x${hex40}`),
    raw('Transaction:43114:0x12'),
    raw('Block:43114:latest'),
    raw(`Erc20Contract:43114:${hex40}`),
  ];

  it.each(malformed)('malformed %s → BAD_USER_INPUT before any call', async (id) => {
    const r = await gw.exec(EvmNodeDocument, { id });
    expect(r.data?.node ?? null).toBeNull();
    expect(codes(r)).toEqual(['BAD_USER_INPUT']);
    expect(sim.stats().total).toBe(0);
  });

  it('unknown ids → NOT_FOUND: a chain, a transaction, a contract of another kind, an address that is no contract', async () => {
    const f = sim.world.fixtures;
    const unknown = [
      raw(`Address:999999:0x${hex40}`),
      raw(`Transaction:43114:0x${hex64}`),
      raw('Chain:999999'),
      raw(`Erc20Contract:43114:${f.contracts.erc721}`),
      raw(`Erc721Contract:43114:${f.busyAddress}`),
    ];
    for (const id of unknown) {
      const r = await gw.exec(EvmNodeDocument, { id });
      expect(r.data?.node ?? null).toBeNull();
      expect(codes(r)).toEqual(['NOT_FOUND']);
    }
  });
});
