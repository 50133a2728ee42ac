/**
 * The only error the upstream layer throws. It knows nothing of GraphQL: `src/errors.ts`
 * maps it to a GraphQL error code. Messages never contain API keys or tokens.
 */
import { clientSafeText } from './client-text.js';
import type { NodeErrorReason } from './node-errors.js';

export type UpstreamName = 'data-api' | 'metrics-api' | 'node';

export type UpstreamErrorKind =
  /** The attempt took longer than the per-request timeout. */
  | 'timeout'
  /** Connection refused, reset, DNS failure... */
  | 'network'
  /** The upstream answered a non-2xx status. */
  | 'status'
  /** The upstream answered 2xx with a body that does not fit its contract. */
  | 'payload'
  /** A JSON-RPC error object. */
  | 'rpc';

export interface UpstreamErrorDetails {
  status?: number;
  /** The upstream's own message(s), from its error body `{message: string | string[], statusCode, error}`. */
  upstreamMessage?: string;
  /** JSON-RPC error code (node-style endpoints use -32000 for every application error). */
  rpcCode?: number;
  /** Seconds the upstream asked us to wait (429 `retry-after`). */
  retryAfterSec?: number;
  /** The JSON-RPC error's `data` (an EVM call's revert data lives there). */
  rpcData?: unknown;
  /** What a node's error means, decided in src/upstream/node-errors.ts. */
  meaning?: NodeErrorReason;
  /** Where the request went, without query secrets: `GET /v1/chains/43114/blocks`. */
  request?: string;
  /** The upstream's id for this answer (`upstreamRequestId`), for a support ticket that finds its log. */
  requestId?: string;
  /**
   * `upstreamMessage` is the gateway's own wording (upstream/ wrote it), not the upstream's text: a client
   * may read it whole. Without it, only the parts client-text.ts allows reach a client.
   */
  ownWords?: boolean;
  cause?: unknown;
}

/**
 * Where upstreams put their id for an answer; the specs name none, so the common ones in order: the
 * generic header, AWS (API Gateway, Lambda, S3, CloudFront), Cloudflare.
 */
const REQUEST_ID_HEADERS = [
  'x-request-id',
  'x-amzn-requestid',
  'x-amz-request-id',
  'x-amz-cf-id',
  'cf-ray',
  'x-correlation-id',
];
/** An id is shown to clients only when it looks like one (no text an upstream could smuggle through). */
const ID_SHAPE = /^[\w.:+/=-]{1,128}$/;

/** Seconds a 429/503 asks us to wait (`retry-after`, else `ratelimit-reset`), in seconds or as a date. */
export function retryAfterSec(header: (name: string) => string | undefined): number | undefined {
  const raw = header('retry-after') ?? header('ratelimit-reset');
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (Number.isFinite(n)) return Math.max(0, n);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - Date.now()) / 1000);
}

/** The upstream's request id from an answer's headers, when it sent one that looks like an id. */
export function upstreamRequestId(
  header: (name: string) => string | undefined,
): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const v = header(name)?.trim();
    if (v && ID_SHAPE.test(v)) return v;
  }
  return undefined;
}

export class UpstreamError extends Error {
  override name = 'UpstreamError';
  readonly status: number | undefined;
  readonly upstreamMessage: string | undefined;
  readonly rpcCode: number | undefined;
  readonly retryAfterSec: number | undefined;
  readonly request: string | undefined;
  readonly requestId: string | undefined;
  readonly rpcData: unknown;
  readonly meaning: NodeErrorReason | undefined;
  readonly ownWords: boolean;

  constructor(
    readonly upstream: UpstreamName,
    readonly kind: UpstreamErrorKind,
    details: UpstreamErrorDetails = {},
  ) {
    const what = details.upstreamMessage ?? (details.status ? `HTTP ${details.status}` : kind);
    super(`${upstream}${details.request ? ` ${details.request}` : ''}: ${what}`, {
      cause: details.cause,
    });
    this.status = details.status;
    this.upstreamMessage = details.upstreamMessage;
    this.rpcCode = details.rpcCode;
    this.retryAfterSec = details.retryAfterSec;
    this.request = details.request;
    this.requestId = details.requestId;
    this.rpcData = details.rpcData;
    this.meaning = details.meaning;
    this.ownWords = details.ownWords === true || kind === 'payload' || kind === 'network';
  }

  /**
   * What of the message a client may read: the gateway's own words whole, the upstream's only as far as
   * the allow-list (client-text.ts) knows them. Typed subclasses word their own.
   */
  clientText(): string | undefined {
    return this.ownWords
      ? this.upstreamMessage
      : clientSafeText(this.upstream, this.upstreamMessage);
  }

  /** The error's own facts for a client (`extensions`, without the GraphQL code: src/errors.ts adds it). */
  toExtensions(): Record<string, unknown> {
    const out: Record<string, unknown> = { upstream: this.upstream };
    if (this.status !== undefined) out.upstreamStatus = this.status;
    if (this.requestId !== undefined) out.upstreamRequestId = this.requestId;
    if (this.rpcCode !== undefined) out.rpcCode = this.rpcCode;
    if (this.retryAfterSec !== undefined) out.retryAfterSec = this.retryAfterSec;
    // Typed subclasses name their case for clients (NODE_METHOD_UNAVAILABLE, EXECUTION_REVERTED...).
    const reason = (this as { reason?: unknown }).reason;
    if (typeof reason === 'string') out.reason = reason;
    const extra = (this as { extensions?: unknown }).extensions;
    if (typeof extra === 'object' && extra !== null) Object.assign(out, extra);
    return out;
  }
}

/**
 * Failures for which a stale answer beats an error: the upstream is down, slow or rate limiting (a
 * transient status, or any 5xx), or it answered garbage (a body that is not JSON, or one that breaks
 * its contract).
 */
export function staleBeatsError(e: unknown): boolean {
  if (!(e instanceof UpstreamError)) return false;
  return (
    e.kind === 'timeout' ||
    e.kind === 'network' ||
    e.kind === 'payload' ||
    (e.kind === 'status' && (isTransientStatus(e.status) || (e.status ?? 0) >= 500))
  );
}

/** What a negative cache entry keeps of an error (only 404s are cached, briefly), to rebuild it on a hit. */
export interface CacheableError {
  name: string;
  message: string;
  data: Record<string, unknown>;
}

export function errorToCache(e: unknown): CacheableError | undefined {
  if (!(e instanceof UpstreamError)) return undefined;
  return {
    name: e.name,
    message: e.message,
    data: {
      upstream: e.upstream,
      kind: e.kind,
      status: e.status,
      upstreamMessage: e.upstreamMessage,
      request: e.request,
      requestId: e.requestId,
      ownWords: e.ownWords,
    },
  };
}

export function errorFromCache(s: CacheableError): Error {
  const d = s.data as {
    upstream: UpstreamError['upstream'];
    kind: UpstreamError['kind'];
    status?: number;
    upstreamMessage?: string;
    request?: string;
    requestId?: string;
    ownWords?: boolean;
  };
  return new UpstreamError(d.upstream, d.kind, {
    status: d.status,
    upstreamMessage: d.upstreamMessage,
    request: d.request,
    requestId: d.requestId,
    ownWords: d.ownWords === true,
  });
}

/** The one transient-status rule: an upstream answering these may answer differently soon (retried). */
/** The upstream answered this HTTP status (404: not found; 400: refused, e.g. an expired page token). */
export const isUpstreamStatus = (e: unknown, status: number): e is UpstreamError =>
  e instanceof UpstreamError && e.kind === 'status' && e.status === status;

export const TRANSIENT_STATUSES: readonly number[] = [429, 502, 503, 504];
export function isTransientStatus(status: number | undefined): boolean {
  return status !== undefined && TRANSIENT_STATUSES.includes(status);
}

/** Reads the upstream error body `{message: string | string[], statusCode, error}`; tolerant of anything else. */
export function parseErrorBody(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (Array.isArray(body.message)) return body.message.map(String).join('; ');
    if (typeof body.message === 'string') return body.message;
    if (typeof body.error === 'string') return body.error;
  } catch {
    // not JSON: fall through to the raw text
  }
  const trimmed = text.trim();
  return trimmed ? trimmed.slice(0, 300) : undefined;
}
