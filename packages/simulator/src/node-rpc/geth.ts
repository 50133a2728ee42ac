import type { SimRequest, SimResponse } from '../types.js';
import { goField, readFirstJsonValue } from './go-json.js';

/**
 * The protocol core of the C-Chain's go-ethereum-style endpoint (`/ext/bc/C/rpc`), after
 * avalanchego `graft/evm/rpc` (http.go, handler.go, json.go, errors.go):
 * - GET without body or query → HTTP 200 empty (load-balancer health check); PUT/DELETE → 405;
 *   a Content-Type other than application/json (or json-rpc / jsonrequest) → 415; plain text;
 * - invalid JSON → -32700 "parse error" (id null); an empty body → no answer at all;
 * - a JSON array is a batch: empty → -32600 "empty batch"; more than `batchLimit` calls →
 *   a one-element array holding -32600 "batch too large" with the id of the first call;
 * - a message without `jsonrpc: "2.0"` or `method` → -32600 "invalid request";
 * - unknown method → -32601 "the method X does not exist/is not available";
 * - positional params decoded per argument: -32602 "missing value for required argument N",
 *   "invalid argument N: …", "too many arguments, want at most N", "non-array args";
 * - application errors → -32000; notifications (no `id`) get no response;
 * - `{"jsonrpc":"2.0","id":…,"result"|"error":…}`, `error.data` only when set; HTTP 200 throughout.
 */

/** An error a method answers with: -32000 unless another code is given. */
export class EthRpcError extends Error {
  override name = 'EthRpcError';
  constructor(
    message: string,
    readonly code = -32000,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** Decodes one positional argument or throws an Error whose message follows "invalid argument N: ". */
export type ArgDecoder<T> = (raw: unknown) => T;

export interface EthArg<T = unknown> {
  decode: ArgDecoder<T>;
  /** A Go pointer type: may be omitted. */
  optional?: boolean;
}

export interface EthMethod {
  args: EthArg[];
  handle: (args: unknown[]) => unknown;
}

/** A method with typed positional arguments. */
export function ethMethod<A extends unknown[]>(
  args: { [K in keyof A]: EthArg<A[K]> },
  handle: (...args: A) => unknown,
): EthMethod {
  return { args: args as EthArg[], handle: (a) => handle(...(a as A)) };
}

interface Message {
  version: string;
  id: unknown; // undefined = absent
  method: string;
  params: unknown;
  isResponse: boolean;
}

type Reply = {
  jsonrpc: '2.0';
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

const JSON_HEADERS = { 'content-type': 'application/json' };
const ACCEPTED_CT = ['application/json', 'application/json-rpc', 'application/jsonrequest'];
/** The node's HTTP body limit (`http-body-limit`, 5 MiB by default in geth's server). */
const BODY_LIMIT = 5 * 1024 * 1024;

function toMessage(v: unknown): Message {
  const msg: Message = {
    version: '',
    id: undefined,
    method: '',
    params: undefined,
    isResponse: false,
  };
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return msg;
  const o = v as Record<string, unknown>;
  const version = goField(o, 'jsonrpc');
  const method = goField(o, 'method');
  if (typeof version === 'string') msg.version = version;
  if (typeof method === 'string') msg.method = method;
  msg.id = goField(o, 'id');
  msg.params = goField(o, 'params');
  msg.isResponse = goField(o, 'result') !== undefined || goField(o, 'error') !== undefined;
  return msg;
}

const hasValidId = (m: Message) =>
  m.id !== undefined && (typeof m.id !== 'object' || m.id === null);
const isCall = (m: Message) => m.version === '2.0' && hasValidId(m) && m.method !== '';
const isNotification = (m: Message) => m.version === '2.0' && m.id === undefined && m.method !== '';

function errorReply(id: unknown, code: number, message: string, data?: unknown): Reply {
  return {
    jsonrpc: '2.0',
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}

function parseArgs(params: unknown, args: EthArg[]): unknown[] {
  if (params === undefined || params === null) params = [];
  if (!Array.isArray(params)) throw new EthRpcError('non-array args', -32602);
  if (params.length > args.length)
    throw new EthRpcError(`too many arguments, want at most ${args.length}`, -32602);
  const out: unknown[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (i >= params.length) {
      if (!a.optional) throw new EthRpcError(`missing value for required argument ${i}`, -32602);
      out.push(undefined);
      continue;
    }
    const raw = params[i];
    if (raw === null && a.optional) {
      out.push(undefined);
      continue;
    }
    try {
      out.push(a.decode(raw));
    } catch (e) {
      throw new EthRpcError(`invalid argument ${i}: ${(e as Error).message}`, -32602);
    }
  }
  return out;
}

async function callOne(m: Message, methods: Record<string, EthMethod>): Promise<Reply | undefined> {
  if (!isCall(m) && !isNotification(m)) {
    if (m.version === '2.0' && hasValidId(m) && m.isResponse && m.method === '') return undefined; // a stray response
    return errorReply(hasValidId(m) ? m.id : null, -32600, 'invalid request');
  }
  let reply: Reply;
  const def = Object.hasOwn(methods, m.method) ? methods[m.method] : undefined;
  if (!def)
    reply = errorReply(m.id, -32601, `the method ${m.method} does not exist/is not available`);
  else {
    try {
      const result = await def.handle(parseArgs(m.params, def.args));
      reply = { jsonrpc: '2.0', id: m.id, result: result ?? null };
    } catch (e) {
      if (!(e instanceof EthRpcError)) throw e;
      reply = errorReply(m.id, e.code, e.message, e.data);
    }
  }
  return isNotification(m) ? undefined : reply;
}

function header(req: SimRequest, name: string): string {
  const v = req.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

function plain(status: number, text: string, route: string): SimResponse {
  return {
    status,
    text: `${text}\n`,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    route,
    rpcMethods: [],
  };
}

/** Serves the EVM JSON-RPC endpoint with go-ethereum's semantics and a batch limit. */
export async function serveGeth(
  req: SimRequest,
  route: string,
  methods: Record<string, EthMethod>,
  batchLimit: number,
): Promise<SimResponse> {
  if (req.method === 'GET' && req.rawBody.length === 0 && [...req.query.keys()].length === 0)
    return { status: 200, text: '', route, rpcMethods: [] };
  if (req.method === 'PUT' || req.method === 'DELETE')
    return plain(405, 'method not allowed', route);
  const length = Buffer.byteLength(req.rawBody);
  if (length > BODY_LIMIT)
    return plain(413, `content length too large (${length}>${BODY_LIMIT})`, route);
  if (req.method !== 'OPTIONS') {
    const mediaType = header(req, 'content-type').split(';')[0]!.trim().toLowerCase();
    if (!ACCEPTED_CT.includes(mediaType))
      return plain(415, 'invalid content type, only application/json is supported', route);
  }
  const first = readFirstJsonValue(req.rawBody);
  if (!first.ok) {
    if (first.empty) return { status: 200, text: '', route, rpcMethods: [] };
    return {
      status: 200,
      body: errorReply(null, -32700, 'parse error'),
      headers: JSON_HEADERS,
      route,
      rpcMethods: [],
    };
  }
  if (!Array.isArray(first.value)) {
    const m = toMessage(first.value);
    const rpcMethods = m.method ? [m.method] : [];
    const reply = await callOne(m, methods);
    if (!reply) return { status: 200, text: '', route, rpcMethods };
    return { status: 200, body: reply, headers: JSON_HEADERS, route, rpcMethods };
  }
  const msgs = first.value.map(toMessage);
  const rpcMethods = msgs.filter((m) => m.method).map((m) => m.method);
  if (msgs.length === 0)
    return {
      status: 200,
      body: errorReply(null, -32600, 'empty batch'),
      headers: JSON_HEADERS,
      route,
      rpcMethods,
    };
  if (msgs.length > batchLimit) {
    const firstCall = msgs.find(isCall);
    return {
      status: 200,
      body: [errorReply(firstCall ? firstCall.id : null, -32600, 'batch too large')],
      headers: JSON_HEADERS,
      route,
      rpcMethods,
    };
  }
  const replies: Reply[] = [];
  for (const m of msgs) {
    const r = await callOne(m, methods);
    if (r) replies.push(r);
  }
  if (replies.length === 0) return { status: 200, text: '', route, rpcMethods };
  return { status: 200, body: replies, headers: JSON_HEADERS, route, rpcMethods };
}
