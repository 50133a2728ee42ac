import { createHash } from 'node:crypto';
import { type ExecutionResult, getOperationAST, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { createBytesLru } from '../cache/bytes-lru.js';
import { keys } from '../cache/keys.js';
import type { CacheStore } from '../cache/store.js';
import { CREDENTIAL_HEADERS, type GatewayContext } from '../context.js';
import type { GatewayMetrics } from '../metrics.js';
import { requestSlot } from '../telemetry/request-slot.js';
import { noteFreshness } from './use-http-caching.js';

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
  /** Upper bound of any response's life. 0 disables the cache. @default 60000 */
  maxTtlMs?: number;
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
  /** @default Date.now */
  now?: () => number;
}

export function useResponseCache(o: ResponseCacheOptions): Plugin<GatewayContext> {
  const maxTtl = o.maxTtlMs ?? 60_000;
  const now = o.now ?? Date.now;
  const count = (event: string) => o.metrics?.responseCache.inc({ event });
  /**
   * The cache key of each request that may be stored (set on a miss, read when execution is done), on
   * the request itself (see telemetry/request-slot.ts).
   */
  const pending = requestSlot<{ key: string; version: string }>('responseCacheKey');
  return {
    async onParams({ params, request, setResult }) {
      if (maxTtl <= 0 || typeof params.query !== 'string') return;
      if (CREDENTIAL_HEADERS.some((h) => request.headers.get(h))) {
        count('skip');
        return;
      }
      const key = responseKeyOf(params, o.partitionOf(request));
      if (key === undefined) {
        count('skip'); // not a parseable query: Yoga answers it; nothing to store
        return;
      }
      // Read once, before execution: an answer is labelled with the heads it started from, never later ones.
      const version = o.versionOf?.() ?? '';
      const [raw] = await o.store.getMany([key]);
      const entry = readResponseEntry(raw, version, now());
      if (entry) {
        count('hit');
        // The entry knows when it was stored and for how long: HTTP caches get the freshness left and its age.
        if (entry.t !== undefined && entry.ttl !== undefined)
          noteFreshness(request, {
            maxAgeMs: Math.max(0, entry.t + entry.ttl - now()),
            swrMs: entry.swr ?? 0,
            ageMs: now() - entry.t,
          });
        setResult({ data: entry.data } as ExecutionResult);
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
          count('store');
          const entry = {
            data: result.data,
            t: now(),
            ttl: keep.ttlMs,
            swr: keep.swrMs,
            ...(p.version ? { h: p.version } : {}),
          };
          void o.store.setMany([{ key: p.key, value: JSON.stringify(entry), ttlMs: keep.ttlMs }]);
        },
      };
    },
  };
}

/**
 * The whole-response cache key of a request's parameters within a partition, or undefined when its text
 * does not parse. Only the variables the operation declares are part of the key (sorted): undeclared ones
 * change nothing in the answer, and must not grow the cache. (The fast path, src/http/fast-path.ts, finds
 * entries by the same key.)
 */
export function responseKeyOf(
  params: { query?: unknown; operationName?: unknown; variables?: unknown },
  partition: string,
): string | undefined {
  if (typeof params.query !== 'string') return undefined;
  const operationName = typeof params.operationName === 'string' ? params.operationName : '';
  const declared = declaredVariables(params.query, operationName || undefined);
  if (declared === undefined) return undefined;
  const vars =
    typeof params.variables === 'object' && params.variables !== null
      ? (params.variables as Record<string, unknown>)
      : {};
  const used = Object.fromEntries(
    declared.filter((name) => vars[name] !== undefined).map((name) => [name, vars[name]]),
  );
  const hash = createHash('sha256')
    .update(params.query)
    .update('\0')
    .update(operationName)
    .update('\0')
    .update(JSON.stringify(used))
    .digest('base64url');
  return keys.response(partition, hash);
}

/** A stored whole response. */
export interface ResponseEntry {
  data: unknown;
  /** Stored at (epoch ms). */
  t?: number;
  /** Fresh for (ms). */
  ttl?: number;
  swr?: number;
  /** The version it was answered at (the live chains' heads). */
  h?: string;
}

/**
 * A stored entry, when it parses, was answered at `version` and is still fresh by the gateway's clock
 * (the store drops it too, by its own clock); undefined (a miss) otherwise.
 */
export function readResponseEntry(
  raw: string | undefined,
  version: string,
  now: number,
): ResponseEntry | undefined {
  if (raw === undefined) return undefined;
  try {
    const entry = JSON.parse(raw) as ResponseEntry;
    const fresh = entry.t === undefined || entry.ttl === undefined || entry.t + entry.ttl > now;
    return (entry.h ?? '') === version && fresh ? entry : undefined;
  } catch {
    return undefined; // a corrupt entry is a miss
  }
}

/** Declared variable names (sorted) of the operation a request runs, by query text; undefined when it does not parse. */
const declaredCache = createBytesLru<string[] | false>({ maxBytes: 4 << 20 });
function declaredVariables(query: string, operationName: string | undefined): string[] | undefined {
  const cacheKey = `${operationName ?? ''}\0${query}`;
  let names = declaredCache.get(cacheKey);
  if (names === undefined) {
    try {
      const op = getOperationAST(parse(query, { noLocation: true }), operationName);
      names = op ? (op.variableDefinitions ?? []).map((d) => d.variable.name.value).sort() : false;
    } catch {
      names = false;
    }
    declaredCache.set(cacheKey, names);
  }
  return names === false ? undefined : names;
}
