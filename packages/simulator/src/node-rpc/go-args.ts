import { createHash } from 'node:crypto';

/**
 * Decoding of gorilla-style (avalanchego) method arguments the way Go's encoding/json does it:
 * field names match exactly or case-insensitively, unknown fields are ignored, `null` leaves the
 * zero value, and a value of the wrong JSON type fails the whole argument struct (which the node
 * reports as "couldn't unmarshal an argument…"). Numbers of avalanchego's `json.Uint64` type are
 * accepted as JSON numbers or decimal strings; ids are CB58 with checksum.
 */

export type ArgType =
  | 'string'
  | 'bool'
  | 'uint64'
  | 'uint32'
  | 'string[]'
  | 'id'
  | 'nodeId[]'
  | 'encoding'
  | 'logLevel?'
  | { object: ArgSpec };

export type ArgSpec = { readonly [field: string]: ArgType };

type TypeOf<T> = T extends 'string'
  ? string
  : T extends 'bool'
    ? boolean
    : T extends 'uint64' | 'uint32'
      ? bigint
      : T extends 'string[]' | 'nodeId[]'
        ? string[]
        : T extends 'id'
          ? string
          : T extends 'encoding'
            ? Encoding
            : T extends 'logLevel?'
              ? LogLevel | undefined
              : T extends { object: infer S extends ArgSpec }
                ? Decoded<S>
                : never;

export type Decoded<S extends ArgSpec> = { -readonly [K in keyof S]: TypeOf<S[K]> };

export type Encoding = 'hex' | 'hexnc' | 'hexc' | 'json';
export const LOG_LEVELS = [
  'OFF',
  'FATAL',
  'ERROR',
  'WARN',
  'INFO',
  'TRACE',
  'DEBUG',
  'VERBO',
] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Thrown when an argument does not decode; the gorilla core turns it into the node's generic message. */
export class ArgDecodeError extends Error {
  override name = 'ArgDecodeError';
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** CB58 → bytes (checksum verified), or undefined when malformed. */
export function cb58Decode(s: string): Uint8Array | undefined {
  if (s.length === 0) return undefined;
  let n = 0n;
  for (const ch of s) {
    const v = B58.indexOf(ch);
    if (v < 0) return undefined;
    n = n * 58n + BigInt(v);
  }
  const body: number[] = [];
  while (n > 0n) {
    body.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  let zeros = 0;
  while (s[zeros] === '1') zeros++;
  const all = new Uint8Array([...new Array<number>(zeros).fill(0), ...body]);
  if (all.length < 4) return undefined;
  const data = all.subarray(0, all.length - 4);
  const sum = createHash('sha256').update(data).digest();
  for (let i = 0; i < 4; i++)
    if (all[data.length + i] !== sum[sum.length - 4 + i]) return undefined;
  return data;
}

export const EMPTY_ID = '11111111111111111111111111111111LpoYY';

/** True for a CB58 string of exactly `size` bytes. */
export function isCb58Id(s: string, size = 32): boolean {
  return cb58Decode(s)?.length === size;
}

function fail(): never {
  throw new ArgDecodeError('invalid argument');
}

function zeroOf(t: ArgType): unknown {
  if (typeof t === 'object') return decodeStruct(t.object, null);
  switch (t) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'uint64':
    case 'uint32':
      return 0n;
    case 'string[]':
    case 'nodeId[]':
      return [];
    case 'id':
      return EMPTY_ID;
    case 'encoding':
      return 'hex';
    case 'logLevel?':
      return undefined;
  }
}

function decodeUint(v: unknown, bits: 32 | 64): bigint {
  let text: string;
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < 0) fail();
    text = String(v);
  } else if (typeof v === 'string') text = v;
  else fail();
  if (!/^\d+$/.test(text)) fail();
  const n = BigInt(text);
  if (n >= 1n << BigInt(bits)) fail();
  return n;
}

function decodeValue(t: ArgType, v: unknown, current: unknown): unknown {
  if (v === null) return current; // Go leaves the field untouched on null
  if (typeof t === 'object') return decodeStruct(t.object, v);
  switch (t) {
    case 'string':
      if (typeof v !== 'string') fail();
      return v;
    case 'bool':
      if (typeof v !== 'boolean') fail();
      return v;
    case 'uint64':
      return decodeUint(v, 64);
    case 'uint32':
      return decodeUint(v, 32);
    case 'string[]':
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' && x !== null)) fail();
      return v.map((x) => (x === null ? '' : (x as string)));
    case 'nodeId[]':
      if (!Array.isArray(v)) fail();
      return v.map((x) => {
        if (typeof x !== 'string' || !x.startsWith('NodeID-') || !isCb58Id(x.slice(7), 20)) fail();
        return x;
      });
    case 'id':
      if (typeof v !== 'string' || !isCb58Id(v)) fail();
      return v;
    case 'encoding': {
      if (typeof v !== 'string') fail();
      const e = v.toLowerCase();
      if (e !== 'hex' && e !== 'hexnc' && e !== 'hexc' && e !== 'json') fail();
      return e;
    }
    case 'logLevel?': {
      if (typeof v !== 'string') fail();
      const l = v.toUpperCase();
      if (!(LOG_LEVELS as readonly string[]).includes(l)) fail();
      return l;
    }
  }
}

function decodeStruct<S extends ArgSpec>(spec: S, raw: unknown): Decoded<S> {
  const out: Record<string, unknown> = {};
  for (const [k, t] of Object.entries(spec)) out[k] = zeroOf(t);
  if (raw === null || raw === undefined) return out as Decoded<S>;
  if (typeof raw !== 'object' || Array.isArray(raw)) fail();
  const fields = Object.keys(spec);
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const field =
      fields.find((f) => f === key) ?? fields.find((f) => f.toLowerCase() === key.toLowerCase());
    if (field === undefined) continue; // unknown fields are ignored
    out[field] = decodeValue(spec[field]!, value, out[field]);
  }
  return out as Decoded<S>;
}

/**
 * gorilla json2 `ReadRequest`: params absent or null → zero args; an object → the struct; otherwise
 * the params are read as a one-element array holding the struct (extra elements are ignored).
 */
export function decodeArgs<S extends ArgSpec>(spec: S, params: unknown): Decoded<S> {
  if (params === undefined || params === null) return decodeStruct(spec, null);
  if (Array.isArray(params)) return decodeStruct(spec, params.length === 0 ? null : params[0]);
  return decodeStruct(spec, params);
}
