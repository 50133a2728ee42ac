import type { IncomingMessage } from 'node:http';
import type { DirectRequest } from './direct.js';

/** Reading a request as Yoga's HTTP layer would: its parameters (GET or JSON POST), body and media type. */
/**
 * What Yoga's request checks pass untouched: a string `query`, and nothing but `variables` (an object or
 * null) and `operationName` (a string or null) besides; anything else is Yoga's to refuse.
 */
export function isDirectParams(p: Record<string, unknown>): p is DirectRequest['params'] {
  if (typeof p.query !== 'string' || p.query === '') return false;
  for (const key in p)
    if (key !== 'query' && key !== 'variables' && key !== 'operationName') return false;
  const v = p.variables;
  if (v !== undefined && v !== null && (typeof v !== 'object' || Array.isArray(v))) return false;
  const n = p.operationName;
  return n === undefined || n === null || typeof n === 'string';
}

/**
 * The media type Yoga's result processor would choose for a single result, or undefined when it would
 * choose a stream (or refuse): its rule, kept exact: `accept` entries (utf-8 only) are tried from the last
 * to the first against `application/graphql-response+json` then `application/json`, the last match winning.
 */
export function mediaTypeFor(accept: string | undefined): string | undefined {
  // Clients send a few Accept values again and again: those of up to 256 characters are remembered
  // (64 of them, at most 16 KiB).
  const key = accept ?? '';
  if (KNOWN_ACCEPTS.has(key)) return KNOWN_ACCEPTS.get(key);
  const chosen = chooseMediaType(accept);
  if (key.length <= 256) {
    if (KNOWN_ACCEPTS.size >= 64) KNOWN_ACCEPTS.clear();
    KNOWN_ACCEPTS.set(key, chosen);
  }
  return chosen;
}
const KNOWN_ACCEPTS = new Map<string, string | undefined>();

function chooseMediaType(accept: string | undefined): string | undefined {
  const asked = (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .flatMap((a) => {
      const [type, ...ps] = a.split(';');
      const charset = ps.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
      return type !== undefined && charset === 'charset=utf-8' ? [type] : [];
    })
    .reverse();
  let chosen: string | undefined;
  for (const want of asked)
    for (const offered of ['application/graphql-response+json', 'application/json'])
      if (matches(offered, want)) chosen = offered;
  // A stream type asked before any JSON one: Yoga answers it as a stream of one result.
  return chosen;
}

function matches(offered: string, asked: string): boolean {
  const [ap, as] = asked.split('/');
  const [op, os] = offered.split('/');
  return (ap === '*' || ap === op) && (as === '*' || as === os);
}

export function getParams(search: string): Record<string, unknown> | undefined {
  const u = new URLSearchParams(search);
  const query = u.get('query');
  if (query === null) return undefined;
  const vars = u.get('variables');
  let variables: unknown;
  if (vars !== null) {
    try {
      variables = JSON.parse(vars);
    } catch {
      return undefined; // Yoga answers the error
    }
  }
  return {
    query,
    operationName: u.get('operationName') ?? undefined,
    variables,
    extensions: u.get('extensions') ?? undefined,
  };
}

export function jsonParams(body: Buffer): Record<string, unknown> | undefined {
  try {
    const p = JSON.parse(body.toString('utf8')) as unknown;
    return typeof p === 'object' && p !== null && !Array.isArray(p)
      ? (p as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let got = 0;
    req.on('data', (c: Buffer) => {
      got += c.length;
      chunks.push(c);
    });
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, got)));
    req.once('error', reject);
  });
}

export const stringHeader = (v: string | string[] | undefined): string | null =>
  typeof v === 'string' ? v : null;
