import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { credentialed } from '../cache/credentials.js';
import { cachingHeaders } from '../cache/http-freshness.js';
import { entryFreshness, readResponseEntry, responseKeyOf } from '../cache/response-entry.js';
import type { CacheStore } from '../cache/store.js';
import type { GatewayMetrics } from '../metrics.js';
import type { Logger } from '../telemetry/logger.js';
import {
  loggedOperationName,
  REQUEST_ID_HEADER,
  requestLogLine,
  saneRequestId,
} from '../telemetry/request-log.js';
import type { DirectAnswer, DirectExecution } from './direct.js';
import { rawPathOf } from './path-guard.js';
import {
  getParams,
  isDirectParams,
  jsonParams,
  mediaTypeFor,
  readBody,
  stringHeader,
} from './request-read.js';

/**
 * Whole-response cache hits answered before Yoga's pipeline: the request's parameters give the same key
 * the response cache uses (src/cache/response-entry.ts), one store read finds the entry, and the
 * answer is written with the very headers the pipeline would give it (content type by `accept`, then
 * `Vary`, `Cache-Control` from the entry's freshness, `Age`, the weak `ETag` and `304` on `If-None-Match`
 * from the caching plugin's own function, `cachingHeaders`, and the request id). Every rule of the response cache holds because the fast path only ever serves its
 * entries, which were stored by executed anonymous queries without errors, and only to requests the
 * pipeline would have answered from that entry; anything else goes to Yoga untouched:
 * - a credential header (a caller's key, an admin token): the pipeline never serves those from the cache;
 * - an `Origin` header (CORS headers are Yoga's), a GET without a CSRF-prevention header, `extensions`
 *   (persisted queries), a body that is not a small JSON object with a known length, an `accept` that
 *   asks for a stream;
 * - an entry of another version (the live chains' heads moved), or no entry.
 * Hits are logged and counted like any request (`gateway_response_cache_total{event="fast-hit"}`) but
 * not traced: there is no work to trace.
 *
 * A plain JSON POST that is not a hit (no entry, or a credential) is executed directly when that is on
 * (src/http/direct.ts: Yoga's GraphQL layer without its HTTP layer), if it is sent to the endpoint's URL
 * as it is and carries only `query`, `variables` and `operationName`; it goes to Yoga otherwise.
 */
export interface FastPathOptions {
  graphqlEndpoint: string;
  /** The whole-response cache, when it is on. */
  responseCache?: {
    store: CacheStore;
    /** The partition of anonymous requests (the upstream configuration's fingerprint and class `op`). */
    partition: string;
    /** The version entries must carry (the live chains' heads). */
    versionOf: () => string;
    /** The headers naming an answer's surrogate keys (SURROGATE_KEY_HEADER); entries then carry tags. @default none */
    tagHeaders?: readonly string[];
  };
  /** Direct execution of the POSTs it takes (src/http/direct.ts), when it is on. */
  direct?: DirectExecution;
  /** Whether a GET must carry a CSRF-prevention header, and which. */
  csrfHeaders?: readonly string[];
  /** The largest POST body the fast path reads (larger ones go to Yoga, which enforces the limit). */
  maxBodyBytes: number;
  metrics?: GatewayMetrics;
  logger?: Logger;
  /** @default Date.now */
  now?: () => number;
}

/** A request as the fast path reads it: its body already read (POST). */
export interface FastRequest {
  method: string;
  /** Path and query string. */
  url: string;
  headers: IncomingHttpHeaders;
  body?: Buffer;
  /** What Yoga's Node adapter would pass as its server context (`req`, `res`). */
  serverContext?: Record<string, unknown>;
}

export interface FastPath {
  /**
   * Answers the request (from the response cache, or by direct execution) and resolves true, or
   * resolves false having written nothing; a POST body it read is then left on `req.body`, where Yoga's
   * Node adapter takes it.
   */
  serve(req: IncomingMessage & { body?: unknown }, res: ServerResponse): Promise<boolean>;
  /** The answer to a request whose body is read, or undefined when Yoga must answer it. */
  answer(r: FastRequest): Promise<DirectAnswer | undefined>;
}

/** The largest body worth hashing here: bigger queries are rare and not where the time goes. */
const FAST_BODY_MAX = 64 * 1024;

export function createFastPath(options: FastPathOptions): FastPath {
  const bodyMax = Math.min(FAST_BODY_MAX, options.maxBodyBytes);
  /** The POSTs the fast path reads; undefined when Yoga must see the request as it came. */
  const readable = (req: IncomingMessage): boolean => {
    if (req.method === 'GET') return options.responseCache !== undefined;
    if (req.method !== 'POST') return false;
    const h = req.headers;
    const length = Number(h['content-length']);
    return (
      JSON_TYPE.test(h['content-type'] ?? '') &&
      length > 0 &&
      length <= bodyMax &&
      rawPathOf(req.url ?? '') === options.graphqlEndpoint
    );
  };

  const fromCache = async (
    r: FastRequest,
    params: Record<string, unknown>,
    type: string,
    started: number,
  ): Promise<DirectAnswer | undefined> => {
    const h = r.headers;
    const cache = options.responseCache;
    if (!cache || credentialed(h)) return undefined;
    const key = responseKeyOf(params, cache.partition);
    if (key === undefined) return undefined;
    const [raw] = await cache.store.getMany([key]);
    const now = (options.now ?? Date.now)();
    const tagHeaders = cache.tagHeaders ?? [];
    const entry = readResponseEntry(raw, cache.versionOf(), now, tagHeaders.length > 0);
    const freshness = entry && entryFreshness(entry, now);
    if (!freshness) return undefined;
    const body = JSON.stringify({ data: entry.value });
    const id = h[REQUEST_ID_HEADER];
    const requestId = saneRequestId(typeof id === 'string' ? id : undefined);
    // The headers Yoga's caching plugin would write for this entry, from the same function.
    const caching = cachingHeaders({
      status: 200,
      method: r.method,
      credentialed: false,
      freshness,
      body,
      ifNoneMatch: stringHeader(h['if-none-match']),
      tagHeaders,
    });
    const notModified = caching.notModified;
    const headers: Record<string, string> = {
      'content-type': `${type}; charset=utf-8`,
      ...caching.headers,
      [REQUEST_ID_HEADER]: requestId,
    };
    if (!notModified) headers['content-length'] = String(Buffer.byteLength(body));
    const status = notModified ? 304 : 200;
    const durationMs = performance.now() - started;
    options.metrics?.responseCache.inc({ event: 'fast-hit' });
    const operationName = loggedOperationName(params.operationName);
    options.metrics?.requestDuration.observe(
      { status: String(status), operation: options.metrics.operations.label(operationName) },
      durationMs / 1000,
    );
    options.logger?.info(
      requestLogLine({
        requestId,
        method: r.method,
        path: options.graphqlEndpoint,
        status,
        durationMs,
        operationName,
        operationType: 'query',
        upstreamCalls: 0,
        responseCache: 'fast-hit',
      }),
      'request',
    );
    return { status, headers, ...(notModified ? {} : { body }) };
  };

  const answer = async (r: FastRequest): Promise<DirectAnswer | undefined> => {
    const started = performance.now();
    const h = r.headers;
    // CORS headers are Yoga's.
    if (h.origin !== undefined) return undefined;
    // A browser asking for a page gets GraphiQL from Yoga.
    if (h.accept?.includes('text/html')) return undefined;
    const type = mediaTypeFor(h.accept);
    if (!type) return undefined;
    if (rawPathOf(r.url) !== options.graphqlEndpoint) return undefined;
    let params: Record<string, unknown> | undefined;
    if (r.method === 'GET') {
      if (options.csrfHeaders && !options.csrfHeaders.some((c) => h[c] !== undefined))
        return undefined;
      params = getParams(r.url.slice(r.url.indexOf('?') + 1));
    } else if (r.method === 'POST' && r.body && JSON_TYPE.test(h['content-type'] ?? '')) {
      params = jsonParams(r.body);
    }
    if (!params || params.extensions !== undefined) return undefined;
    const hit = await fromCache(r, params, type, started);
    if (hit) return hit;
    // Direct execution takes the endpoint's URL as it is, with no query string: Yoga's route plugins
    // match on the end of the whole URL (a `?x=/live` would be its health check).
    if (
      !options.direct ||
      r.method !== 'POST' ||
      r.url !== options.graphqlEndpoint ||
      !isDirectParams(params)
    )
      return undefined;
    return options.direct.execute({
      headers: h,
      url: r.url,
      params,
      mediaType: type,
      serverContext: r.serverContext ?? {},
    });
  };

  return {
    answer,
    async serve(req, res) {
      if (!readable(req)) return false;
      let body: Buffer | undefined;
      if (req.method === 'POST') {
        body = await readBody(req);
        req.body = body; // Yoga reads it from here when it answers
      }
      const a = await answer({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body,
        serverContext: { req, res, waitUntil },
      });
      if (!a) return false;
      try {
        res.writeHead(a.status, a.headers);
        res.end(a.body);
      } catch {
        // Answered (a request that ran is never handed to Yoga to run again), but not writable.
        res.destroy();
      }
      return true;
    },
  };
}

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** Work a plugin hands to the server to finish after the response (Yoga's Node adapter gives it too). */
const waitUntil = (work: unknown): void => {
  void Promise.resolve(work).catch(() => {});
};
