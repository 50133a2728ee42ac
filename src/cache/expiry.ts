/**
 * A value in the shared store carries its own expiry in front of it: `<epoch ms>|<value>`. The tier in
 * front (the in-process LRU) then knows how long a value it copies from the shared store may live,
 * without one more command per key and without reading the value itself (whatever wrote it).
 * A text prefix rather than a field of the entry (src/cache/entry.ts): the tier finds it without parsing
 * JSON, and not every stored value is an entry (a persisted query's text).
 */
const SEP = '|';

export function withExpiry(value: string, expiresAt: number): string {
  return `${Math.ceil(expiresAt)}${SEP}${value}`;
}

/** The value and its expiry; a value stored without one (an older writer) has no `expiresAt`. */
export function readExpiry(stored: string): { value: string; expiresAt?: number } {
  const at = stored.indexOf(SEP);
  // Epoch milliseconds have 13 digits until the year 2286.
  if (at < 1 || at > 15) return { value: stored };
  const expiresAt = Number(stored.slice(0, at));
  return Number.isSafeInteger(expiresAt)
    ? { value: stored.slice(at + 1), expiresAt }
    : { value: stored };
}
