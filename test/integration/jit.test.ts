import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { parse, buildSchema as sdlSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jitSelector } from '../../src/plugins/use-jit.js';
import { buildSchema } from '../../src/schema/index.js';
import { createTestGateway, type TestGateway, useSimulator } from '../support/gateway.js';
import { simGet } from '../support/sim.js';

/**
 * The compiled executor (EXECUTOR=jit, the default) answers exactly what graphql-js answers: data,
 * errors (messages, codes, paths) and partial results, for the same requests over one simulator. And
 * it leaves to graphql-js what graphql-jit would answer differently.
 */
const C = '43114';
let sim: RunningSimulator;
let jit: TestGateway;
let js: TestGateway;

useSimulator({}, (s) => {
  sim = s;
});
beforeAll(async () => {
  jit = createTestGateway(sim);
  js = createTestGateway(sim, { env: { EXECUTOR: 'graphql-js' } });
  await Promise.all([jit.ready(), js.ready()]);
});
afterAll(async () => {
  await jit?.close();
  await js?.close();
});

const executions = async (g: TestGateway) =>
  Object.fromEntries(
    (await g.metrics.executions.get()).values.map((v) => [v.labels.executor, v.value]),
  );

describe('EXECUTOR=jit', () => {
  it('answers every request as graphql-js does: data, errors and partial results', async () => {
    const { blocks } = await simGet(sim.dataApiUrl, `/v1/chains/${C}/blocks`, { pageSize: 3 });
    const number = String(Number(blocks[0].blockNumber) - 5);
    const requests: { query: string; variables?: Record<string, unknown> }[] = [
      {
        query: `query B($id: String!) { block(chainId: "${C}", id: $id) {
          id number hash timestamp timestampIso gasUsed baseFee
          chain { chainId name }
          transactions(first: 3) { pageInfo { hasNextPage endCursor }
            edges { cursor node { hash from { address } to { address } value status method { methodHash } } } } } }`,
        variables: { id: number },
      },
      {
        query: `fragment T on Transaction { hash gasPrice nonce }
          { chain(id: "${C}") { blocks(first: 2) { edges { node { number
            a: transactions(first: 1) { edges { node { ...T } } }
            b: transactions(first: 2) { edges { node { ...T blockNumber } } } } } } } }`,
      },
      // Errors: an unknown block (NOT_FOUND), a malformed address (BAD_USER_INPUT), both with paths.
      {
        query: `{ ok: block(chainId: "${C}", id: "${number}") { number }
          missing: block(chainId: "${C}", id: "999999999999") { number }
          bad: address(chainId: "${C}", address: "0x12") { address } }`,
      },
      // A variable of the wrong type, and an enum value that does not exist: graphql-js's messages.
      {
        query: 'query Q($id: String!) { block(chainId: "43114", id: $id) { number } }',
        variables: { id: 5 },
      },
      {
        query: `query S($o: SortOrder) { network(name: "mainnet") { subnets(first: 1, sortOrder: $o) { edges { node { subnetId } } } } }`,
        variables: { o: 'SIDEWAYS' },
      },
      {
        query: `{ network(name: "mainnet") { subnets(first: 2) { edges { node { subnetId blockchains { blockchainId name } } } } } }`,
      },
      { query: `{ node(id: "not-a-global-id") { id } }` },
    ];
    for (const r of requests) {
      const [a, b] = [await jit.query(r.query, r.variables), await js.query(r.query, r.variables)];
      // Each upstream answer carries its own request id; everything else must be equal.
      const sameId = (x: unknown) =>
        JSON.parse(
          JSON.stringify(x).replace(/"upstreamRequestId":"[^"]*"/g, '"upstreamRequestId":"<id>"'),
        );
      expect(sameId(a), r.query).toEqual(sameId(b));
    }
    // The comparison is between the two executors: the compiled one ran every request it could; the
    // two whose variables do not coerce went on to graphql-js, for its messages.
    expect(await executions(jit)).toEqual({ jit: requests.length - 2, 'graphql-js': 2 });
    expect(await executions(js)).toEqual({ 'graphql-js': requests.length });
  });

  it('is used for plain operations, and not where graphql-jit would answer differently', () => {
    const schema = buildSchema();
    const jitFor = jitSelector();
    const args = (query: string, variableValues: Record<string, unknown> = {}) => ({
      schema,
      document: parse(query),
      variableValues,
      contextValue: {},
    });
    expect(jitFor(args('{ chain(id: "43114") { chainId } }'))).toBeDefined();
    expect(
      jitFor(
        args('query Q($id: String!) { block(chainId: "43114", id: $id) { number } }', { id: '1' }),
      ),
    ).toBeDefined();
    // Mutations (serial side effects), incremental delivery, federation's entry points and
    // subscriptions stay with graphql-js.
    expect(jitFor(args('mutation { nodeAdminLoadVms { networkNode { name } } }'))).toBeUndefined();
    expect(jitFor(args('{ chain(id: "43114") { ... @defer { chainId } } }'))).toBeUndefined();
    expect(jitFor(args('{ _service { sdl } }'))).toBeUndefined();
    expect(jitFor(args('subscription { newBlocks(chainId: "43114") { number } }'))).toBeUndefined();
  });

  it('compiles a document once per gateway: one document under two schemas runs under each its own', async () => {
    const document = parse('{ __typename }');
    const a = jitSelector()({ schema: sdlSchema('type Query { a: Int }'), document });
    const b = jitSelector()({
      schema: sdlSchema('schema { query: Root } type Root { b: Int }'),
      document,
    });
    expect(await a?.query({}, {}, {})).toEqual({ data: { __typename: 'Query' } });
    expect(await b?.query({}, {}, {})).toEqual({ data: { __typename: 'Root' } });
  });
});
