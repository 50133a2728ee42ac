import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CacheStore } from '../cache/store.js';

/**
 * Automatic persisted queries, Apollo's protocol (`extensions.persistedQuery = { version: 1, sha256Hash }`),
 * over GET and POST. A client first sends only the hash; on `PERSISTED_QUERY_NOT_FOUND` it sends the query
 * with its hash once, which the gateway checks (SHA-256 of the text) and keeps in the shared store (Redis when
 * configured, so every replica knows it). After that a GET with only the hash is a short, CDN-cacheable URL.
 * Operations of the build-time manifest (`schema/persisted-operations.json`) are known without registration.
 *
 * Yoga's own `@graphql-yoga/plugin-apq` needs `@graphql-tools/utils` 10 as a peer, which this tree's 11 does
 * not satisfy; the protocol is small, so it is implemented here on the gateway's store.
 */
export interface ApqOptions {
  store: CacheStore;
  /** How long a registered query is kept. @default 7 days */
  ttlMs?: number;
  /** Longest query text accepted for registration (characters). @default 100000 */
  maxQueryLength?: number;
  /** Known operations by hash (the build-time manifest). */
  manifest?: Readonly<Record<string, string>>;
  onEvent?: (event: 'hit' | 'miss' | 'register' | 'mismatch') => void;
}

const HASH = /^[0-9a-f]{64}$/;
export const apqKey = (hash: string) => `gw:v1:apq:${hash}`;
export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

const apqError = (message: string, code: string) =>
  new GraphQLError(message, { extensions: { code, http: { status: 200 } } });

export function useApq(o: ApqOptions): Plugin {
  const ttlMs = o.ttlMs ?? 7 * 24 * 3600_000;
  const maxLen = o.maxQueryLength ?? 100_000;
  return {
    async onParams({ params, setParams }) {
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
        if (params.query.length > maxLen) {
          throw apqError(`a persisted query may be at most ${maxLen} characters`, 'BAD_USER_INPUT');
        }
        if (sha256Hex(params.query) !== sha256Hash) {
          o.onEvent?.('mismatch');
          throw apqError('provided sha does not match query', 'PERSISTED_QUERY_HASH_MISMATCH');
        }
        if (!o.manifest?.[sha256Hash]) {
          o.onEvent?.('register');
          await o.store.setMany([{ key: apqKey(sha256Hash), value: params.query, ttlMs }]);
        }
        return;
      }
      const known = o.manifest?.[sha256Hash] ?? (await o.store.getMany([apqKey(sha256Hash)]))[0];
      if (known === undefined) {
        o.onEvent?.('miss');
        // Apollo clients look for this message (and code) to send the full query.
        throw apqError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
      }
      o.onEvent?.('hit');
      setParams({ ...params, query: known });
    },
  };
}
