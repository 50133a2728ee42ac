import { createHash } from 'node:crypto';
import { getOperationAST, parse } from 'graphql';
import { createBytesLru } from './bytes-lru.js';
import { decodeEntry, encodeEntry, type StoredEntry } from './entry.js';
import type { HttpFreshness } from './http-freshness.js';
import { keys } from './keys.js';

/**
 * The whole-response cache key of a request's parameters within a partition, or undefined when its text
 * does not parse. Only the variables the operation declares are part of the key (sorted): undeclared ones
 * change nothing in the answer, and must not grow the cache. (The response-cache plugin stores by it, the fast path,
 * src/http/fast-path.ts, finds entries by it.)
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
    declared
      .filter((name) => Object.hasOwn(vars, name) && vars[name] !== undefined)
      .map((name) => [name, vars[name]]),
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

/** A stored whole response: its `data` is the entry's value, kept fresh for the response's TTL. */
export type ResponseEntry = StoredEntry;

/**
 * The entry of a response answered at `version`, stored at `now`, fresh for `ttlMs`, then `swrMs` more,
 * naming `tags` (when the tag header is on).
 */
export function responseEntry(
  data: unknown,
  keep: { now: number; ttlMs: number; swrMs: number; version: string; tags?: readonly string[] },
): string {
  const freshUntil = keep.now + keep.ttlMs;
  return encodeEntry({
    freshUntil,
    ...(keep.swrMs > 0 ? { revalidateUntil: freshUntil + keep.swrMs } : {}),
    storedAt: keep.now,
    ...(keep.version ? { version: keep.version } : {}),
    ...(keep.tags ? { tags: [...keep.tags] } : {}),
    value: data,
  });
}

/**
 * A stored entry, when it parses, was answered at `version` and is still fresh by the gateway's clock
 * (the store drops it too, by its own clock); undefined (a miss) otherwise. With `tagged` (the tag header
 * is on), an entry without tags is a miss too: it was stored while the header was off, or by an older
 * replica, and a hit must name what the response holds.
 */
export function readResponseEntry(
  raw: string | undefined,
  version: string,
  now: number,
  tagged = false,
): ResponseEntry | undefined {
  const entry = decodeEntry(raw);
  return entry &&
    (entry.version ?? '') === version &&
    entry.freshUntil > now &&
    (!tagged || Array.isArray(entry.tags))
    ? entry
    : undefined;
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

/** What HTTP caches are told of an entry: the freshness it has left and its age (undefined for an entry without a stored time). */
export function entryFreshness(entry: ResponseEntry, now: number): HttpFreshness | undefined {
  if (entry.storedAt === undefined) return undefined;
  return {
    maxAgeMs: Math.max(0, entry.freshUntil - now),
    swrMs: entry.revalidateUntil === undefined ? 0 : entry.revalidateUntil - entry.freshUntil,
    ageMs: now - entry.storedAt,
    ...(entry.tags ? { tags: entry.tags } : {}),
  };
}
