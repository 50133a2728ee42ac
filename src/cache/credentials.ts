/**
 * The credential headers, named once: what makes a request credentialed (its answer is never shared by a
 * cache, ours or a CDN's) and where the caller's own Data API key is read. The context, the cache
 * partitions, the budgets, the response cache and the HTTP caching headers all read them from here.
 */
export const CREDENTIAL_HEADERS = [
  'authorization',
  'x-glacier-api-key',
  'x-service-api-key',
] as const;

/**
 * The caller's own Data API key, in `x-glacier-api-key` or `x-service-api-key` (it takes precedence over the
 * operator's for the caller's request).
 */
export function callerKeyOf(headers: Headers): string | null {
  return headers.get('x-glacier-api-key') || headers.get('x-service-api-key') || null;
}

/** Whether any credential header is present, on WHATWG `Headers` or Node's header object. */
export function credentialed(
  headers: { get(name: string): string | null } | Record<string, unknown>,
): boolean {
  if (typeof headers.get === 'function') {
    const h = headers as { get(name: string): string | null };
    return CREDENTIAL_HEADERS.some((name) => h.get(name));
  }
  const h = headers as Record<string, unknown>;
  return CREDENTIAL_HEADERS.some((name) => h[name] !== undefined);
}
