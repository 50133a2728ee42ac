import { bech32Decode, cb58Decode } from './schemas/node-codec.js';

/**
 * Which upstream words may reach a client: an ALLOW-list. An upstream's error text can carry its
 * internal host names, keys, connection strings, SQL or stack frames, and no deny-list catches them all
 * (issue 42: four of six hostile messages passed the old filter). So a message reaches a client only
 * when every part of it fits one of the sentences below, each slot holding a value of a checked kind (a
 * number, `0x` hex, a CB58 id or a bech32 address whose checksum holds, a camelCase parameter name);
 * anything else is replaced by the gateway's own words for the status (src/errors.ts) and goes to the
 * log only. The sentences are the Data API's (NestJS class-validator's wording and its own, as the
 * simulator words them: packages/simulator/src/data-api) and the node's (avalanchego, coreth, gorilla/rpc: the rows of
 * node-errors.ts, the simulator's packages/simulator/src/node-rpc). A message this list does not know loses only its
 * text: its code, status and the upstream's request id still reach the client.
 */

/** Slot kinds. Checksummed kinds (`id`, `addr`, `nodeId`) are also checked after the match. */
const SLOTS = {
  num: String.raw`-?\d{1,78}(?:\.\d{1,18})?`,
  hex: '0x[0-9a-fA-F]{0,256}',
  id: '[1-9A-HJ-NP-Za-km-z]{20,80}',
  nodeId: 'NodeID-[1-9A-HJ-NP-Za-km-z]{20,60}',
  addr: '(?:[XPC]-)?[a-z]{1,16}1[02-9ac-hj-np-z]{6,90}',
  /** An address as a client wrote it, which the node could not parse: bech32's alphabet, no checksum. */
  addrLike: '[XPC]-[a-z]{1,16}1[02-9ac-hj-np-z]{0,90}',
  /** A parameter or property name: camelCase words, a digit run only at a word's end (`l1ValidationId`). */
  name: String.raw`[a-z]{1,20}\d{0,3}(?:[A-Z][a-z]{1,20}\d{0,3}){0,6}`,
  /** An enum value: lowercase or UPPER_SNAKE words. */
  enumValue: '[a-z]{1,20}(?:[A-Z_][a-z]{1,20}){0,6}|[A-Z]{1,20}(?:_[A-Z]{1,20}){0,6}',
  /** The values an enum allows, as class-validator lists them. */
  enumValues: '[A-Za-z_]{1,40}(?:, [A-Za-z_]{1,40}){0,40}',
  word: '[a-z]{1,20}',
  /** Lowercase words only (a revert reason, a state the node names): no digits, no punctuation. */
  words: '[a-z]{1,20}(?: [a-z]{1,20}){0,11}',
  /** A node method: `avm.getTx`, `eth_chainId`, `admin.startCPUProfiler`. */
  method: '[a-z]{1,12}[._][a-zA-Z]{1,40}',
  mime: '[a-z]{1,20}/[a-z0-9.+-]{1,40}',
  httpMethod: 'GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS',
} as const;
type Slot = keyof typeof SLOTS;
/** `value`: what a client names a thing by. */
const VALUE_KINDS: Slot[] = ['num', 'hex', 'nodeId', 'addr', 'id'];

const checksummed: Partial<Record<Slot, (v: string) => boolean>> = {
  id: (v) => cb58Decode(v) !== undefined,
  nodeId: (v) => cb58Decode(v.slice('NodeID-'.length)) !== undefined,
  addr: (v) => bech32Decode(v.replace(/^[XPC]-/, '')) !== undefined,
};

/** A value is fine when one of the kinds it may be matches it whole (and its checksum holds). */
function valueOk(kinds: Slot[], v: string): boolean {
  return kinds.some(
    (k) => new RegExp(`^(?:${SLOTS[k]})$`).test(v) && (checksummed[k]?.(v) ?? true),
  );
}

interface Shape {
  re: RegExp;
  kinds: Slot[][];
}

/** `'{name} must not be less than {num}'` → an anchored RegExp, one group per slot, and the slots' kinds. */
function shape(template: string): Shape {
  const kinds: Slot[][] = [];
  const source = template
    .split(/(\{[a-zA-Z|]+\})/)
    .map((part) => {
      const m = /^\{([a-zA-Z|]+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const names = m[1]!.split('|').flatMap((n) => (n === 'value' ? VALUE_KINDS : [n as Slot]));
      kinds.push(names);
      return `(${names.map((n) => SLOTS[n]).join('|')})`;
    })
    .join('');
  return { re: new RegExp(`^${source}$`), kinds };
}

/** The Data API's and Metrics API's sentences (one part of a `message` array each). */
const DATA_API = [
  // class-validator (NestJS's ValidationPipe): `{property} {constraint}`
  'property {name} should not exist',
  '{name} should not be empty',
  '{name} must be a string',
  '{name} must be a boolean value',
  '{name} must be one of the following values: {enumValues}',
  '{name} must be a number',
  '{name} must be an integer number',
  '{name} must be a positive number',
  '{name} must be an array',
  '{name} must be a URL address',
  '{name} must be a UUID',
  '{name} must be an Ethereum address',
  'each value in {name} must be an Ethereum address',
  '{name} must be a number conforming to the specified constraints',
  '{name} must be a number string',
  '{name} must be a number string from {num} to {num}',
  '{name} must be a valid ISO 8601 date string',
  '{name} must not be less than {num}',
  '{name} must not be greater than {num}',
  '{name} must be longer than or equal to {num} characters',
  '{name} must be shorter than or equal to {num} characters',
  '{name} must contain at least {num} elements',
  '{name} must contain no more than {num} elements',
  '{name} must be less than {name}',
  '{name} must be less than or equal to {name}',
  // the API's own
  '{name} must be an EVM address',
  '{name} must contain only EVM addresses',
  '{name} must be a decimal block number',
  '{name} must be a decimal token id',
  '{name} must be a hex string (optionally 0x-prefixed)',
  '{name} must be a hex or cb58 string',
  '{name} must be a 0x-prefixed 32-byte transaction hash',
  '{name} must be a block number or a 0x-prefixed 32-byte block hash',
  '{name} must be a primary network (P or X chain) transaction hash in cb58',
  '{name} must be a supported EVM chain id',
  '{name} must be a comma separated list of node ids',
  '{name} must be a comma separated list of {word} addresses',
  "{name} must be a valid node ID in format 'NodeID-HASH'",
  '{name} must be an integer number not less than {num}',
  '{name} plus {name} must be at most {num}',
  'Invalid address format',
  'Invalid address',
  'Invalid {name}',
  'Invalid page token',
  'Invalid pageToken: it was not issued by this service or is malformed',
  'Invalid pageToken: it was issued for a different query; repeat the original path and query parameters with it',
  'pageToken has expired; start again from the first page',
  'Invalid NodeID format: expected NodeID-<cb58>',
  'The request body must be a JSON object',
  'Either message or justification must be provided',
  'One of addresses or nodeIds is required',
  'At least one of addresses or nodeIds is required',
  'blockNumber {num} is after the latest indexed block {num}',
  'No activity found for the given addresses',
  'message is not a valid warp message: {words}',
  // not found
  '{word} {value} not found',
  '{word} {value} not found on chain {num}',
  '{word} {value} not found on {word}',
  '{word} {value} not found on {word}-chain',
  'Block {value} not found',
  'Block {value} not found on chain {num}',
  'Transaction {value} not found',
  'Transaction {value} not found on chain {num}',
  'Transaction {value} not found on {word}',
  'Transaction {value} not found on {word}-chain',
  'Asset {value} not found',
  'Subnet {value} not found',
  'Blockchain {value} not found',
  'Vertex {value} not found',
  'ICM message {value} not found',
  'Token {num} of {hex} not found',
  'No contract found at {hex} on chain {num}',
  'No NFT collection found at {hex} on chain {num}',
  'No block history for {value}',
  'Chain {num|id} not found. Use the /v1/chains endpoint to list supported chains.',
  // the `error` field's reason phrases
  'Bad Request',
  'Not Found',
  'Not found',
  'Forbidden',
  'Unauthorized',
  'Too Many Requests',
  'Service Unavailable',
  'Internal Server Error',
  'Bad Gateway',
  'Gateway Timeout',
].map(shape);

/** The node's sentences (after the `method: ` gateway/node-rpc-call.ts puts before them). */
const NODE = [
  'not found',
  '{word} {value} not found',
  "{word} '{enumValue}' not found",
  'could not find tx {id}',
  "couldn't find {words}",
  "there is no chain with alias/ID '{enumValue|id}'",
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls",
  "couldn't parse {words}",
  'problem decoding transaction: {words}',
  'problem parsing {words}',
  'invalid input checksum',
  'input string is smaller than the checksum size',
  'expected {num} bytes but got {num}',
  'no addresses provided',
  'no source chain provided',
  'number of addresses given, {num}, exceeds maximum, {num}',
  'alias length is too long',
  'need to specify either displayLevel or logLevel',
  'failed to parse log level: unknown level: {enumValue} ',
  'failed to parse log level: unknown level: {enumValue}',
  'unsupported encoding in method',
  'nil transaction ID',
  'missing 0x prefix to hex encoding',
  'cpu profiler already running',
  'cpu profiler not running',
  'the method {method} does not exist/is not available',
  "rpc: can't find method {method}",
  "rpc: can't find service {method}",
  'rpc: unrecognized Content-Type: {mime}',
  'rpc: POST method required, received {httpMethod}',
  'message is not a valid warp message: {words}',
  // geth / coreth
  'execution reverted',
  'execution reverted: {words}',
  'invalid argument {num}: hex string without 0x prefix',
  'invalid argument {num}: hex string of odd length',
  'invalid argument {num}: empty hex string',
  'invalid argument {num}: invalid hex string',
  'invalid argument {num}: hex number with leading zero digits',
  'invalid argument {num}: hex number > 64 bits',
  'invalid argument {num}: hex string has length {num}, want {num} for common.Address',
  'invalid argument {num}: hex string has length {num}, want {num} for common.Hash',
  'header not found',
  'unknown block',
  'missing trie node {hex} (path )',
  'required historical state unavailable',
  'block number {num} is before the earliest allowed block number for queries {num} (window of {num} blocks)',
  'block number {num} is before the oldest allowed block number {num} (window of {num} blocks)',
  'the method {method} does not exist/is not available',
  'parse error',
  'unexpected EOF',
].map(shape);

/** Why the node could not parse an address, bare or after `couldn't parse address "…": `. */
const ADDRESS_REASONS = [
  'invalid checksum',
  'no separator found in address',
  'there is no ID with alias: {enumValue}',
  'expected {num} bytes but got {num}',
  'expected hrp "{word}" but got "{word}"',
  'mismatched chainIDs: expected "{enumValue|id}" but got "{enumValue|id}"',
];
NODE.push(
  ...ADDRESS_REASONS.flatMap((r) => [r, `couldn't parse address "{addr|addrLike}": ${r}`]).map(
    shape,
  ),
);

const MAX_TEXT = 300;
const METHOD_PREFIX = new RegExp(`^(${SLOTS.method}): `);

function fits(shapes: readonly Shape[], part: string): boolean {
  return shapes.some((s) => {
    const m = s.re.exec(part);
    return m !== null && s.kinds.every((kinds, i) => valueOk(kinds, m[i + 1]!));
  });
}

/**
 * The upstream's text as a client may read it: the parts (a Data API `message` array is joined with
 * `; `) that fit a known sentence, or undefined when none does. For the node, an optional leading
 * `method: ` (ours, node-rpc-call.ts) is kept.
 */
export function clientSafeText(
  upstream: 'data-api' | 'metrics-api' | 'node',
  text: string | undefined,
): string | undefined {
  if (!text || text.length > MAX_TEXT * 4) return undefined;
  const shapes = upstream === 'node' ? [...NODE, ...DATA_API] : DATA_API;
  const method = upstream === 'node' ? METHOD_PREFIX.exec(text)?.[1] : undefined;
  const rest = method ? text.slice(method.length + 2) : text;
  const kept = rest.split('; ').filter((part) => fits(shapes, part));
  if (kept.length === 0) return undefined;
  const out = `${method ? `${method}: ` : ''}${kept.join('; ')}`;
  return out.length <= MAX_TEXT ? out : undefined;
}

/**
 * Where a body breaks its contract, for a `payload` error's message: the path's segments only when they
 * are names or indexes (an upstream's own keys are its text), the issue's own words except for unknown
 * keys (zod names them).
 */
export function misfitWhere(
  issue: { path: readonly PropertyKey[]; message: string; code?: string } | undefined,
): string {
  if (!issue) return 'unexpected shape';
  const path = issue.path
    .map((p) =>
      typeof p === 'number' || (typeof p === 'string' && /^[A-Za-z_$][\w$]{0,63}$/.test(p))
        ? String(p)
        : '?',
    )
    .join('.');
  const why = issue.code === 'unrecognized_keys' ? 'unrecognized keys' : issue.message;
  return `${path || '(root)'}: ${why.slice(0, 200)}`;
}
