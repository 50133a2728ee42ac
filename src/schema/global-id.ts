import { badInput } from '../errors.js';

/**
 * Relay global ids: base64url of `Typename:naturalKey`, where the natural key is the one federation
 * uses too (e.g. `Block:43114:12345`, `Chain:43114`). They are stable across releases because they
 * are derived only from upstream identities, never from our internals.
 */
export function encodeGlobalId(typename: string, id: string | number | bigint): string {
  return Buffer.from(`${typename}:${String(id)}`, 'utf8').toString('base64url');
}

export function decodeGlobalId(globalId: string): { typename: string; id: string } {
  if (typeof globalId !== 'string' || !/^[A-Za-z0-9_-]{4,512}={0,2}$/.test(globalId)) {
    throw badInput('id', 'Malformed global id: expected the opaque id a query returned');
  }
  const raw = Buffer.from(globalId, 'base64url').toString('utf8');
  const sep = raw.indexOf(':');
  if (sep <= 0 || !/^[A-Z][A-Za-z0-9]*$/.test(raw.slice(0, sep)) || sep === raw.length - 1) {
    throw badInput('id', 'Malformed global id: expected the opaque id a query returned');
  }
  return { typename: raw.slice(0, sep), id: raw.slice(sep + 1) };
}
