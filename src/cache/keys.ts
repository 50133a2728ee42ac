import { createHash } from 'node:crypto';

/**
 * Every cache key is made here, versioned (`gw:v1:`), from the normalized upstream request —
 * never from GraphQL text, never containing an API key or token. Bump VERSION when a cached shape changes.
 */
export const KEY_VERSION = 'v1';
const PREFIX = `gw:${KEY_VERSION}`;

export interface RequestKeyParts {
  upstream: string;
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** Long parts are hashed so keys stay short; short ones stay readable for operators. */
function compact(s: string): string {
  return s.length <= 160 ? s : `#${createHash('sha256').update(s).digest('base64url').slice(0, 32)}`;
}

function sortedQuery(query: Record<string, unknown> = {}): string {
  return Object.keys(query)
    .filter((k) => query[k] !== undefined && query[k] !== null)
    .sort()
    .map((k) => {
      const v = query[k];
      return `${k}=${Array.isArray(v) ? v.map(String).sort().join(',') : String(v)}`;
    })
    .join('&');
}

export const keys = {
  /** An upstream answer: method, path, sorted query and a hash of the body. */
  request({ upstream, method, path, query, body }: RequestKeyParts): string {
    const q = sortedQuery(query);
    const b = body === undefined ? '' : `#${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 22)}`;
    return `${PREFIX}:${upstream}:${method} ${compact(path + (q ? `?${q}` : '') + b)}`;
  },
  /** A snapshot of one upstream page, addressed by its content id (see schema/connection.ts). */
  pageSnapshot(contentId: string): string {
    return `${PREFIX}:page:${contentId}`;
  },
  /** A whole GraphQL response (issue: response cache). */
  response(hash: string): string {
    return `${PREFIX}:response:${hash}`;
  },
};
