/**
 * Reading a request body the way Go's `json.NewDecoder(body).Decode(&v)` does: the first JSON value
 * is read and anything after it is ignored; a syntax error carries Go's scanner message (e.g.
 * "invalid character 'o' in literal null (expecting 'u')"), an empty body is "EOF" and a truncated
 * one "unexpected EOF". Both node servers (gorilla and geth) read bodies this way.
 */

export type FirstValue =
  | { ok: true; value: unknown }
  | { ok: false; message: string; empty: boolean };

class ScanError extends Error {}

function quoteChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  const q = JSON.stringify(c);
  return `'${q.slice(1, -1)}'`;
}

const WS = new Set([' ', '\t', '\n', '\r']);
const DIGIT = /[0-9]/;
const HEX = /[0-9a-fA-F]/;

/** Returns the index just past the JSON value starting at `i` (after whitespace). */
function scanValue(s: string, i: number, ctx: string): number {
  while (i < s.length && WS.has(s[i]!)) i++;
  if (i >= s.length) throw new ScanError('unexpected EOF');
  const c = s[i]!;
  if (c === '{') return scanObject(s, i + 1);
  if (c === '[') return scanArray(s, i + 1);
  if (c === '"') return scanString(s, i + 1);
  if (c === '-' || DIGIT.test(c)) return scanNumber(s, i);
  for (const lit of ['true', 'false', 'null']) {
    if (c !== lit[0]) continue;
    for (let k = 1; k < lit.length; k++) {
      if (i + k >= s.length) throw new ScanError('unexpected EOF');
      if (s[i + k] !== lit[k])
        throw new ScanError(
          `invalid character ${quoteChar(s[i + k]!)} in literal ${lit} (expecting '${lit[k]}')`,
        );
    }
    return i + lit.length;
  }
  throw new ScanError(`invalid character ${quoteChar(c)} ${ctx}`);
}

function skipWs(s: string, i: number): number {
  while (i < s.length && WS.has(s[i]!)) i++;
  if (i >= s.length) throw new ScanError('unexpected EOF');
  return i;
}

function scanObject(s: string, i: number): number {
  i = skipWs(s, i);
  if (s[i] === '}') return i + 1;
  for (;;) {
    if (s[i] !== '"')
      throw new ScanError(
        `invalid character ${quoteChar(s[i]!)} looking for beginning of object key string`,
      );
    i = skipWs(s, scanString(s, i + 1));
    if (s[i] !== ':') throw new ScanError(`invalid character ${quoteChar(s[i]!)} after object key`);
    i = skipWs(s, scanValue(s, i + 1, 'looking for beginning of value'));
    if (s[i] === '}') return i + 1;
    if (s[i] !== ',')
      throw new ScanError(`invalid character ${quoteChar(s[i]!)} after object key:value pair`);
    i = skipWs(s, i + 1);
  }
}

function scanArray(s: string, i: number): number {
  i = skipWs(s, i);
  if (s[i] === ']') return i + 1;
  for (;;) {
    i = skipWs(s, scanValue(s, i, 'looking for beginning of value'));
    if (s[i] === ']') return i + 1;
    if (s[i] !== ',')
      throw new ScanError(`invalid character ${quoteChar(s[i]!)} after array element`);
    i += 1;
  }
}

function scanString(s: string, i: number): number {
  for (;;) {
    if (i >= s.length) throw new ScanError('unexpected EOF');
    const c = s[i]!;
    if (c === '"') return i + 1;
    if (c < ' ') throw new ScanError(`invalid character ${quoteChar(c)} in string literal`);
    if (c === '\\') {
      const e = s[i + 1];
      if (e === undefined) throw new ScanError('unexpected EOF');
      if (e === 'u') {
        for (let k = 2; k < 6; k++) {
          const h = s[i + k];
          if (h === undefined) throw new ScanError('unexpected EOF');
          if (!HEX.test(h))
            throw new ScanError(
              `invalid character ${quoteChar(h)} in \\u hexadecimal character escape`,
            );
        }
        i += 6;
        continue;
      }
      if (!'"\\/bfnrt'.includes(e))
        throw new ScanError(`invalid character ${quoteChar(e)} in string escape code`);
      i += 2;
      continue;
    }
    i++;
  }
}

function scanNumber(s: string, i: number): number {
  if (s[i] === '-') {
    i++;
    if (i >= s.length) throw new ScanError('unexpected EOF');
    if (!DIGIT.test(s[i]!))
      throw new ScanError(`invalid character ${quoteChar(s[i]!)} in numeric literal`);
  }
  if (s[i] === '0') i++;
  else while (i < s.length && DIGIT.test(s[i]!)) i++;
  if (s[i] === '.') {
    i++;
    if (i >= s.length) throw new ScanError('unexpected EOF');
    if (!DIGIT.test(s[i]!))
      throw new ScanError(
        `invalid character ${quoteChar(s[i]!)} after decimal point in numeric literal`,
      );
    while (i < s.length && DIGIT.test(s[i]!)) i++;
  }
  if (s[i] === 'e' || s[i] === 'E') {
    i++;
    if (s[i] === '+' || s[i] === '-') i++;
    if (i >= s.length) throw new ScanError('unexpected EOF');
    if (!DIGIT.test(s[i]!))
      throw new ScanError(`invalid character ${quoteChar(s[i]!)} in exponent of numeric literal`);
    while (i < s.length && DIGIT.test(s[i]!)) i++;
  }
  return i;
}

/** Reads the first JSON value of a body as Go's json.Decoder would. */
export function readFirstJsonValue(body: string): FirstValue {
  let start = 0;
  while (start < body.length && WS.has(body[start]!)) start++;
  if (start >= body.length) return { ok: false, message: 'EOF', empty: true };
  try {
    const end = scanValue(body, start, 'looking for beginning of value');
    return { ok: true, value: JSON.parse(body.slice(start, end)) as unknown };
  } catch (e) {
    return {
      ok: false,
      message: e instanceof ScanError ? e.message : 'unexpected EOF',
      empty: false,
    };
  }
}

/** Go's name of a JSON value's kind in "cannot unmarshal X into …" messages. */
export function goJsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** A field of an object looked up like Go's decoder: keys match case-insensitively and the last match wins. */
export function goField(obj: Record<string, unknown>, name: string): unknown {
  let found: unknown;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(obj)) if (k === name || k.toLowerCase() === lower) found = v;
  return found;
}
