import { createHash } from 'node:crypto';

/**
 * Whose credential an upstream call spends: the operator's (the configured key, or none) or a caller's
 * own key. Breakers, pacing and the plan's governor are kept per credential, so one caller's failures
 * and rate limits stay that caller's.
 */
export interface Credential {
  kind: 'operator' | 'caller';
  /** `operator`, or `caller:` and a hash of the key (a key is never kept as a label or map key). */
  id: string;
}

const OPERATOR: Credential = { kind: 'operator', id: 'operator' };

/** Ids of callers' keys, by the per-caller headers object (one per caller's client set, src/upstream/clients.ts). */
const callerIds = new WeakMap<object, string>();

/**
 * Whose credential a call spends: the operator's (no per-call headers) or a caller's own key (its
 * per-call headers), identified by a hash of the key so no key is kept as a label or map key.
 */
export function credentialOf(opts: { headers?: Record<string, string> }): Credential {
  const h = opts.headers;
  if (!h) return OPERATOR;
  let id = callerIds.get(h);
  if (id === undefined) {
    const key = Object.values(h).join('\u0000');
    id = `caller:${createHash('sha256').update(key).digest('base64url').slice(0, 16)}`;
    callerIds.set(h, id);
  }
  return { kind: 'caller', id };
}
