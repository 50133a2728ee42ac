import type { SimRequest, SimResponse } from '../types.js';
import { ArgDecodeError, type ArgSpec, type Decoded, decodeArgs } from './go-args.js';
import { goField, goJsonKind, readFirstJsonValue } from './go-json.js';

/**
 * The protocol core of avalanchego's node-style endpoints (`/ext/info`, `/ext/admin`, `/ext/bc/X`,
 * `/ext/bc/C/avax`, `/ext/bc/C/admin`, `/ext/health`): gorilla/rpc v1.2.0 with the json2 codec and
 * avalanchego's `utils/json` wrapper. What it reproduces:
 * - non-POST → HTTP 405 and a Content-Type other than application/json → HTTP 415, both plain text;
 * - invalid JSON, an empty body, and a JSON array (gorilla has no batches) → -32700 with the
 *   decoder's message and the half-decoded request echoed in `data`, id null;
 * - `jsonrpc` other than "2.0" → -32600 "jsonrpc must be 2.0";
 * - everything else (ill-formed or unknown method, an upper-case method, undecodable params and
 *   every application error) → -32000 with `data: null`;
 * - HTTP 200 for all JSON-RPC errors; no body at all for a request without `id` (or `id: null`),
 *   except for a parse error;
 * - params as an object, or an array whose first element is that object.
 */

export const ERR_INVALID_ARG =
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

/** An application error: answered as -32000 with this message. */
export class NodeRpcError extends Error {
  override name = 'NodeRpcError';
}

export interface GorillaMethod<S extends ArgSpec = ArgSpec> {
  args: S;
  handle: (args: Decoded<S>, req: SimRequest) => unknown;
}

/** A method with its argument spec (the helper keeps the handler's argument type inferred). */
export function method<const S extends ArgSpec>(
  args: S,
  handle: (args: Decoded<S>, req: SimRequest) => unknown,
): GorillaMethod<S> {
  return { args, handle };
}

export interface GorillaService {
  /** The service name before the dot: `info`, `admin`, `avm`, `avax`, `health`. */
  name: string;
  /** Methods by their JSON-RPC name after the dot, e.g. `getNodeID`. */
  // biome-ignore lint/suspicious/noExplicitAny: each method declares its own params type
  methods: Record<string, GorillaMethod<any>>;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

function plain(status: number, text: string, route: string): SimResponse {
  return {
    status,
    text,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    route,
    rpcMethods: [],
  };
}

interface ParsedRequest {
  jsonrpc: string;
  method: string;
  params: unknown;
  /** undefined = absent or null (a notification). */
  id: unknown;
}

type Outcome = { result: unknown } | { error: { code: number; message: string; data: unknown } };

/** The echo of the decoded request gorilla puts in `data` of -32700/-32600 errors. */
function echo(r: ParsedRequest): unknown {
  return { jsonrpc: r.jsonrpc, method: r.method, params: r.params ?? null, id: r.id ?? null };
}

/** Decodes the body into gorilla's serverRequest, returning a protocol error when Go's decoder would. */
function parseRequest(body: string): { req: ParsedRequest; error?: Outcome } {
  const req: ParsedRequest = { jsonrpc: '', method: '', params: undefined, id: undefined };
  const first = readFirstJsonValue(body);
  if (!first.ok)
    return { req, error: { error: { code: -32700, message: first.message, data: echo(req) } } };
  const v = first.value;
  if (v === null)
    return {
      req,
      error: { error: { code: -32600, message: 'jsonrpc must be 2.0', data: echo(req) } },
    };
  if (typeof v !== 'object' || Array.isArray(v)) {
    const message = `json: cannot unmarshal ${goJsonKind(v)} into Go value of type json2.serverRequest`;
    return { req, error: { error: { code: -32700, message, data: echo(req) } } };
  }
  const o = v as Record<string, unknown>;
  let typeError: string | undefined;
  for (const field of ['jsonrpc', 'method'] as const) {
    const x = goField(o, field);
    if (typeof x === 'string') req[field] = x;
    else if (x !== undefined && x !== null)
      typeError ??= `json: cannot unmarshal ${goJsonKind(x)} into Go struct field serverRequest.${field} of type string`;
  }
  const params = goField(o, 'params');
  req.params = params === null ? undefined : params;
  const id = goField(o, 'id');
  req.id = id === null ? undefined : id;
  if (typeError)
    return { req, error: { error: { code: -32700, message: typeError, data: echo(req) } } };
  if (req.jsonrpc !== '2.0')
    return {
      req,
      error: { error: { code: -32600, message: 'jsonrpc must be 2.0', data: echo(req) } },
    };
  return { req };
}

/** avalanchego's method-name rewrite and gorilla's service/method lookup, with their error texts. */
function lookup(name: string, services: GorillaService[]): GorillaMethod | string {
  const dot = name.indexOf('.');
  let goName = name;
  if (dot >= 0) {
    const fn = name.slice(dot + 1);
    const first = fn.codePointAt(0);
    if (first !== undefined) {
      const ch = String.fromCodePoint(first);
      if (ch !== ch.toLowerCase() && ch === ch.toUpperCase())
        return 'method must start with a non-uppercase letter';
      goName = `${name.slice(0, dot)}.${ch.toUpperCase()}${fn.slice(ch.length)}`;
    }
  }
  const parts = goName.split('.');
  if (parts.length !== 2)
    return `rpc: service/method request ill-formed: ${JSON.stringify(goName)}`;
  const service = services.find((s) => s.name === parts[0]);
  if (!service) return `rpc: can't find service ${JSON.stringify(goName)}`;
  const m = Object.entries(service.methods).find(
    ([k]) => k.charAt(0).toUpperCase() + k.slice(1) === parts[1],
  );
  if (!m) return `rpc: can't find method ${JSON.stringify(goName)}`;
  return m[1];
}

function contentTypeOk(req: SimRequest): { ok: boolean; given: string } {
  const raw = req.headers['content-type'];
  let ct = (Array.isArray(raw) ? raw[0] : raw) ?? '';
  const semi = ct.indexOf(';');
  if (semi >= 0) ct = ct.slice(0, semi);
  return { ok: ct.toLowerCase() === 'application/json', given: ct };
}

/** Serves one gorilla JSON-RPC endpoint. */
export async function serveGorilla(
  req: SimRequest,
  route: string,
  services: GorillaService[],
): Promise<SimResponse> {
  if (req.method !== 'POST')
    return plain(405, `rpc: POST method required, received ${req.method}`, route);
  const ct = contentTypeOk(req);
  if (!ct.ok) return plain(415, `rpc: unrecognized Content-Type: ${ct.given}`, route);

  const { req: rpc, error } = parseRequest(req.rawBody);
  const rpcMethods = rpc.method ? [rpc.method] : [];
  let outcome: Outcome;
  if (error) outcome = error;
  else {
    const found = lookup(rpc.method, services);
    if (typeof found === 'string')
      outcome = { error: { code: -32000, message: found, data: null } };
    else {
      try {
        const args = decodeArgs(found.args, rpc.params);
        outcome = { result: await found.handle(args, req) };
      } catch (e) {
        if (e instanceof ArgDecodeError)
          outcome = { error: { code: -32000, message: ERR_INVALID_ARG, data: null } };
        else if (e instanceof NodeRpcError)
          outcome = { error: { code: -32000, message: e.message, data: null } };
        else throw e;
      }
    }
  }
  const isParseError = 'error' in outcome && outcome.error.code === -32700;
  if (rpc.id === undefined && !isParseError) return { status: 200, text: '', route, rpcMethods };
  const body =
    'result' in outcome
      ? { jsonrpc: '2.0', result: outcome.result, id: rpc.id ?? null }
      : { jsonrpc: '2.0', error: outcome.error, id: rpc.id ?? null };
  return { status: 200, body, headers: JSON_HEADERS, route, rpcMethods };
}
