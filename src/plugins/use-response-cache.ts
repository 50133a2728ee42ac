import { type ExecutionResult, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { credentialed } from '../cache/credentials.js';
import { noteFreshness } from '../cache/request-freshness.js';
import {
  entryFreshness,
  readResponseEntry,
  responseEntry,
  responseKeyOf,
} from '../cache/response-entry.js';
import type { CacheStore } from '../cache/store.js';
import { boundedTags } from '../cache/surrogate-key-header.js';
import type { GatewayContext } from '../context.js';
import type { GatewayMetrics } from '../metrics.js';
import { requestSlot } from '../telemetry/request-slot.js';

/**
 * Whole-response cache for identical anonymous queries, in the shared store (Redis when configured).
 * A response is kept no longer than the freshest-expiring upstream answer it contains (the request's
 * ServeTracker knows), and never for mutations, responses with errors, stale answers, or requests that
 * carry credentials. (Envelop's response-cache plugin keys TTLs by type or schema coordinate; ours must
 * follow the upstream data's own freshness, which only the read-through knows — hence this small plugin.)
 *
 * The lookup happens as soon as the request's parameters are known, before parsing, validation and the
 * per-request context: a hit costs one store read. Only executed queries are ever stored, so the text of
 * a mutation can never find an entry.
 */
export interface ResponseCacheOptions {
  store: CacheStore;
  /** Upper bound of any response's life (the config's RESPONSE_CACHE_MAX_TTL_MS). 0 disables the cache. */
  maxTtlMs: number;
  metrics?: GatewayMetrics;
  /**
   * The request's partition: a fingerprint of the upstream configuration (base URLs, nodes) and the
   * caller's credential class. Gateways configured differently never share a response over one Redis.
   */
  partitionOf: (request: Request) => string;
  /**
   * The version an entry must carry to be served (the heads of the live chains): kept in the entry, not
   * its key, so a new head replaces a query's entry instead of adding one. @default none
   */
  versionOf?: () => string;
  /**
   * Whether responses name their surrogate keys (SURROGATE_KEY_HEADER is not `off`): entries then keep
   * the tags, so a hit names what the response named when it was computed. @default false
   */
  tagged?: boolean;
  /** @default Date.now */
  now?: () => number;
}

/** Requests the response cache answered (their query text ran and validated when the entry was stored). */
const answered = requestSlot<true>('responseCacheHit');
/**
 * Whether the response cache answered `request`: its query text is then known to parse and validate (an
 * entry is only stored from a successful execution of the same text), though nothing validated it now.
 */
export const answeredFromResponseCache = (request: Request): boolean =>
  answered.get(request) === true;

export function useResponseCache(options: ResponseCacheOptions): Plugin<GatewayContext> {
  const maxTtl = options.maxTtlMs;
  const now = options.now ?? Date.now;
  const count = (event: string) => options.metrics?.responseCache.inc({ event });
  /**
   * The cache key of each request that may be stored (set on a miss, read when execution is done), on
   * the request itself (see telemetry/request-slot.ts).
   */
  const pending = requestSlot<{ key: string; version: string }>('responseCacheKey');
  return {
    async onParams({ params, request, setResult }) {
      if (maxTtl <= 0 || typeof params.query !== 'string') return;
      if (credentialed(request.headers)) {
        count('skip');
        return;
      }
      const key = responseKeyOf(params, options.partitionOf(request));
      if (key === undefined) {
        count('skip'); // not a parseable query: Yoga answers it; nothing to store
        return;
      }
      // Read once, before execution: an answer is labelled with the heads it started from, never later ones.
      const version = options.versionOf?.() ?? '';
      const [raw] = await options.store.getMany([key]);
      const entry = readResponseEntry(raw, version, now(), options.tagged);
      if (entry) {
        count('hit');
        answered.set(request, true);
        // The entry knows when it was stored and for how long: HTTP caches get the freshness left and its age.
        const freshness = entryFreshness(entry, now());
        if (freshness) noteFreshness(request, freshness);
        setResult({ data: entry.value } as ExecutionResult);
        return;
      }
      count('miss');
      pending.set(request, { key, version });
    },
    onExecute({ args }) {
      const ctx = args.contextValue as GatewayContext & { request?: Request };
      const p = ctx.request && pending.get(ctx.request);
      if (!p || getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      return {
        onExecuteDone({ result }) {
          if (!result || Symbol.asyncIterator in result) return;
          const keep = result.errors?.length ? undefined : ctx.served.keepable(maxTtl);
          if (!keep) {
            count('skip');
            return;
          }
          // Unnamed within the header's bound: not shared by HTTP caches (use-http-caching.ts), nor here.
          const tags = options.tagged ? boundedTags(ctx.served.tags) : undefined;
          if (options.tagged && !tags) {
            count('skip');
            return;
          }
          count('store');
          const value = responseEntry(result.data, {
            now: now(),
            ...keep,
            version: p.version,
            ...(tags ? { tags } : {}),
          });
          void options.store.setMany([{ key: p.key, value, ttlMs: keep.ttlMs }]);
        },
      };
    },
  };
}
