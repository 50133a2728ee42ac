import { hash } from 'node:crypto';
import { CREDENTIAL_HEADERS } from './credentials.js';

/**
 * The HTTP caching headers of a JSON answer, as one pure function for every way an answer leaves the
 * gateway (Yoga's caching plugin, direct execution, the fast path's response-cache hits), so CDNs and
 * browsers see the same `Vary`, `Cache-Control`, `Age`, `ETag` and `304` whichever way answered.
 */
export interface HttpFreshness {
  /** How much longer the answer is fresh. */
  maxAgeMs: number;
  /** How long past that a cache may serve it while it revalidates. */
  swrMs: number;
  /** How old the answer already is (response-cache hits). */
  ageMs?: number;
  /**
   * The surrogate keys of the facts the answer holds, already bounded (src/cache/surrogate-key-header.ts);
   * omitted when none were collected (the tag header is off).
   */
  tags?: readonly string[];
}

export const VARY = ['accept', 'accept-encoding', ...CREDENTIAL_HEADERS].join(', ');

export interface CachingInput {
  status: number;
  method: string;
  /** Whether the request carries a credential header. */
  credentialed: boolean;
  /** The answer's freshness, when it may be kept (a query answered without errors). */
  freshness?: HttpFreshness;
  body: string;
  /** The request's `If-None-Match`. */
  ifNoneMatch: string | null;
  /** The headers that name the answer's tags (`surrogate-key`, `cache-tag`; SURROGATE_KEY_HEADER). @default none */
  tagHeaders?: readonly string[];
}

/**
 * `Vary`, `Cache-Control` (public with the freshness left for a fresh successful answer without a
 * credential; `no-store`, or `private, no-store` with one, otherwise), `Age` when the answer is already
 * old, the tag headers of a public answer (only a shared cache purges by tag: an answer no shared cache
 * keeps names nothing), and the weak `ETag`, in that order; `notModified` when a successful answer's
 * `If-None-Match` matches.
 */
export function cachingHeaders(input: CachingInput): {
  headers: Record<string, string>;
  notModified: boolean;
} {
  const headers: Record<string, string> = { vary: VARY };
  const f = input.freshness;
  if (
    input.status === 200 &&
    f &&
    !input.credentialed &&
    (input.method === 'GET' || input.method === 'POST')
  ) {
    headers['cache-control'] =
      `public, max-age=${Math.floor(f.maxAgeMs / 1000)}, stale-while-revalidate=${Math.floor(f.swrMs / 1000)}`;
    if (f.ageMs !== undefined) headers.age = String(Math.max(0, Math.floor(f.ageMs / 1000)));
    // Fastly separates surrogate keys by spaces, Cloudflare cache tags by commas.
    if (f.tags && f.tags.length > 0)
      for (const name of input.tagHeaders ?? [])
        headers[name] = f.tags.join(name === 'cache-tag' ? ',' : ' ');
  } else {
    headers['cache-control'] = input.credentialed ? 'private, no-store' : 'no-store';
  }
  const etag = etagOf(input.body);
  headers.etag = etag;
  return { headers, notModified: input.status === 200 && ifNoneMatch(input.ifNoneMatch, etag) };
}

/**
 * A weak ETag over the answer's `data` and `errors`: `extensions` (the cost estimate, the client's budget
 * left, cache marks) change from request to request without changing the answer, so they are left out.
 * Yoga writes `extensions` last: the body up to it is hashed as it is (checked by parsing only that
 * small tail), so the answer is neither parsed nor written again. A body of any other form is parsed.
 */
export function etagOf(body: string): string {
  return hashMeaning(withoutExtensions(body) ?? meaningOf(body));
}

const EXTENSIONS = ',"extensions":';

function withoutExtensions(body: string): string | undefined {
  const at = body.lastIndexOf(EXTENSIONS);
  if (at <= 0 || !body.endsWith('}')) return body.startsWith('{"data":') ? body : undefined;
  try {
    const tail = JSON.parse(`{${body.slice(at + 1)}`) as Record<string, unknown>;
    return Object.keys(tail).length === 1 && 'extensions' in tail
      ? `${body.slice(0, at)}}`
      : undefined;
  } catch {
    return undefined;
  }
}

function meaningOf(body: string): string {
  try {
    const { data, errors } = JSON.parse(body) as { data?: unknown; errors?: unknown };
    return JSON.stringify({ data, errors });
  } catch {
    return body; // not JSON after all: the body itself
  }
}

const hashMeaning = (meaning: string): string =>
  `W/"${hash('sha256', meaning, 'base64url').slice(0, 27)}"`;

export function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag.replace(/^W\//, '');
  });
}
