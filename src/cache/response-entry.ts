import { createHash } from 'node:crypto';
import { getOperationAST, parse } from 'graphql';
import { createBytesLru } from './bytes-lru.js';
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

/** What HTTP caches are told of an entry: the freshness it has left and its age (undefined for an entry without times). */
export function entryFreshness(entry: ResponseEntry, now: number): HttpFreshness | undefined {
  if (entry.t === undefined || entry.ttl === undefined) return undefined;
  return {
    maxAgeMs: Math.max(0, entry.t + entry.ttl - now),
    swrMs: entry.swr ?? 0,
    ageMs: now - entry.t,
  };
}
