import { createHash } from 'node:crypto';

/**
 * Every cache key is made here, versioned (`gw:<KEY_VERSION>:`), from the normalized upstream request —
 * never from GraphQL text, never containing an API key or token. Bump KEY_VERSION when a stored shape
 * changes (src/cache/entry.ts): replicas of a rolling deploy share Redis, and none reads another's format.
 */
export const KEY_VERSION = 'v2';
export const KEY_PREFIX = `gw:${KEY_VERSION}`;

export interface RequestKeyParts {
  upstream: string;
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  /**
   * Whose answer this is: the upstream's configuration (its base URL) and, where the answer depends on it,
   * the credential class (see `credentialClass`). Two gateways with other upstreams, or a caller's own key,
   * never share an entry (or an in-flight load) with anyone else.
   */
  partition?: string;
  /** A part of the answer cached apart from the whole (see UpstreamRequest.variant). */
  variant?: string;
}

/** A short, stable, non-reversible id of some configuration or secret (never the value itself). */
export function fingerprint(...parts: readonly string[]): string {
  const h = createHash('sha256').update('avalanche-gw');
  for (const p of parts) h.update('\0').update(p);
  return h.digest('base64url').slice(0, 12);
}

/**
 * The credential class of a request to the Data API: the operator's key and anonymous callers share one
 * partition (`op`: public data the gateway fetches on its own behalf); each caller's own key gets its own,
 * named by a hash of the key (never the key).
 */
export function credentialClass(callerKey: string | null | undefined): string {
  return callerKey ? `k${fingerprint('caller-key', callerKey)}` : 'op';
}

/** The configured upstreams a partition is made from (the node names and URLs for whole responses). */
export interface PartitionedUpstreams {
  dataApiUrl: string;
  metricsApiUrl: string;
  nodes: readonly { name: string; url: string }[];
}

/**
 * The cache partitions of a gateway's configuration. An upstream answer's key carries its upstream's base
 * URL (node keys carry the node's already) and, for the Data API, the caller's credential class; a whole
 * response carries all of the configuration and the credential class.
 */
export interface CachePartitions {
  /** The partition of each upstream's answers for one caller (undefined: the key carries its own). */
  upstreamFor(callerKey: string | null): (upstream: string) => string | undefined;
  /** The partition of a whole response for one caller. */
  response(callerKey: string | null): string;
}

export function cachePartitions(upstreams: PartitionedUpstreams): CachePartitions {
  const data = fingerprint('data-api', upstreams.dataApiUrl);
  const metrics = fingerprint('metrics-api', upstreams.metricsApiUrl);
  const whole = fingerprint(
    upstreams.dataApiUrl,
    upstreams.metricsApiUrl,
    ...upstreams.nodes.map((node) => `${node.name}=${node.url}`),
  );
  return {
    upstreamFor: (callerKey) => {
      const dataPartition = `${data}.${credentialClass(callerKey)}`;
      return (upstream) =>
        upstream === 'data-api' ? dataPartition : upstream === 'metrics-api' ? metrics : undefined;
    },
    response: (callerKey) => `${whole}.${credentialClass(callerKey)}`,
  };
}

/** Long parts are hashed so keys stay short; short ones stay readable for operators. */
function compact(s: string): string {
  return s.length <= 160
    ? s
    : `#${createHash('sha256').update(s).digest('base64url').slice(0, 32)}`;
}

function sortedQuery(query: Record<string, unknown> = {}): string {
  return Object.keys(query)
    .filter((k) => query[k] !== undefined && query[k] !== null)
    .sort()
    .map((k) => {
      const v = query[k];
      // Values are URL-encoded: a value holding `&` or `=` (a forged page token) can never read as
      // another parameter, so two different requests never share a key.
      const enc = (x: unknown) => encodeURIComponent(String(x));
      return `${encodeURIComponent(k)}=${Array.isArray(v) ? v.map(enc).sort().join(',') : enc(v)}`;
    })
    .join('&');
}

export const keys = {
  /** An upstream answer: method, path, sorted query and a hash of the body. */
  request({ upstream, method, path, query, body, partition, variant }: RequestKeyParts): string {
    const q = sortedQuery(query);
    const b =
      body === undefined
        ? ''
        : `#${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 22)}`;
    return `${KEY_PREFIX}:${upstream}${partition ? `@${partition}` : ''}:${method} ${compact(path + (q ? `?${q}` : '') + b)}${variant ? ` ~${variant}` : ''}`;
  },
  /** A snapshot of one upstream page, addressed by its content id (see schema/connection.ts). */
  pageSnapshot(contentId: string): string {
    return `${KEY_PREFIX}:page:${contentId}`;
  },
  /** A whole GraphQL response, within its partition (upstream configuration and credential class). */
  response(partition: string, hash: string): string {
    return `${KEY_PREFIX}:response:${partition}:${hash}`;
  },
  /** A registered persisted query's text, by its SHA-256 (hex). */
  persistedQuery(sha256Hex: string): string {
    return `${KEY_PREFIX}:apq:${sha256Hex}`;
  },
};
