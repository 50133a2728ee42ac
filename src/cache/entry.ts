import type { SerializedError } from './read-through-types.js';

/**
 * The one format of a cached entry in the store: the read-through's values and remembered errors, whole
 * responses and page snapshots are all this JSON, with named fields (docs/decisions/stored-entries.md).
 * Times are epoch ms by the writer's clock. A change of this shape bumps KEY_VERSION (src/cache/keys.ts).
 */
export interface StoredEntry<T = unknown> {
  /** Served as fresh until. */
  freshUntil: number;
  /** Past freshness, served at once while one refresh runs (stale-while-revalidate), until. */
  revalidateUntil?: number;
  /** Past freshness, served when a refresh fails transiently (stale-if-error), until. */
  staleIfErrorUntil?: number;
  /** When it was stored: what HTTP caches are told its age from. */
  storedAt?: number;
  /** The version it was loaded at (see CachedLoad.version). */
  version?: string;
  /**
   * A whole response's surrogate keys, bounded (src/cache/surrogate-key-header.ts): a hit names what the
   * response named when it was computed. Older readers ignore the field; a reader that needs it treats an
   * entry without it as a miss (src/cache/response-entry.ts), so no key version is needed.
   */
  tags?: string[];
  value?: T;
  /** A remembered failure (a negative entry), in place of a value. */
  error?: SerializedError;
}

export function encodeEntry(entry: StoredEntry): string {
  return JSON.stringify(entry);
}

/** The entry a stored text holds; undefined (a miss) for no text, a corrupt one or another shape. */
export function decodeEntry<T = unknown>(raw: string | undefined): StoredEntry<T> | undefined {
  if (raw === undefined) return undefined;
  try {
    const entry = JSON.parse(raw) as StoredEntry<T> | null;
    return typeof entry?.freshUntil === 'number' ? entry : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Heap bytes a parsed JSON value takes per character of its text, measured on Data API answers (objects
 * of short strings and numbers): the memo's byte bound counts this, not the text's length alone.
 */
export const PARSED_BYTES_PER_CHAR = 3;
/** An entry larger than this is parsed on each read rather than held parsed. */
export const PARSED_MAX_ENTRY_BYTES = 4 * 1024 * 1024;

/** What a value is stored under: its key, how long it is fresh, its stale windows and version. */
export interface EntryTerms<T> {
  key: string;
  ttlMs: (value: T) => number;
  swrMs?: number;
  staleIfErrorMs?: number;
  version?: string;
}

/**
 * The store's entry for `value` loaded at `now` (undefined when its TTL keeps nothing, or when `admit`,
 * asked with the entry's key and lifetime before anything is encoded, declines it).
 */
export function storedEntryOf<T>(
  item: EntryTerms<T>,
  value: T,
  now: number,
  admit?: (key: string, ttlMs: number) => boolean,
): { key: string; value: string; ttlMs: number } | undefined {
  const ttl = item.ttlMs(value);
  if (!(ttl > 0)) return undefined;
  const swr = item.swrMs ?? 0;
  const sie = item.staleIfErrorMs ?? 0;
  if (admit && !admit(item.key, ttl + Math.max(swr, sie))) return undefined;
  const entry: StoredEntry = {
    freshUntil: now + ttl,
    ...(swr > 0 ? { revalidateUntil: now + ttl + swr } : {}),
    ...(sie > 0 ? { staleIfErrorUntil: now + ttl + sie } : {}),
    ...(item.version !== undefined ? { version: item.version } : {}),
    value,
  };
  return { key: item.key, value: encodeEntry(entry), ttlMs: ttl + Math.max(swr, sie) };
}
