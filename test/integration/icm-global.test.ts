import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
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
 * icmMessage(id) (getIcmMessage) and icmMessages without an address (listIcmMessages): the global
 * list walked across upstream pages against the upstream's own sequence, each of the route's
 * filters passed as the spec names it, bad values refused before any call, nested chains loaded
 * once each.
 */
const LIST = 'data-api GET /v1/icm/messages';
const ONE = 'data-api GET /v1/icm/messages/:messageId';
const CHAIN = 'data-api GET /v1/chains/:chainId';

let sim: RunningSimulator;
let gw: TestGateway;
useSimAndGateway({ redis: true }, (s, g) => {
  sim = s;
  gw = g;
});

const ok = (r: { errors?: unknown }) => expect(r.errors).toBeUndefined();
const FILTER_TYPES: Record<string, string> = {
  sourceBlockchainId: 'String',
  destinationBlockchainId: 'String',
  blockchainId: 'String',
  from: 'String',
  to: 'String',
  network: 'String',
};

function messages(filters: Record<string, string>, first: number) {
  const decl = Object.keys(filters)
    .map((k) => `, $${k}: ${FILTER_TYPES[k]}`)
    .join('');
  const args = Object.keys(filters)
    .map((k) => `, ${k}: $${k}`)
    .join('');
  const query = `query($after: String${decl}) { icmMessages(first: ${first}, after: $after${args}) {
    edges { node { __typename messageId status sourceBlockchainId destinationEvmChainId from to } }
      pageInfo { hasNextPage endCursor } } }`;
  return walk(async (after) => {
    const r = await gw.query(query, { after, ...filters });
    ok(r);
    return r.data!.icmMessages;
  });
}
const TYPE: Record<string, string> = {
  pending: 'PendingIcmMessage',
  delivered: 'DeliveredIcmMessage',
  delivered_source_not_indexed: 'DeliveredSourceNotIndexedIcmMessage',
};
const expected = (m: any) => ({
  __typename: TYPE[m.status],
  messageId: m.messageId,
  status: m.status.toUpperCase(),
  sourceBlockchainId: m.sourceBlockchainId,
  destinationEvmChainId: m.destinationEvmChainId,
  // EVM addresses in lower case (docs/schema-conventions.md), whatever case the upstream sent.
  from: m.from.toLowerCase(),
  to: m.to.toLowerCase(),
});

describe('icmMessages without address: listIcmMessages', () => {
  it('walks every message of every chain, newest first, one call per upstream page', async () => {
    const up = await upstreamWalk(sim.dataApiUrl, '/v1/icm/messages', 'messages');
    expect(up.length).toBeGreaterThan(500);
    sim.reset();
    const edges = await messages({}, 250);
    expect(edges.map((e: any) => e.node)).toEqual(up.map(expected));
    expect(routeCalls(sim)).toEqual({ [LIST]: Math.ceil(up.length / 100) });
  });

  it('passes each of the route’s filters as the spec names it', async () => {
    const m = sim.world.icm.messages.find(
      (x) => x.status === 'delivered' && x.network === 'mainnet',
    )!;
    const cases: Query[] = [
      { sourceBlockchainId: m.sourceBlockchainId },
      { sourceBlockchainId: m.sourceEvmChainId, network: 'mainnet' },
      { destinationBlockchainId: m.destinationBlockchainId },
      { blockchainId: m.destinationBlockchainId },
      { from: m.from },
      { to: m.to, network: 'fuji' },
      { to: m.to },
      {
        sourceBlockchainId: m.sourceBlockchainId,
        destinationBlockchainId: m.destinationBlockchainId,
        from: m.from,
        to: m.to,
        network: 'mainnet',
      },
    ];
    let nonEmpty = 0;
    for (const q of cases) {
      const up = await upstreamWalk(sim.dataApiUrl, '/v1/icm/messages', 'messages', q);
      if (up.length > 0) nonEmpty++;
      const edges = await messages(q as Record<string, string>, 500);
      expect(
        edges.map((e: any) => e.node),
        JSON.stringify(q),
      ).toEqual(up.map(expected));
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(cases.length - 1);
  });

  it('refuses bad filters and address with another filter, before any call', async () => {
    const q = (args: string) => gw.query(`{ icmMessages(first: 5${args}) { edges { cursor } } }`);
    expectBadInput(await q(', sourceBlockchainId: "not a chain!"'), 'sourceBlockchainId');
    expectBadInput(await q(', destinationBlockchainId: "0"'), 'destinationBlockchainId');
    expectBadInput(await q(', blockchainId: "43114"'), 'blockchainId');
    expectBadInput(await q(', from: "0x12"'), 'from');
    expectBadInput(await q(', to: "bob"'), 'to');
    expectBadInput(await q(', network: "devnet"'), 'network');
    expectBadInput(
      await q(
        `, address: "${sim.world.fixtures.icmAddress}", from: "${sim.world.fixtures.icmAddress}"`,
      ),
      'from',
    );
    expect(sim.stats().total).toBe(0);
  });

  it('messages with their source and destination chains: cold 1 + distinct chains, warm 0', async () => {
    const page = await upstreamGet(sim.dataApiUrl, '/v1/icm/messages', {
      pageSize: 100,
      network: 'mainnet',
    });
    const first = page.messages.slice(0, 40);
    const chains = new Set(
      first.flatMap((m: any) => [m.sourceEvmChainId, m.destinationEvmChainId]),
    );
    sim.reset();
    const query =
      '{ icmMessages(first: 40, network: "mainnet") { edges { node { messageId ' +
      'sourceChain { name } destinationChain { name } } } } }';
    const cold = await gw.query(query);
    ok(cold);
    expect(cold.data!.icmMessages.edges).toHaveLength(40);
    const calls = routeCalls(sim);
    expect(calls[LIST]).toBe(1);
    // One chain lookup per distinct chain (an unindexed one answers 404, remembered briefly).
    expect(calls[CHAIN]).toBe(chains.size);
    await settle(gw);
    sim.reset();
    expect((await gw.query(query)).data).toEqual(cold.data);
    expect(sim.stats().total).toBe(0);
  });
});

describe('icmMessage(id): getIcmMessage', () => {
  it('answers the message typed by status, 0x optional, one call then cached', async () => {
    const id = sim.world.fixtures.icmMessageId;
    const up = await upstreamGet(sim.dataApiUrl, `/v1/icm/messages/${id}`);
    sim.reset();
    for (const given of [id, `0x${id.toUpperCase()}`]) {
      const r = await gw.query(
        `{ icmMessage(id: "${given}") { __typename id messageId status from to } }`,
      );
      ok(r);
      expect(r.data!.icmMessage).toMatchObject({
        __typename: TYPE[up.status],
        messageId: up.messageId,
        from: up.from.toLowerCase(),
        to: up.to.toLowerCase(),
      });
    }
    // At most one call: the lists read by the tests above may hold this message already (a list's
    // message is stored as the message's own answer: test/integration/facts.test.ts).
    expect(Object.keys(routeCalls(sim)).filter((r) => r !== ONE)).toEqual([]);
    expect(routeCalls(sim)[ONE] ?? 0).toBeLessThanOrEqual(1);
  });

  it('refuses a malformed id before any call; an unknown id is NOT_FOUND', async () => {
    expectBadInput(await gw.query('{ icmMessage(id: "xyz") { messageId } }'), 'id');
    expect(sim.stats().total).toBe(0);
    const missing = await gw.query(`{ icmMessage(id: "${'ab'.repeat(32)}") { messageId } }`);
    expect(missing.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    expect(missing.data).toEqual({ icmMessage: null });
  });
});
