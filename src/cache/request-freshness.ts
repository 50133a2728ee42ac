import { requestSlot } from '../telemetry/request-slot.js';
import { credentialed } from './credentials.js';
import { cachingHeaders, type HttpFreshness } from './http-freshness.js';

// On the request itself, not in a WeakMap keyed by it (see telemetry/request-slot.ts).
const fresh = requestSlot<HttpFreshness>('httpFreshness');

/**
 * The freshness of a request's answer: noted by the caching plugin when a query ran, or by whoever
 * answered it without executing it (the whole-response cache).
 */
export function noteFreshness(request: Request, f: HttpFreshness): void {
  fresh.set(request, f);
}

/**
 * The caching headers of a JSON answer (`Vary`, `Cache-Control`, `Age` for a response-cache hit, the
 * tag headers named by `tagHeaders`, the weak `ETag`), set through `setHeader`; `notModified` when the request's `If-None-Match` matches a
 * successful answer (then it is a `304` with no body). Yoga's caching plugin (src/plugins/use-http-caching.ts)
 * applies it to Yoga's answers, the direct execution (src/http/direct.ts) to its own.
 */
export function applyHttpCaching(
  request: Request,
  status: number,
  body: string,
  setHeader: (name: string, value: string) => void,
  tagHeaders: readonly string[] = [],
): { notModified: boolean } {
  const { headers, notModified } = cachingHeaders({
    status,
    method: request.method,
    credentialed: credentialed(request.headers),
    freshness: fresh.get(request),
    body,
    ifNoneMatch: request.headers.get('if-none-match'),
    tagHeaders,
  });
  for (const [name, value] of Object.entries(headers)) setHeader(name, value);
  return { notModified };
}
