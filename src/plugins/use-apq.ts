import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { keys } from '../cache/keys.js';
import type { CacheStore } from '../cache/store.js';
import { type ErrorCode, gqlError } from '../errors.js';
import { requestSlot } from '../telemetry/request-slot.js';
import { answeredFromResponseCache } from './use-response-cache.js';

/**
 * Automatic persisted queries, Apollo's protocol (`extensions.persistedQuery = { version: 1, sha256Hash }`),
 * over GET and POST. A client first sends only the hash; on `PERSISTED_QUERY_NOT_FOUND` it sends the query
 * with its hash once, which the gateway checks (SHA-256 of the text) and, once it has parsed and validated,
 * keeps in the shared store (Redis when configured, so every replica knows it) for a short while: junk is
 * never stored, and what is stored is bounded per document and in time. After that a GET with only the hash is a short, CDN-cacheable URL.
 * Operations of the persisted allowlist (`PERSISTED_OPERATIONS=allow`: the build-time manifest, or the files of
 * PERSISTED_OPERATIONS_FILE) are known without registration.
 *
 * Yoga's own `@graphql-yoga/plugin-apq` needs `@graphql-tools/utils` 10 as a peer, which this tree's 11 does
 * not satisfy; the protocol is small, so it is implemented here on the gateway's store.
 */
export interface ApqOptions {
  store: CacheStore;
  /** How long a registered query is kept (a client registers it again after a miss). @default 1 hour */
  ttlMs?: number;
  /** Largest query text accepted for registration, in UTF-8 bytes. @default 65536 */
  maxQueryBytes?: number;
  /** Known operations by hash (the persisted allowlist, src/edge/persisted-files.ts). */
  manifest?: { get(hash: string): string | undefined };
  onEvent?: (event: 'hit' | 'miss' | 'register' | 'mismatch') => void;
}

const HASH = /^[0-9a-f]{64}$/;
/** A query text sent with its hash, stored once it is known to validate. */
interface Registration {
  hash: string;
  query: string;
  done: boolean;
}
/** How long a registered query is kept by default (docs/caching.md and docs/security.md say so). */
export const APQ_TTL_MS = 3_600_000;
export const apqKey = (hash: string) => keys.persistedQuery(hash);
export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

const apqError = (message: string, code: ErrorCode) =>
  gqlError(code, message, { http: { status: 200 } });

export function useApq(options: ApqOptions): Plugin {
  const ttlMs = options.ttlMs ?? APQ_TTL_MS;
  const maxBytes = options.maxQueryBytes ?? 65_536;
  /** Registrations waiting for their document to validate, by the request's context. */
  const pending = new WeakMap<object, Registration>();
  /** The same registrations by request: one the response cache answered never reaches validation. */
  const byRequest = requestSlot<Registration>('apqRegistration');
  const register = (p: Registration) => {
    p.done = true;
    options.onEvent?.('register');
    // The query text as it is, not an entry: nothing else is kept with it, and it is never parsed as JSON.
    void options.store.setMany([{ key: apqKey(p.hash), value: p.query, ttlMs }]);
  };
  return {
    onValidate({ context }) {
      const p = pending.get(context);
      if (!p) return;
      pending.delete(context);
      return ({ valid }) => {
        if (valid) register(p);
        else p.done = true;
      };
    },
    onResultProcess({ request }) {
      // Answered by the response cache before validation: the text is one that validated when its answer
      // was stored, so it registers as validation would have (else the client's next hash-only request
      // misses again, for as long as the answer stays cached).
      const p = byRequest.get(request);
      if (p && !p.done && answeredFromResponseCache(request)) register(p);
    },
    async onParams({ params, setParams, context, request }) {
      const pq = (params.extensions as { persistedQuery?: unknown } | undefined)?.persistedQuery;
      if (pq === undefined) return;
      const { version, sha256Hash } = (typeof pq === 'object' && pq !== null ? pq : {}) as {
        version?: unknown;
        sha256Hash?: unknown;
      };
      if (version !== 1 || typeof sha256Hash !== 'string' || !HASH.test(sha256Hash)) {
        throw apqError(
          'extensions.persistedQuery needs version 1 and a sha256Hash of 64 hex digits',
          'BAD_USER_INPUT',
        );
      }
      if (typeof params.query === 'string' && params.query.length > 0) {
        if (Buffer.byteLength(params.query) > maxBytes) {
          throw apqError(`a persisted query may be at most ${maxBytes} bytes`, 'BAD_USER_INPUT');
        }
        if (sha256Hex(params.query) !== sha256Hash) {
          options.onEvent?.('mismatch');
          throw apqError('provided sha does not match query', 'PERSISTED_QUERY_HASH_MISMATCH');
        }
        // Stored once it parses and validates (onValidate above); a parse error never gets there.
        if (!options.manifest?.get(sha256Hash)) {
          const p: Registration = { hash: sha256Hash, query: params.query, done: false };
          pending.set(context as object, p);
          byRequest.set(request, p);
        }
        return;
      }
      const known =
        options.manifest?.get(sha256Hash) ?? (await options.store.getMany([apqKey(sha256Hash)]))[0];
      if (known === undefined) {
        options.onEvent?.('miss');
        // Apollo clients look for this message (and code) to send the full query.
        throw apqError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
      }
      options.onEvent?.('hit');
      setParams({ ...params, query: known });
    },
  };
}
