import { badInput } from '../errors.js';

/**
 * Relay global ids: base64url of `Typename:naturalKey`, where the natural key is the one federation
 * uses too (e.g. `Block:43114:12345`, `Chain:43114`). They are stable across releases because they
 * are derived only from upstream identities, never from our internals.
 */
/**
 * Entities typed by their status (an ICM message pending then delivered, a validation period or a
 * delegation pending, active, completed) keep one global id for their whole life: it names their
 * interface, not the status type, so `node(id)` and a Relay or Apollo client cache see one object
 * as its status moves. Each interface maps back to one status type whose loader answers every
 * status (branded with its current type); the old status-named ids still resolve.
 */
const STABLE_NAME: ReadonlyMap<string, string> = new Map([
  ['PendingIcmMessage', 'IcmMessage'],
  ['DeliveredIcmMessage', 'IcmMessage'],
  ['DeliveredSourceNotIndexedIcmMessage', 'IcmMessage'],
  ['PendingValidator', 'Validator'],
  ['ActiveValidator', 'Validator'],
  ['CompletedValidator', 'Validator'],
  ['RemovedValidator', 'Validator'],
  ['PendingDelegator', 'Delegator'],
  ['ActiveDelegator', 'Delegator'],
  ['CompletedDelegator', 'Delegator'],
]);
/** The status type whose loader serves a stable id (any of them would: they share one loader). */
const LOADED_AS: ReadonlyMap<string, string> = new Map([
  ['IcmMessage', 'PendingIcmMessage'],
  ['Validator', 'ActiveValidator'],
  ['Delegator', 'ActiveDelegator'],
]);
export const STABLE_ID_TYPES: ReadonlyMap<string, string> = STABLE_NAME;

export function encodeGlobalId(typename: string, id: string | number | bigint): string {
  const name = STABLE_NAME.get(typename) ?? typename;
  return Buffer.from(`${name}:${String(id)}`, 'utf8').toString('base64url');
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
  const typename = raw.slice(0, sep);
  return { typename: LOADED_AS.get(typename) ?? typename, id: raw.slice(sep + 1) };
}
