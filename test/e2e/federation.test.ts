import { composeServices } from '@apollo/composition';
import { printSubgraphSchema } from '@apollo/subgraph';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createGateway } from '../../src/gateway.js';
import { buildSchema } from '../../src/schema/index.js';
import { useSimulator } from '../support/gateway.js';
import { serveOnLoopback } from '../support/serve.js';
import { simWalk } from '../support/sim.js';
import { createLabelsSubgraph, LABELS_TYPE_DEFS, labelFor, noteFor } from './labels-subgraph.js';

/**
 * Our gateway as one subgraph of a supergraph: composed with a second subgraph by Apollo's composition
 * library, executed by a real router (Hive Gateway's runtime) on loopback.
 */
const C = '43114';
let sim: RunningSimulator;
let ours: Awaited<ReturnType<typeof serveOnLoopback>>;
let labels: Awaited<ReturnType<typeof serveOnLoopback>>;
let router: Awaited<ReturnType<typeof serveOnLoopback>>;
let supergraphSdl: string;
let hints: { definition: { code: string }; message: string }[];
let busy: string;
let head: number;

const gatewayConfig = () =>
  loadConfig({
    DATA_API_URL: sim.dataApiUrl,
    METRICS_API_URL: sim.metricsApiUrl,
    NODE_RPC_URL: sim.nodeUrl,
    LOG_LEVEL: 'silent',
    RESPONSE_CACHE_MAX_TTL_MS: '0',
    CLIENT_CU_PER_MINUTE: '0',
    UPSTREAM_CU_PER_MINUTE: '0',
  });

const post = async (url: string, query: string, variables: Record<string, unknown> = {}) =>
  (await (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    })
  ).json()) as {
    data?: any;
    errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[];
  };

useSimulator({}, (s) => {
  sim = s;
});
beforeAll(async () => {
  ours = await serveOnLoopback(createGateway(gatewayConfig()).yoga);
  labels = await serveOnLoopback(createLabelsSubgraph());
  const composed = composeServices([
    { name: 'avalanche', typeDefs: parse(printSubgraphSchema(buildSchema())), url: ours.url },
    { name: 'labels', typeDefs: parse(LABELS_TYPE_DEFS), url: labels.url },
  ]);
  if (composed.errors)
    throw new Error(`composition failed:\n${composed.errors.map((e) => e.message).join('\n')}`);
  supergraphSdl = composed.supergraphSdl;
  hints = composed.hints as never;
  router = await serveOnLoopback(
    createGatewayRuntime({
      supergraph: supergraphSdl,
      logging: false,
      maskedErrors: false,
    }) as never,
  );
  const [tx] = await simWalk(sim.dataApiUrl, `/v1/chains/${C}/transactions`, 'transactions', 1, 1);
  busy = tx.from.address;
  head = Number(tx.blockNumber);
}, 60_000);

afterAll(async () => {
  await router?.close();
  await labels?.close();
  await ours?.close();
});

describe('federation', () => {
  it('composes with a second subgraph with no errors and no hints', () => {
    expect(supergraphSdl).toContain('join__type(graph: AVALANCHE, key: "chainId address")');
    expect(supergraphSdl).toContain('join__type(graph: LABELS, key: "chainId hash")');
    // Entity keys are shareable by definition, PageInfo is marked @shareable: nothing for composition to hint at.
    expect(hints.map((h) => `${h.definition.code}: ${h.message}`)).toEqual([]);
  });

  it('one query crosses both subgraphs: an address label, its transactions with notes and blocks; same answers and upstream calls as alone', async () => {
    const FEDERATED = `query($c: String!, $a: String!) { address(chainId: $c, address: $a) { address label
      transactions(first: 5) { edges { node { hash note block { number hash } } } } } }`;
    const ALONE = `query($c: String!, $a: String!) { address(chainId: $c, address: $a) { address
      transactions(first: 5) { edges { node { hash block { number hash } } } } } }`;
    sim.reset();
    const fed = await post(router.url, FEDERATED, { c: C, a: busy });
    expect(fed.errors, JSON.stringify(fed.errors)).toBeUndefined();
    const fedCalls = sim.stats().byRoute;
    const edges = fed.data.address.transactions.edges as {
      node: { hash: string; note: string; block: { number: string; hash: string } };
    }[];
    expect(edges.length).toBe(5);
    expect(fed.data.address.label).toBe(labelFor(busy));
    for (const e of edges) expect(e.node.note).toBe(noteFor(e.node.hash));

    // our subgraph alone, on a fresh cache: the same data and the same upstream calls
    sim.reset();
    const fresh = await serveOnLoopback(createGateway(gatewayConfig()).yoga);
    const alone = await post(fresh.url, ALONE, { c: C, a: busy });
    await fresh.close();
    expect(sim.stats().byRoute).toEqual(fedCalls);
    expect(alone.data.address.transactions.edges.map((e: any) => e.node)).toEqual(
      edges.map(({ node: { note: _n, ...rest } }) => rest),
    );
    // the labels subgraph alone says the same about these entities
    const theirs = await post(
      labels.url,
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Address { label } ... on Transaction { note } } }`,
      {
        r: [
          { __typename: 'Address', chainId: C, address: busy },
          ...edges.map((e) => ({ __typename: 'Transaction', chainId: C, hash: e.node.hash })),
        ],
      },
    );
    expect(theirs.data._entities).toEqual([
      { label: fed.data.address.label },
      ...edges.map((e) => ({ note: e.node.note })),
    ]);
  });

  it('serves _service { sdl } with our entity keys, and still works standalone', async () => {
    const r = await post(ours.url, '{ _service { sdl } }');
    expect(r.data._service.sdl).toContain('@key(fields: "chainId number")');
    const standalone = await post(
      ours.url,
      `{ block(chainId: "${C}", id: "${head - 1}") { number } }`,
    );
    expect(standalone.data).toEqual({ block: { number: String(head - 1) } });
  });

  it('_entities resolves references through the loaders; a malformed or unknown one fails alone', async () => {
    const r = await post(
      ours.url,
      `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Block { number } ... on Chain { chainId } } }`,
      {
        r: [
          { __typename: 'Block', chainId: C, number: String(head - 2) },
          { __typename: 'Block', chainId: C, number: 'not-a-number' },
          { __typename: 'Chain', chainId: C },
          { __typename: 'Block', chainId: C, number: '999999999' },
        ],
      },
    );
    expect(r.data._entities[0]).toEqual({ __typename: 'Block', number: String(head - 2) });
    expect(r.data._entities[1]).toBeNull();
    expect(r.data._entities[2]).toEqual({ __typename: 'Chain', chainId: C });
    expect(r.data._entities[3]).toBeNull();
    const byIndex = Object.fromEntries(r.errors!.map((e) => [e.path![1], e.extensions!.code]));
    expect(byIndex).toEqual({ 1: 'BAD_USER_INPUT', 3: 'NOT_FOUND' });
  });

  it('contract metadata is an entity per token standard, keyed like its address', async () => {
    const { erc20, erc721 } = sim.world.fixtures.contracts;
    const r = await post(
      ours.url,
      `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Erc20Contract { address symbol decimals } ... on Erc721Contract { address } } }`,
      {
        r: [
          { __typename: 'Erc20Contract', chainId: C, address: erc20 },
          { __typename: 'Erc721Contract', chainId: C, address: erc721 },
          { __typename: 'Erc20Contract', chainId: C, address: erc721 },
        ],
      },
    );
    const direct = await post(
      ours.url,
      `query($c: String!, $a: String!) { address(chainId: $c, address: $a) { contract { ... on Erc20Contract { symbol decimals } } } }`,
      { c: C, a: erc20 },
    );
    expect(r.data._entities[0]).toEqual({
      __typename: 'Erc20Contract',
      address: erc20.toLowerCase(),
      ...direct.data.address.contract,
    });
    expect(r.data._entities[1]).toEqual({
      __typename: 'Erc721Contract',
      address: erc721.toLowerCase(),
    });
    expect(r.data._entities[2]).toBeNull();
    expect(r.errors!.map((e) => [e.path![1], e.extensions!.code])).toEqual([[2, 'NOT_FOUND']]);
  });

  it('validators, L1 validators and interchain messages are entities keyed by their natural ids', async () => {
    const keys = await post(
      ours.url,
      `query($node: String!, $icm: String!) {
        network(name: "mainnet") {
          validators(nodeId: $node, first: 1) { edges { node { __typename network nodeId txHash amountStaked } } }
          l1Validators(first: 1) { edges { node { validationId nodeId weight } } }
        }
        icmMessages(address: $icm, first: 1) { edges { node { __typename messageId sourceBlockchainId } } }
      }`,
      { node: sim.world.selfNodeId, icm: sim.world.fixtures.icmAddress },
    );
    expect(keys.errors).toBeUndefined();
    const v = keys.data.network.validators.edges[0].node;
    const l1 = keys.data.network.l1Validators.edges[0].node;
    const m = keys.data.icmMessages.edges[0].node;
    const r = await post(
      ours.url,
      `query($r: [_Any!]!) { _entities(representations: $r) {
        __typename
        ... on Validator { network nodeId txHash amountStaked }
        ... on L1Validator { validationId nodeId weight }
        ... on IcmMessage { messageId sourceBlockchainId }
      } }`,
      {
        r: [
          { __typename: v.__typename, network: v.network, nodeId: v.nodeId, txHash: v.txHash },
          { __typename: 'L1Validator', validationId: l1.validationId },
          { __typename: m.__typename, messageId: m.messageId },
          { __typename: 'L1Validator', validationId: 'not-a-cb58-id' },
        ],
      },
    );
    expect(r.data._entities.slice(0, 3)).toEqual([v, { __typename: 'L1Validator', ...l1 }, m]);
    expect(r.data._entities[3]).toBeNull();
    expect(r.errors!.map((e) => [e.path![1], e.extensions!.code])).toEqual([[3, 'BAD_USER_INPUT']]);
  });

  it('100 block references in one _entities call cost what 100 lookups cost in a normal query', async () => {
    const numbers = Array.from({ length: 100 }, (_, i) => String(head - 100 - i));
    sim.reset();
    await post(
      ours.url,
      `query($r: [_Any!]!) { _entities(representations: $r) { ... on Block { hash } } }`,
      {
        r: numbers.map((n) => ({ __typename: 'Block', chainId: C, number: n })),
      },
    );
    const viaEntities = sim.stats().byRoute['data-api GET /v1/chains/:chainId/blocks/:blockId'];
    expect(viaEntities).toBe(100);
    sim.reset();
    const fresh = await serveOnLoopback(createGateway(gatewayConfig()).yoga);
    await post(
      fresh.url,
      `{ ${numbers.map((n) => `b${n}: block(chainId: "${C}", id: "${n}") { hash }`).join(' ')} }`,
    );
    expect(sim.stats().byRoute['data-api GET /v1/chains/:chainId/blocks/:blockId']).toBe(
      viaEntities,
    );
    await fresh.close();
  });
});
