import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import {
  AddressIcmMessagesDocument,
  IcmMessageLinksDocument,
  IcmMessagesDocument,
  IcmNodeDocument,
  IcmNodeTwiceDocument,
} from '../__generated__/graphql.js';
import {
  codes,
  createTestGateway,
  type TestGateway,
  useSimAndGateway,
} from '../support/gateway.js';
import { flushRedisDb } from '../support/sim.js';
import { globalId, orNull, routeCalls, settle, upstreamWalk, walk } from './primary-support.js';

/** icmMessages(address) and Address.icmMessages: every status typed, every reference followable. */
const LIST_ROUTE = 'data-api GET /v1/icm/addresses/:address/messages';
const ONE_ROUTE = 'data-api GET /v1/icm/messages/:messageId';
const TYPE: Record<string, string> = {
  pending: 'PendingIcmMessage',
  delivered: 'DeliveredIcmMessage',
  delivered_source_not_indexed: 'DeliveredSourceNotIndexedIcmMessage',
};

let sim: RunningSimulator;
let gw: TestGateway;
/** The address with the most messages, and the recipient of a message from a chain nobody indexes. */
let busy: string;
let unindexedRecipient: string;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, g, r) => {
  sim = s;
  gw = g;
  redisUrl = r;
  busy = sim.world.fixtures.icmAddress;
  unindexedRecipient = sim.world.icm.messages.find(
    (m) => m.status === 'delivered_source_not_indexed',
  )!.to;
});

const lower = (s: string) => s.toLowerCase();
const destination = (d: any) => ({
  txHash: d.txHash,
  timestamp: d.timestamp,
  gasSpent: d.gasSpent,
  rewardRedeemer: { address: lower(d.rewardRedeemer) },
  delivererAddress: { address: lower(d.delivererAddress) },
});

/** The GraphQL rendering of one upstream message (IcmMessageFields). */
function expectedMessage(m: any) {
  const type = TYPE[m.status]!;
  const r = m.rewardDetails;
  const out: Record<string, unknown> = {
    __typename: type,
    // Stable for the message's life (docs/schema-conventions.md): the interface's name.
    id: globalId('IcmMessage', m.messageId),
    messageId: m.messageId,
    status: m.status.toUpperCase(),
    // EVM addresses in lower case (docs/schema-conventions.md), whatever case the upstream sent.
    icmContractAddress: lower(m.icmContractAddress),
    sourceBlockchainId: m.sourceBlockchainId,
    destinationBlockchainId: m.destinationBlockchainId,
    sourceEvmChainId: m.sourceEvmChainId,
    destinationEvmChainId: m.destinationEvmChainId,
    messageNonce: m.messageNonce,
    from: lower(m.from),
    to: lower(m.to),
    data: orNull(m.data),
    messageExecuted: m.messageExecuted,
    receipts: m.receipts.map((x: any) => ({
      ...x,
      relayerRewardAddress: lower(x.relayerRewardAddress),
    })),
    receiptDelivered: m.receiptDelivered,
    rewardDetails: {
      address: lower(r.address),
      name: r.name,
      symbol: r.symbol,
      decimals: r.decimals,
      logoUri: orNull(r.logoUri),
      ercType: r.ercType,
      price: r.price
        ? { currencyCode: r.price.currencyCode.toUpperCase(), value: String(r.price.value) }
        : null,
      value: r.value,
      token: { chainId: m.sourceEvmChainId, address: lower(r.address) },
    },
    sender: { chainId: m.sourceEvmChainId, address: lower(m.from) },
    recipient: { chainId: m.destinationEvmChainId, address: lower(m.to) },
  };
  if (m.sourceTransaction) out.sourceTransaction = m.sourceTransaction;
  if (m.destinationTransaction) out.destinationTransaction = destination(m.destinationTransaction);
  return out;
}

const messages = (address: string, first: number, network?: string) =>
  walk(async (after) => {
    const r = await gw.exec(IcmMessagesDocument, { address, network, first, after });
    expect(r.errors).toBeUndefined();
    return r.data!.icmMessages!;
  });

describe('icmMessages(address): a connection typed by status', () => {
  it('pages every message of the busiest address to the end, every field the upstream’s', async () => {
    const expected = await upstreamWalk(
      sim.dataApiUrl,
      `/v1/icm/addresses/${busy}/messages`,
      'messages',
    );
    expect(expected.length).toBeGreaterThan(100);
    sim.reset();
    const edges = await messages(busy.toUpperCase().replace('0X', '0x'), 35);
    expect(edges.map((e) => e.node)).toEqual(expected.map(expectedMessage));
    expect(new Set(edges.map((e) => e.node.messageId)).size).toBe(expected.length);
    expect(routeCalls(sim)).toEqual({ [LIST_ROUTE]: Math.ceil(expected.length / 100) });
  });

  it('every status appears, delivered-source-not-indexed included, each with its own fields', async () => {
    const statuses = new Set<string>();
    for (const address of [busy, unindexedRecipient]) {
      const expected = await upstreamWalk(
        sim.dataApiUrl,
        `/v1/icm/addresses/${address}/messages`,
        'messages',
      );
      const edges = await messages(address, 100);
      expect(edges.map((e) => e.node)).toEqual(expected.map(expectedMessage));
      for (const e of edges) statuses.add(e.node.__typename);
    }
    expect(statuses).toEqual(new Set(Object.values(TYPE)));
  });

  it('the network filter: fuji and testnet are one list; Address.icmMessages is the same list', async () => {
    const fujiMsg = sim.world.icm.messages.find((m) => m.network === 'fuji');
    const address = fujiMsg?.from ?? busy;
    const expected = await upstreamWalk(
      sim.dataApiUrl,
      `/v1/icm/addresses/${address}/messages`,
      'messages',
      { network: 'fuji' },
    );
    const viaFuji = await messages(address, 50, 'fuji');
    expect(viaFuji.map((e) => e.node.messageId)).toEqual(expected.map((m) => m.messageId));
    await settle(gw);
    sim.reset();
    const viaTestnet = await messages(address, 50, 'testnet');
    expect(viaTestnet.map((e) => e.node.messageId)).toEqual(expected.map((m) => m.messageId));
    expect(sim.stats().total).toBe(0);
    const mainnet = await upstreamWalk(
      sim.dataApiUrl,
      `/v1/icm/addresses/${busy}/messages`,
      'messages',
      { network: 'mainnet' },
    );
    const viaAddress = await walk(
      async (after) =>
        (
          await gw.exec(AddressIcmMessagesDocument, {
            chainId: '43114',
            address: busy,
            network: 'mainnet',
            first: 60,
            after,
          })
        ).data!.address!.icmMessages!,
    );
    expect(viaAddress.map((e) => e.node.messageId)).toEqual(mainnet.map((m) => m.messageId));
  });

  it('follows the source transaction, both chains, and (when the source is not indexed) the delivery', async () => {
    for (const address of [busy, unindexedRecipient]) {
      const r = await gw.exec(IcmMessageLinksDocument, { address, first: 30 });
      for (const e of r.errors ?? []) expect(e.path?.at(-1)).not.toBe('sourceChain');
      for (const { node } of r.data!.icmMessages!.edges) {
        const src = sim.world.chain(node.sourceEvmChainId);
        expect(node.sourceChain?.chainId ?? null).toBe(src ? node.sourceEvmChainId : null);
        expect(node.destinationChain!.chainId).toBe(node.destinationEvmChainId);
        if ('sourceTransaction' in node) {
          const tx = sim.world
            .chain(node.sourceEvmChainId)!
            .transactions.find((t) => t.hash === node.sourceTransaction.txHash)!;
          expect(node.sourceTransaction.transaction).toEqual({
            hash: tx.hash,
            chainId: node.sourceEvmChainId,
            blockNumber: String(tx.blockNumber),
          });
        }
        if ('destinationTransaction' in node) {
          expect(node.destinationTransaction.transaction).toEqual({
            hash: node.destinationTransaction.txHash,
            chainId: node.destinationEvmChainId,
          });
        }
      }
    }
  });

  it('node(id) refetches a message by id; the same message twice in one query is one call', async () => {
    const [first] = await upstreamWalk(
      sim.dataApiUrl,
      `/v1/icm/addresses/${busy}/messages`,
      'messages',
    );
    sim.reset();
    const id = globalId('IcmMessage', first.messageId);
    const r = await gw.exec(IcmNodeDocument, { id });
    expect(r.errors).toBeUndefined();
    expect(r.data!.node).toEqual(expectedMessage(first));
    const cold = createTestGateway(sim);
    sim.reset();
    const twice = await cold.exec(IcmNodeTwiceDocument, { id });
    expect(twice.data).toEqual({ a: { id }, b: { id, status: first.status.toUpperCase() } });
    expect(routeCalls(sim)).toEqual({ [ONE_ROUTE]: 1 });
    await cold.close();
    expect(
      codes(await gw.exec(IcmNodeDocument, { id: globalId('PendingIcmMessage', 'ab'.repeat(32)) })),
    ).toEqual(['NOT_FOUND']);
  });

  it('a second gateway sharing Redis pages without the upstream', async () => {
    // ICM pages are head data (statuses change): both gateways keep them a minute here, so the test is about
    // sharing through Redis, not about how fast a loaded machine runs it.
    await flushRedisDb(redisUrl);
    const first = createTestGateway(sim, { redisUrl, ttlOverrides: { head: 60_000 } });
    await first.ready();
    const cold = await first.exec(IcmMessagesDocument, { address: busy, first: 150 });
    await settle(first);
    sim.reset();
    const other = createTestGateway(sim, { redisUrl, ttlOverrides: { head: 60_000 } });
    await other.ready();
    expect((await other.exec(IcmMessagesDocument, { address: busy, first: 150 })).data).toEqual(
      cold.data,
    );
    expect(sim.stats().total).toBe(0);
    await other.close();
    await first.close();
  });
});
