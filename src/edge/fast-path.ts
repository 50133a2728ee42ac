import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CacheStore } from '../cache/store.js';
import { CREDENTIAL_HEADERS } from '../context.js';
import type { GatewayMetrics } from '../metrics.js';
import { etagOf, ifNoneMatch, VARY } from '../plugins/use-http-caching.js';
import { REQUEST_ID_HEADER, saneRequestId } from '../plugins/use-observability.js';
import { readResponseEntry, responseKeyOf } from '../plugins/use-response-cache.js';
import type { Logger } from '../telemetry/logger.js';

/**
 * Whole-response cache hits answered before Yoga's pipeline: the request's parameters give the same key
 * the response cache uses (src/plugins/use-response-cache.ts), one store read finds the entry, and the
 * answer is written with the very headers the pipeline would give it (content type by `accept`, `Vary`,
 * `Cache-Control` from the entry's freshness, `Age`, the weak `ETag`, `304` on `If-None-Match`, the
 * request id). Every rule of the response cache holds because the fast path only ever serves its
 * entries, which were stored by executed anonymous queries without errors, and only to requests the
 * pipeline would have answered from that entry; anything else goes to Yoga untouched:
 * - a credential header (a caller's key, an admin token): the pipeline never serves those from the cache;
 * - an `Origin` header (CORS headers are Yoga's), a GET without a CSRF-prevention header, `extensions`
 *   (persisted queries), a body that is not a small JSON object with a known length, an `accept` that
 *   asks for a stream;
 * - an entry of another version (the live chains' heads moved), or no entry.
 * Hits are logged and counted like any request (`gateway_response_cache_total{event="fast-hit"}`) but
 * not traced: there is no work to trace.
 */
export interface FastPathOptions {
  store: CacheStore;
  graphqlEndpoint: string;
  /** The partition of anonymous requests (the upstream configuration's fingerprint and class `op`). */
  partition: string;
  /** The version entries must carry (the live chains' heads). */
  versionOf: () => string;
  /** Whether a GET must carry a CSRF-prevention header, and which. */
  csrfHeaders?: readonly string[];
  /** The largest POST body the fast path reads (larger ones go to Yoga, which enforces the limit). */
  maxBodyBytes: number;
  metrics?: GatewayMetrics;
  logger?: Logger;
  /** @default Date.now */
  now?: () => number;
}

export interface FastPath {
  /**
   * Answers the request from the response cache and resolves true, or resolves false having written
   * nothing; a POST body it read is then left on `req.body`, where Yoga's Node adapter takes it.
   */
  serve(req: IncomingMessage & { body?: unknown }, res: ServerResponse): Promise<boolean>;
}

/** The largest body worth hashing here: bigger queries are rare and not where the time goes. */
const FAST_BODY_MAX = 64 * 1024;

export function createFastPath(o: FastPathOptions): FastPath {
  const bodyMax = Math.min(FAST_BODY_MAX, o.maxBodyBytes);
  return {
    async serve(req, res) {
      const started = performance.now();
      const h = req.headers;
      if (h.origin !== undefined || CREDENTIAL_HEADERS.some((c) => h[c] !== undefined))
        return false;
      // A browser asking for a page gets GraphiQL from Yoga.
      if (h.accept?.includes('text/html')) return false;
      const type = mediaTypeFor(h.accept);
      if (!type) return false;
      const q = req.url?.indexOf('?') ?? -1;
      const path = q < 0 ? req.url : req.url?.slice(0, q);
      if (path !== o.graphqlEndpoint) return false;
      let params: Record<string, unknown> | undefined;
      if (req.method === 'GET') {
        if (o.csrfHeaders && !o.csrfHeaders.some((c) => h[c] !== undefined)) return false;
        params = getParams(req.url!.slice(q + 1));
      } else if (req.method === 'POST') {
        const length = Number(h['content-length']);
        if (!/^application\/json\s*(;|$)/i.test(h['content-type'] ?? '')) return false;
        if (!(length > 0 && length <= bodyMax)) return false;
        const body = await readBody(req);
        req.body = body; // Yoga reads it from here on a miss
        params = jsonParams(body);
      }
      if (!params || params.extensions !== undefined) return false;
      const key = responseKeyOf(params, o.partition);
      if (key === undefined) return false;
      const [raw] = await o.store.getMany([key]);
      const now = (o.now ?? Date.now)();
      const entry = readResponseEntry(raw, o.versionOf(), now);
      if (!entry || entry.t === undefined || entry.ttl === undefined) return false;
      const body = JSON.stringify({ data: entry.data });
      const etag = etagOf(body);
      const id = h[REQUEST_ID_HEADER];
      const requestId = saneRequestId(typeof id === 'string' ? id : undefined);
      const headers: Record<string, string> = {
        'content-type': `${type}; charset=utf-8`,
        vary: VARY,
        'cache-control': `public, max-age=${Math.floor(Math.max(0, entry.t + entry.ttl - now) / 1000)}, stale-while-revalidate=${Math.floor((entry.swr ?? 0) / 1000)}`,
        age: String(Math.max(0, Math.floor((now - entry.t) / 1000))),
        etag,
        [REQUEST_ID_HEADER]: requestId,
      };
      const notModified = ifNoneMatch(stringHeader(h['if-none-match']), etag);
      if (notModified) {
        res.writeHead(304, headers);
        res.end();
      } else {
        headers['content-length'] = String(Buffer.byteLength(body));
        res.writeHead(200, headers);
        res.end(body);
      }
      const status = notModified ? 304 : 200;
      const durationMs = performance.now() - started;
      o.metrics?.responseCache.inc({ event: 'fast-hit' });
      o.metrics?.requestDuration.observe({ status: String(status) }, durationMs / 1000);
      o.logger?.info(
        {
          requestId,
          method: req.method,
          path: o.graphqlEndpoint,
          status,
          durationMs: Math.round(durationMs * 10) / 10,
          ...(typeof params.operationName === 'string' && params.operationName
            ? { operationName: params.operationName.slice(0, 100) }
            : {}),
          operationType: 'query',
          upstreamCalls: 0,
          responseCache: 'fast-hit',
        },
        'request',
      );
      return true;
    },
  };
}

/**
 * The media type Yoga's result processor would choose for a single result, or undefined when it would
 * choose a stream (or refuse): its rule, kept exact: `accept` entries (utf-8 only) are tried from the last
 * to the first against `application/graphql-response+json` then `application/json`, the last match winning.
 */
export function mediaTypeFor(accept: string | undefined): string | undefined {
  const asked = (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .flatMap((a) => {
      const [type, ...ps] = a.split(';');
      const charset = ps.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
      return type !== undefined && charset === 'charset=utf-8' ? [type] : [];
    })
    .reverse();
  let chosen: string | undefined;
  for (const want of asked)
    for (const offered of ['application/graphql-response+json', 'application/json'])
      if (matches(offered, want)) chosen = offered;
  // A stream type asked before any JSON one: Yoga answers it as a stream of one result.
  return chosen;
}

function matches(offered: string, asked: string): boolean {
  const [ap, as] = asked.split('/');
  const [op, os] = offered.split('/');
  return (ap === '*' || ap === op) && (as === '*' || as === os);
}

function getParams(search: string): Record<string, unknown> | undefined {
  const u = new URLSearchParams(search);
  const query = u.get('query');
  if (query === null) return undefined;
  const vars = u.get('variables');
  let variables: unknown;
  if (vars !== null) {
    try {
      variables = JSON.parse(vars);
    } catch {
      return undefined; // Yoga answers the error
    }
  }
  return {
    query,
    operationName: u.get('operationName') ?? undefined,
    variables,
    extensions: u.get('extensions') ?? undefined,
  };
}

function jsonParams(body: Buffer): Record<string, unknown> | undefined {
  try {
    const p = JSON.parse(body.toString('utf8')) as unknown;
    return typeof p === 'object' && p !== null && !Array.isArray(p)
      ? (p as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let got = 0;
    req.on('data', (c: Buffer) => {
      got += c.length;
      chunks.push(c);
    });
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, got)));
    req.once('error', reject);
  });
}

const stringHeader = (v: string | string[] | undefined): string | null =>
  typeof v === 'string' ? v : null;
