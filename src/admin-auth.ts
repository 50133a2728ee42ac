import { createHash, timingSafeEqual } from 'node:crypto';
import { gqlError } from './errors.js';

/**
 * Node admin access (admin API reads and mutations, transaction issuing). Off unless the operator set
 * `ADMIN_TOKEN`; a request proves it with `Authorization: Bearer <token>`. Decided once per request, before
 * any resolver runs, and kept as a verdict only: the token itself is never stored in the context, logged,
 * put in an error or a cache key. (A request carrying `Authorization` is also never served from, nor stored
 * in, the whole-response cache.)
 */
export type AdminAuth = { readonly status: 'disabled' | 'missing' | 'invalid' | 'granted' };

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export function readAdminAuth(
  authorization: string | null,
  adminToken: string | undefined,
): AdminAuth {
  if (!adminToken) return { status: 'disabled' };
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  if (!m) return { status: 'missing' };
  // Equal-length digests: the comparison takes the same time whatever the given token's length or content.
  return { status: timingSafeEqual(digest(m[1]!), digest(adminToken)) ? 'granted' : 'invalid' };
}

/** Throws the client-visible refusal unless the request holds the admin token. Call before any upstream call. */
export function requireAdmin(auth: AdminAuth | undefined): void {
  switch (auth?.status ?? 'disabled') {
    case 'granted':
      return;
    case 'disabled':
      throw gqlError(
        'FORBIDDEN',
        'Node admin operations are disabled on this gateway (the operator has not set ADMIN_TOKEN)',
      );
    case 'missing':
      throw gqlError(
        'UNAUTHENTICATED',
        'Node admin operations need the admin token: send "Authorization: Bearer <token>"',
      );
    case 'invalid':
      throw gqlError('FORBIDDEN', 'The admin token sent in the Authorization header is not valid');
  }
}
