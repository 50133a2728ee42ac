import type { RunningSimulator } from '@avalanche-gateway/simulator';
import type { SimFault } from '@avalanche-gateway/simulator/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_ENV, type TestGateway, useSimAndGateway } from '../support/gateway.js';
import { HOSTILE_UPSTREAM_TEXTS } from '../support/hostile-texts.js';
import { serveOnLoopback } from '../support/serve.js';
import { simGet } from '../support/sim.js';

/**
 * Issue 12, "Must show": hostile and malformed requests against one production gateway served over HTTP on
 * loopback, each with the HTTP status and `extensions.code` it must get and the most upstream calls it may
 * cause (counted by the simulator's `/_sim/stats`; 0 for everything refused). No answer is INTERNAL, and no
 * error lacks a code.
 */
interface Row {
  name: string;
  method?: string;
  /** Query string for GET (`?` and what follows), or a path other than /graphql. */
  path?: string;
  headers?: Record<string, string>;
  /** A JSON body (stringified), or a raw string / FormData. */
  json?: unknown;
  raw?: string | FormData;
  status: number;
  /** The first error's code; `null`: the answer has no errors. */
  code: string | null;
  maxCalls?: number;
  skip?: string;
  /** Texts the answer must not hold (an upstream's secrets, the schema's names). */
  absent?: RegExp[];
  /** A text the answer must hold. */
  present?: RegExp;
  /** Faults the simulator answers this row's upstream calls with (packages/simulator/src/control.ts). */
  fault?: SimFault;
}

const times = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i)).join(' ');
const gql = (query: string, variables?: unknown) => ({ json: { query, variables } });
const B = '"43114"';
const block = (id: string) => gql(`{ block(chainId: ${B}, id: ${JSON.stringify(id)}) { number } }`);
const nest = (depth: number) =>
  `{ block(chainId: ${B}, id: "1") { ${'parent { '.repeat(depth)} number ${'} '.repeat(depth + 1)} }`;
const blocksAfter = (after: string) =>
  gql(
    `query($a: String) { chain(id: ${B}) { blocks(first: 2, after: $a) { edges { cursor } } } }`,
    { a: after },
  );
const entities = (reps: unknown) =>
  gql(`query($r: [_Any!]!) { _entities(representations: $r) { __typename } }`, { r: reps });
const b64 = (s: string) => Buffer.from(s).toString('base64url');
const MUTATION =
  'mutation { aggregateSignatures(network: "mainnet", message: "0x00") { signedMessage } }';
const multipart = () => {
  const fd = new FormData();
  fd.set('operations', JSON.stringify({ query: MUTATION }));
  fd.set('map', '{}');
  return fd;
};

/** Filled in beforeAll: a real cursor from the chain's blocks (rows name it CURSOR), and a block number that exists. */
const CURSOR = '<<cursor>>';
const BLOCK_ROUTE = 'data-api GET /v1/chains/:chainId/blocks/:blockId';
/** What of HOSTILE_UPSTREAM_TEXTS must never reach a client. */
const UPSTREAM_SECRETS = [
  /ak_9f8e/,
  /sk1Gq7/,
  /corp\.local/,
  /hunter2/,
  /SELECT|WHERE/,
  /index\.js|service\.go|anonymous/,
  /s3cret|10\.0\.3\.7|10\.1\.2\.3|cache\.internal/,
  /<html>/,
];
/**
 * What the old deny-list let through (issue 42: short keys, internal host names, passwords, SQL): one
 * line, no URL, no address:port, no token of 32 characters.
 */
const PAST_THE_DENY_LIST = [
  'password=hunter2',
  'db-internal-3.corp.local refused the connection',
  'SELECT * FROM users WHERE api_key = $1',
  'Invalid api key sk1Gq7ZxV9pLk2',
];
/** An upstream answer of `status` whose message array holds `texts` after one sentence the allow-list knows. */
const leakyUpstream = (status: number, texts: readonly string[]): SimFault => ({
  route: BLOCK_ROUTE,
  status,
  body: { message: ['Invalid address format', ...texts], statusCode: status, error: 'Bad Request' },
});
let cursor = '';
let head = 0;

const rows = (): Row[] => [
  // methods and content types
  { name: 'PUT', method: 'PUT', ...gql('{ __typename }'), status: 405, code: 'METHOD_NOT_ALLOWED' },
  { name: 'DELETE', method: 'DELETE', status: 405, code: 'METHOD_NOT_ALLOWED' },
  {
    name: 'PATCH',
    method: 'PATCH',
    ...gql('{ __typename }'),
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
  },
  {
    name: 'OPTIONS preflight from a stranger gets no CORS',
    method: 'OPTIONS',
    headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    status: 204,
    code: null,
  },
  {
    name: 'POST text/xml',
    raw: '<q/>',
    headers: { 'content-type': 'text/xml' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'POST without content-type',
    raw: '{"query":"{ __typename }"}',
    headers: { 'content-type': '' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'POST application/octet-stream',
    raw: 'x',
    headers: { 'content-type': 'application/octet-stream' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'form-urlencoded mutation (CSRF)',
    raw: `query=${encodeURIComponent(MUTATION)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    status: 403,
    code: 'CSRF_REJECTED',
  },
  {
    name: 'multipart mutation (no uploads here)',
    raw: multipart(),
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'text/plain JSON mutation',
    raw: JSON.stringify({ query: MUTATION }),
    headers: { 'content-type': 'text/plain' },
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
  },
  {
    name: 'GET without the CSRF header',
    method: 'GET',
    path: `?query=${encodeURIComponent('{ __typename }')}`,
    status: 403,
    code: 'CSRF_REJECTED',
  },
  {
    name: 'GET of a mutation',
    method: 'GET',
    path: `?query=${encodeURIComponent(MUTATION)}`,
    headers: { 'x-graphql-yoga-csrf': '1' },
    status: 405,
    code: 'BAD_REQUEST',
  },
  {
    name: 'GET without a query',
    method: 'GET',
    path: '?foo=1',
    headers: { 'x-graphql-yoga-csrf': '1', accept: 'application/json' },
    status: 200,
    code: 'BAD_REQUEST',
  },
  {
    name: 'GET with variables that are not JSON',
    method: 'GET',
    path: `?query=${encodeURIComponent('{ __typename }')}&variables=%7B`,
    headers: { 'x-graphql-yoga-csrf': '1' },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: "GET with the issue's _entities crash probe (no CSRF header)",
    method: 'GET',
    path: `?query=${encodeURIComponent('{ _entities(representations: [{__typename: "Block", chainId: "43114", number: "x"}, {__typename: "Nope"}]) { __typename } }')}`,
    status: 403,
    code: 'CSRF_REJECTED',
  },
  // bodies
  { name: 'invalid JSON', raw: '{"query": ', status: 400, code: 'BAD_REQUEST' },
  { name: 'JSON null', raw: 'null', status: 400, code: 'BAD_REQUEST' },
  { name: 'JSON string', raw: '"{ __typename }"', status: 400, code: 'BAD_REQUEST' },
  { name: 'JSON number', raw: '42', status: 400, code: 'BAD_REQUEST' },
  {
    name: 'batch (disabled)',
    json: [{ query: '{ __typename }' }, { query: '{ __typename }' }],
    status: 400,
    code: 'BAD_REQUEST',
  },
  { name: 'empty object', json: {}, status: 200, code: 'BAD_REQUEST' },
  { name: 'query is a number', json: { query: 42 }, status: 400, code: 'BAD_REQUEST' },
  { name: 'query is an object', json: { query: { a: 1 } }, status: 400, code: 'BAD_REQUEST' },
  {
    name: 'variables is a string',
    json: { query: '{ __typename }', variables: 'x' },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'variables is an array',
    json: { query: '{ __typename }', variables: [1] },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'extensions is a string',
    json: { query: '{ __typename }', extensions: 'x' },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: 'operationName is a number',
    json: { query: '{ __typename }', operationName: 5 },
    status: 400,
    code: 'OPERATION_RESOLUTION_FAILURE',
  },
  {
    name: 'unknown top-level parameter',
    json: { query: '{ __typename }', evil: 1 },
    status: 400,
    code: 'BAD_REQUEST',
  },
  {
    name: '2 MB body',
    json: { query: '{ __typename }', variables: { pad: 'x'.repeat(2_000_000) } },
    status: 413,
    code: 'REQUEST_ENTITY_TOO_LARGE',
  },
  {
    name: 'variables nested 100,000 deep',
    raw: `{"query":"{ __typename }","variables":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  // syntax and validation
  { name: 'empty query', json: { query: '' }, status: 200, code: 'GRAPHQL_PARSE_FAILED' },
  { name: 'syntax error', ...gql('{'), status: 200, code: 'GRAPHQL_PARSE_FAILED' },
  {
    name: 'NUL byte in the query',
    ...gql('{ __typename \u0000 }'),
    status: 200,
    code: 'GRAPHQL_PARSE_FAILED',
  },
  { name: 'unknown field', ...gql('{ nope }'), status: 200, code: 'GRAPHQL_VALIDATION_FAILED' },
  {
    name: 'field name of 100k characters',
    ...gql(`{ ${'a'.repeat(100_000)} }`),
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'unknown directive',
    ...gql('{ __typename @nope }'),
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'fragment cycle',
    ...gql('{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }'),
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'two anonymous operations',
    ...gql('{ __typename } { __typename }'),
    status: 400,
    code: 'OPERATION_RESOLUTION_FAILURE',
  },
  {
    name: 'operationName not in the document',
    json: { query: 'query A { __typename }', operationName: 'B' },
    status: 400,
    code: 'OPERATION_RESOLUTION_FAILURE',
  },
  {
    name: 'variable default of the wrong type',
    ...gql('query($a: Int = "x") { __typename }'),
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'subscription to an unknown field',
    ...gql('subscription { blocks }'),
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'subscription over plain JSON',
    ...gql('subscription { newBlocks(chainId: "43114") { number } }'),
    status: 406,
    code: 'BAD_REQUEST',
  },
  {
    name: 'addressActivity over plain JSON',
    ...gql(
      `subscription { addressActivity(chainId: "43114", addresses: ["0x${'a'.repeat(40)}"]) { transactionHash } }`,
    ),
    status: 406,
    code: 'BAD_REQUEST',
  },
  {
    name: 'addressActivity with a list where an address goes',
    ...gql(
      'subscription { addressActivity(chainId: "43114", addresses: [[1]]) { transactionHash } }',
    ),
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'icmMessage subscription over plain JSON',
    ...gql(`subscription { icmMessage(messageId: "${'a'.repeat(64)}") { status } }`),
    status: 406,
    code: 'BAD_REQUEST',
  },
  {
    name: 'accept graphql-response+json, invalid query',
    ...gql('{ nope }'),
    headers: { accept: 'application/graphql-response+json' },
    status: 400,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  // limits
  { name: 'nesting 3000 deep', ...gql(nest(3000)), status: 400, code: 'BAD_USER_INPUT' },
  { name: 'nesting 1500 deep', ...gql(nest(1500)), status: 400, code: 'BAD_USER_INPUT' },
  { name: 'nesting 30 deep (depth limit)', ...gql(nest(30)), status: 400, code: 'BAD_USER_INPUT' },
  {
    name: 'ofType nested 200 deep',
    ...gql(`{ __type(name: "Block") { ${'ofType { '.repeat(200)} name ${'} '.repeat(200)} } }`),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'introspection in production',
    ...gql('{ __schema { types { name } } }'),
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: '__type in production',
    ...gql('{ __type(name: "Block") { name } }'),
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  {
    name: 'introspection bomb',
    ...gql(
      `{ ${times(1000, (i) => `s${i}: __schema { types { name fields { name args { name } } } }`)} }`,
    ),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: '1000 aliases of block',
    ...gql(`{ ${times(1000, (i) => `a${i}: block(chainId: ${B}, id: "${i + 1}") { number }`)} }`),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: '101 aliases (alias limit)',
    ...gql(`{ ${times(101, (i) => `a${i}: chain(id: ${B}) { chainId }`)} }`),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: '300 __typename aliases',
    ...gql(`{ ${times(300, (i) => `t${i}: __typename`)} }`),
    status: 200,
    code: null,
  },
  {
    name: 'directive flood',
    ...gql(`{ __typename ${times(50, () => '@skip(if: false)')} }`),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'token flood',
    ...gql(`{ ${times(5000, () => '__typename')} }`),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'fragment bomb',
    ...gql(
      `{ block(chainId: ${B}, id: "1") { ...F0 } } ${times(20, (i) => `fragment F${i} on Block { ${i === 19 ? 'parent { number }' : `p: parent { ...F${i + 1} } q: parent { ...F${i + 1} }`} }`)}`,
    ),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: '_entities with 1000 blocks',
    ...entities(
      Array.from({ length: 1000 }, (_, i) => ({
        __typename: 'Block',
        chainId: '43114',
        number: String(i + 1),
      })),
    ),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'blocks(first: 500) × transactions(first: 1)',
    ...gql(
      `{ chain(id: ${B}) { blocks(first: 500) { edges { node { transactions(first: 1) { edges { node { hash } } } } } } } }`,
    ),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'chains × blocks(first: 500) × transactions',
    ...gql(
      `{ chains { blocks(first: 500) { edges { node { transactions(first: 1) { edges { node { hash } } } } } } } }`,
    ),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'nodes with 1000 ids',
    ...gql(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, {
      ids: Array.from({ length: 1000 }, (_, i) => `x${i}`),
    }),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  // arguments
  {
    name: 'first above the maximum',
    ...gql(`{ chain(id: ${B}) { blocks(first: 100000) { edges { cursor } } } }`),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'first negative',
    ...gql(`{ chain(id: ${B}) { blocks(first: -1) { edges { cursor } } } }`),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'last (backwards paging)',
    ...gql(`{ chain(id: ${B}) { blocks(last: 5) { edges { cursor } } } }`),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'first above Int',
    ...gql(`{ chain(id: ${B}) { blocks(first: 99999999999) { edges { cursor } } } }`),
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
  },
  // variables
  {
    name: 'Int variable given a string',
    ...gql(`query($f: Int) { chain(id: ${B}) { blocks(first: $f) { edges { cursor } } } }`, {
      f: 'ten',
    }),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'Int variable given 1e30',
    ...gql(`query($f: Int) { chain(id: ${B}) { blocks(first: $f) { edges { cursor } } } }`, {
      f: 1e30,
    }),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'required variable missing',
    ...gql(`query($id: String!) { chain(id: $id) { chainId } }`),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'required variable null',
    ...gql(`query($id: String!) { chain(id: $id) { chainId } }`, { id: null }),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'variable of an object type',
    ...gql(`query($id: String!) { chain(id: $id) { chainId } }`, { id: { $ne: 1 } }),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'custom scalar variable of junk (BigDecimal)',
    ...gql(
      `query($b: BigDecimal) { address(chainId: ${B}, address: "0x${'ab'.repeat(20)}") { transactions(first: 1, endBlock: $b) { edges { cursor } } } }`,
      { b: '🐢' },
    ),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'unknown enum value',
    ...gql(
      `query($s: TransactionStatus) { chain(id: ${B}) { transactions(first: 1, status: $s) { edges { cursor } } } }`,
      { s: 'MAYBE' },
    ),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: '__proto__ in variables',
    raw: `{"query":"query($id: String!) { chain(id: $id) { chainId } }","variables":{"__proto__":{"id":"43114"}}}`,
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'undeclared junk variables are ignored',
    ...gql('{ __typename }', { junk: 1, more: 'x'.repeat(1000) }),
    status: 200,
    code: null,
  },
  // cursors
  { name: 'garbage cursor', ...blocksAfter('garbage'), status: 200, code: 'BAD_USER_INPUT' },
  { name: 'empty cursor', ...blocksAfter(''), status: 200, code: 'BAD_USER_INPUT' },
  {
    name: '100 kB cursor',
    ...blocksAfter('A'.repeat(100_000)),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'base64 JSON cursor without a signature',
    ...blocksAfter(b64(JSON.stringify({ v: 1, t: 'evil&pageSize=100000', i: 0.5 }))),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'cursor with a byte appended',
    ...blocksAfter(`${CURSOR}x`),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'cursor from another list',
    ...gql(
      `query($a: String) { chain(id: ${B}) { transactions(first: 1, after: $a) { edges { cursor } } } }`,
      { a: CURSOR },
    ),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'before cursor',
    ...gql(
      `query($a: String) { chain(id: ${B}) { blocks(first: 1, before: $a) { edges { cursor } } } }`,
      { a: CURSOR },
    ),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  // ids
  { name: 'block id "x"', ...block('x'), status: 200, code: 'BAD_USER_INPUT' },
  { name: 'block id 2^64', ...block('18446744073709551616'), status: 200, code: 'BAD_USER_INPUT' },
  {
    name: 'block id of 20 nines',
    ...block('99999999999999999999'),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  { name: 'block id -1', ...block('-1'), status: 200, code: 'BAD_USER_INPUT' },
  { name: 'block id 1e3', ...block('1e3'), status: 200, code: 'BAD_USER_INPUT' },
  { name: 'block hash too short', ...block('0xabc'), status: 200, code: 'BAD_USER_INPUT' },
  {
    name: 'block id of 500 kB',
    ...block('1'.repeat(500_000)),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  { name: 'block id with a path', ...block('1/../../admin'), status: 200, code: 'BAD_USER_INPUT' },
  {
    name: 'block number past the head',
    ...block('999999999'),
    status: 200,
    code: 'NOT_FOUND',
    maxCalls: 1,
  },
  {
    name: 'chain id "abc"',
    ...gql('{ chain(id: "abc") { chainId } }'),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'chain id 2^64',
    ...gql('{ chain(id: "18446744073709551616") { chainId name } }'),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'chain id with a query string',
    ...gql('{ chain(id: "43114?pageSize=100000") { chainId name } }'),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'unknown chain',
    ...gql('{ chain(id: "999999") { name } }'),
    status: 200,
    code: 'NOT_FOUND',
    maxCalls: 1,
  },
  {
    name: 'bad transaction hash',
    ...gql(`{ transaction(chainId: ${B}, hash: "0x12") { hash } }`),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'bad address',
    ...gql(`{ address(chainId: ${B}, address: "0xZZ") { address } }`),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'node(id) garbage',
    ...gql('{ node(id: "!!!") { id } }'),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'unknown network',
    ...gql('{ network(name: "nope") { name } }'),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'unknown network node',
    ...gql('{ networkNode(name: "nope") { nodeId } }'),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  // issue 32: every way in holds
  {
    name: 'variables nested 5,000 deep',
    raw: `{"query":"query($v: String) { __typename }","variables":{"v":${'['.repeat(5_000)}1${']'.repeat(5_000)}}}`,
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'a list literal nested 3,900 deep',
    ...gql(`{ chain(id: ${'['.repeat(3_900)}1${']'.repeat(3_900)}) { name } }`),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: '/graphql/ (a trailing slash)',
    path: '/graphql/',
    ...gql('{ __typename }'),
    status: 404,
    code: 'NOT_FOUND',
  },
  {
    name: '//graphql',
    path: '//graphql',
    ...gql('{ __typename }'),
    status: 404,
    code: 'NOT_FOUND',
  },
  // mutations
  {
    name: 'admin mutation without a token',
    ...gql('mutation { nodeAdminStartCpuProfiler { method } }'),
    status: 200,
    code: 'UNAUTHENTICATED',
  },
  {
    name: 'admin mutation with a wrong token',
    ...gql('mutation { nodeAdminStartCpuProfiler { method } }'),
    headers: { authorization: 'Bearer wrong-token-123' },
    status: 200,
    code: 'FORBIDDEN',
  },
  // federation
  { name: '_entities with no representations', ...entities([]), status: 200, code: null },
  {
    name: '_entities with a bad block number',
    ...entities([{ __typename: 'Block', chainId: '43114', number: 'x' }]),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: '_entities missing its key fields',
    ...entities([{ __typename: 'Block' }]),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: '_entities with an unknown chain',
    ...entities([{ __typename: 'Chain', chainId: 'abc' }]),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  {
    name: '_entities with an unknown __typename',
    ...entities([{ __typename: 'Nope' }]),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  { name: '_entities with no __typename', ...entities([{}]), status: 200, code: 'BAD_USER_INPUT' },
  {
    name: "_entities: the issue's crash (bad number, then unknown type)",
    ...entities([{ __typename: 'Block', chainId: '43114', number: 'x' }, { __typename: 'Nope' }]),
    status: 200,
    code: 'BAD_USER_INPUT',
  },
  // Issue 42: a `__typename` that names a prototype member turned the estimate into a string, so neither
  // the cost limit nor the budget applied (700 block look-ups ran); priced as the dearest look-up now,
  // the whole list is over the limit and refused before any call.
  ...['constructor', 'hasOwnProperty', 'toString', '__proto__'].map(
    (poison): Row => ({
      name: `_entities: 700 blocks and a "${poison}" representation`,
      ...entities([
        ...Array.from({ length: 700 }, (_, i) => ({
          __typename: 'Block',
          chainId: '43114',
          number: String(i + 1),
        })),
        { __typename: poison },
      ]),
      status: 400,
      code: 'BAD_USER_INPUT',
    }),
  ),
  // Issue 42: per-item fields that load their transaction were priced 0 (estimate 100, spent 10,100).
  {
    name: 'transactions(first: 500) asking each for its input (a get-transaction each)',
    ...gql(
      `{ address(chainId: ${B}, address: "0x0000000000000000000000000000000000000001") { transactions(first: 500) { edges { node { input } } } } }`,
    ),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: 'six aliased transaction lists asking for their fees and transfers',
    ...gql(
      `{ address(chainId: ${B}, address: "0x0000000000000000000000000000000000000001") { ${times(
        6,
        (i) =>
          `t${i}: transactions(first: 100) { edges { node { maxFeePerGas erc20Transfers { value } } } }`,
      )} } }`,
    ),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  {
    name: '_entities representations not objects',
    ...entities(['x', 1, null]),
    status: 400,
    code: 'BAD_USER_INPUT',
  },
  // production hygiene (issue 42, item 5)
  {
    name: 'an upstream 400 holding keys, hosts, passwords, SQL: only the sentence the allow-list knows',
    ...block('12345'),
    fault: leakyUpstream(400, PAST_THE_DENY_LIST),
    status: 200,
    code: 'BAD_USER_INPUT',
    maxCalls: 1,
    absent: UPSTREAM_SECRETS,
    present: /Invalid address format/,
  },
  {
    name: 'an upstream 400 holding stack traces, URLs with credentials, markup: none of it',
    ...block('12347'),
    fault: leakyUpstream(400, HOSTILE_UPSTREAM_TEXTS),
    status: 200,
    code: 'BAD_USER_INPUT',
    maxCalls: 1,
    absent: UPSTREAM_SECRETS,
  },
  {
    name: 'an upstream 500 holding keys, hosts, passwords, SQL: none of it',
    ...block('12346'),
    fault: leakyUpstream(500, PAST_THE_DENY_LIST),
    status: 200,
    code: 'UPSTREAM_ERROR',
    maxCalls: 1,
    absent: UPSTREAM_SECRETS,
  },
  {
    name: 'a misspelt field: no "Did you mean" naming the schema\'s fields',
    ...gql(`{ blok(chainId: ${B}, id: "1") { number } chain(id: ${B}) { nam } }`),
    status: 200,
    code: 'GRAPHQL_VALIDATION_FAILED',
    absent: [/Did you mean/, /"block"|"name"/],
  },
  {
    name: 'a misspelt enum value in a variable: no "Did you mean"',
    ...gql(
      `query($s: TransactionStatus) { chain(id: ${B}) { transactions(first: 1, status: $s) { edges { cursor } } } }`,
      { s: 'SUCCES' },
    ),
    status: 400,
    code: 'BAD_USER_INPUT',
    absent: [/Did you mean/, /SUCCESS/],
  },
  {
    name: '_service without the admin token: the SDL without the admin fields',
    ...gql('{ _service { sdl } }'),
    status: 200,
    code: null,
    absent: [/nodeAdmin|IssueTx|IssueAtomicTx|NetworkNodeAdmin|NodeAdminPayload|admin: /],
    present: /aggregateSignatures/,
  },
  {
    name: '_service with a wrong admin token: the same',
    ...gql('{ _service { sdl } }'),
    headers: { authorization: 'Bearer wrong-token-123' },
    status: 200,
    code: null,
    absent: [/nodeAdmin|NetworkNodeAdmin/],
  },
  {
    name: '/metrics without a token (none configured): refused',
    method: 'GET',
    path: '/metrics',
    status: 401,
    code: null,
    absent: [/gateway_|process_/],
  },
  {
    name: '/metrics with a made-up bearer token: refused',
    method: 'GET',
    path: '/metrics',
    headers: { authorization: 'Bearer right-token-123' },
    status: 401,
    code: null,
    absent: [/gateway_|process_/],
  },
];

let sim: RunningSimulator;
let gw: TestGateway;
let server: { url: string; close(): Promise<void> };

useSimAndGateway(
  {
    redis: true,
    gateway: {
      env: {
        ...PRODUCTION_ENV,
        ADMIN_TOKEN: 'right-token-123',
      },
    },
  },
  (s, g) => {
    sim = s;
    gw = g;
  },
);
beforeAll(async () => {
  server = await serveOnLoopback((req, res) => gw.yoga(req, res));
  // (the server-level limits src/server.ts adds are tested in test/unit/server-limits.test.ts)
  head = Number(
    (await simGet(sim.dataApiUrl, '/v1/chains/43114/blocks', { pageSize: 1 })).blocks[0]
      .blockNumber,
  );
  const r = await gw.query(`{ chain(id: "43114") { blocks(first: 1) { edges { cursor } } } }`);
  cursor = (r.data as { chain: { blocks: { edges: { cursor: string }[] } } }).chain.blocks.edges[0]!
    .cursor;
});
afterAll(async () => {
  await server.close();
});

const simCalls = async () =>
  ((await (await fetch(`${sim.url}/_sim/stats`)).json()) as { total: number }).total;

describe('hostile and malformed requests', () => {
  it('the table holds at least 80 of them', () => {
    expect(rows().length).toBeGreaterThanOrEqual(80);
  });

  // Rows marked `skip` say why; they run once their fix lands.
  it.skip.each(
    rows()
      .filter((r) => r.skip)
      .map((r) => [r.name, r] as const),
  )('%s', () => {});

  it.each(
    rows()
      .filter((r) => !r.skip)
      .map((r) => [r.name, r] as const),
  )('%s', async (_name, row) => {
    await fetch(`${sim.url}/_sim/reset`, { method: 'POST' });
    if (row.fault) sim.addFault(row.fault);
    const jsonBody = row.json !== undefined || typeof row.raw === 'string';
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(jsonBody ? { 'content-type': 'application/json' } : {}),
      ...row.headers,
    };
    if (headers['content-type'] === '') delete headers['content-type'];
    const url = row.path?.startsWith('/')
      ? server.url.replace('/graphql', row.path)
      : `${server.url}${row.path ?? ''}`;
    const res = await fetch(url, {
      method: row.method ?? 'POST',
      headers,
      body:
        row.method === 'GET' || row.method === 'OPTIONS' || row.method === 'DELETE'
          ? undefined
          : row.json !== undefined
            ? JSON.stringify(row.json).replaceAll(CURSOR, cursor)
            : row.raw,
    });
    const text = await res.text();
    const body = text
      ? (JSON.parse(text) as { errors?: { message: string; extensions?: { code?: unknown } }[] })
      : {};
    const errors = body.errors ?? [];
    expect(
      { status: res.status, code: errors[0]?.extensions?.code ?? null },
      text.slice(0, 300),
    ).toEqual({ status: row.status, code: row.code });
    for (const r of row.absent ?? []) expect(text).not.toMatch(r);
    if (row.present) expect(text).toMatch(row.present);
    for (const e of errors) {
      expect(typeof e.extensions?.code, e.message).toBe('string');
      expect(e.extensions?.code).not.toBe('INTERNAL');
    }
    expect(await simCalls()).toBeLessThanOrEqual(row.maxCalls ?? 0);
  });

  it('the gateway is still alive and healthy afterwards', async () => {
    const health = await fetch(server.url.replace('/graphql', '/health'));
    expect(health.status).toBe(200);
    expect((await gw.query(`{ block(chainId: "43114", id: "${head}") { number } }`)).data).toEqual({
      block: { number: String(head) },
    });
  });
});
