import { GraphQLError, type GraphQLErrorOptions } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { UpstreamError } from './upstream/errors.js';

/**
 * The one place GraphQL errors are made (`npm run lint` refuses `new GraphQLError` elsewhere): every
 * client-visible failure gets an `extensions.code` from this union. Upstream text stays in the log.
 */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  /** A request the HTTP layer cannot read (a parameter that is not JSON, a body length that lies). */
  | 'BAD_REQUEST'
  | 'NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'CSRF_REJECTED'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'REQUEST_ENTITY_TOO_LARGE'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'PERSISTED_QUERY_NOT_FOUND'
  | 'PERSISTED_QUERY_HASH_MISMATCH'
  | 'PERSISTED_QUERY_ONLY'
  | 'RATE_LIMITED'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_ERROR'
  /** A subscriber that fell too far behind its events (src/live): resubscribe. */
  | 'SLOW_CONSUMER'
  /** A resumption (`from`, `Last-Event-ID`) older than the activity log reaches: `extensions.oldest`. */
  | 'RESUME_TOO_OLD'
  /** A client holds as many subscriptions of a kind as one client may. */
  | 'TOO_MANY_SUBSCRIPTIONS'
  /** A client holds as many long-lived connections (SSE streams, graphql-ws sockets) as one client may. */
  | 'TOO_MANY_CONNECTIONS'
  /** The server holds MAX_CONNECTIONS; its reserved connections serve /health, /live, /metrics only. */
  | 'SERVER_BUSY'
  /** A subscription's claim on a chain's followed addresses was given to other clients: it ends. */
  | 'INTEREST_DROPPED'
  /** A subscription would take its client beyond its share of a chain's followed addresses: refused. */
  | 'FOLLOW_SHARE_EXCEEDED'
  /** A subscription resumed from a point older than the events the gateway keeps: subscribe afresh. */
  | 'RESUME_GAP'
  /** Anything unexpected: masked, answered 500. */
  | 'INTERNAL';

type Extensions = Record<string, unknown>;
/** Where an error points in the operation (and what caused it), kept when it is recoded. */
type Place = Pick<GraphQLErrorOptions, 'nodes' | 'source' | 'positions' | 'path' | 'originalError'>;
/** graphql-js's error class; another copy's (Yoga's, graphql-ws's) is recognised only by its own. */
export type GraphQLErrorClass = typeof GraphQLError;

/** The class of the graphql-js copy Yoga runs on: its validation and result processing test by class. */
export const YogaGraphQLError = createGraphQLError('').constructor as GraphQLErrorClass;

/** The one constructor: every error below is made here. */
function construct(
  message: string,
  extensions: Extensions | undefined,
  place: Place = {},
  Class: GraphQLErrorClass = GraphQLError,
): GraphQLError {
  return new Class(message, { ...place, extensions });
}

export function gqlError(
  code: ErrorCode,
  message: string,
  extra: Extensions = {},
  place: Place = {},
  Class: GraphQLErrorClass = GraphQLError,
): GraphQLError {
  return construct(message, { code, ...extra }, place, Class);
}

/** The same error, at the same place, with more extensions (a code, an HTTP status). */
export function recode(
  e: GraphQLError,
  extra: Extensions & { code?: ErrorCode },
  { keepCause = false }: { keepCause?: boolean } = {},
): GraphQLError {
  const { nodes, source, positions, path, originalError } = e;
  const place = {
    nodes,
    source,
    positions,
    path,
    originalError: keepCause ? originalError : undefined,
  };
  return construct(e.message, { ...e.extensions, ...extra }, place);
}

/** `e` wrapped in an error of `Class` that keeps its code (Yoga's own way with a foreign error). */
export function wrappedIn(Class: GraphQLErrorClass, e: Error): GraphQLError {
  return e instanceof Class ? e : construct(e.message, undefined, { originalError: e }, Class);
}

/** An error (of any copy of graphql-js, or shaped like one) as an instance of `Class`. */
export function asErrorOf(Class: GraphQLErrorClass, e: unknown): GraphQLError {
  if (e instanceof Class) return e;
  const o = e as {
    message?: string;
    extensions?: Extensions;
    path?: readonly (string | number)[];
    locations?: readonly { line: number; column: number }[];
  };
  const out = construct(String(o.message ?? 'Error'), o.extensions, { path: o.path }, Class);
  if (o.locations) Object.assign(out, { locations: o.locations });
  return out;
}

/** Bad client input, naming the argument at fault. */
export function badInput(
  argument: string,
  message: string,
  extra: Record<string, unknown> = {},
): GraphQLError {
  return gqlError('BAD_USER_INPUT', message, { argument, ...extra });
}

export function codeForUpstream(e: UpstreamError): ErrorCode {
  // A typed upstream error may say its own code (an EVM revert, a proof outside the node's window).
  const own = (e as { gqlCode?: unknown }).gqlCode;
  if (typeof own === 'string') return own as ErrorCode;
  if (e.kind === 'timeout' || e.kind === 'network') return 'UPSTREAM_UNAVAILABLE';
  if (e.kind === 'payload') return 'UPSTREAM_ERROR';
  if (e.kind === 'rpc') return codeForRpc(e);
  switch (e.status) {
    case 400:
    case 422:
      return 'BAD_USER_INPUT';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 429:
      return 'RATE_LIMITED';
    case 502:
    case 503:
    case 504:
      return 'UPSTREAM_UNAVAILABLE';
    default:
      return 'UPSTREAM_ERROR';
  }
}

/**
 * What of an upstream error's text a client may read (the allow-list: src/upstream/client-text.ts), or
 * undefined. Duck-typed: an error of another copy of this module answers through its own method.
 */
export function upstreamReason(e: UpstreamError): string | undefined {
  const clientText = (e as { clientText?: unknown }).clientText;
  return typeof clientText === 'function' ? (clientText.call(e) as string | undefined) : undefined;
}

/** A node error's meaning was decided in upstream/ (node-errors.ts); here it only becomes a code. */
function codeForRpc(e: UpstreamError): ErrorCode {
  switch (e.meaning) {
    case 'bad_input':
      return 'BAD_USER_INPUT';
    case 'not_found':
      return 'NOT_FOUND';
    default:
      return 'UPSTREAM_ERROR';
  }
}

export function fromUpstreamError(e: UpstreamError): GraphQLError {
  const code = codeForUpstream(e);
  const extensions: Record<string, unknown> = { code, ...e.toExtensions() };
  // The upstream's own text can hold its internal hosts, keys, passwords or SQL: it goes to the log
  // (gateway.ts); a client reads only the words upstream/ wrote itself and the upstream's sentences the
  // allow-list knows (src/upstream/client-text.ts). The code, status and request id are always there.
  const shown = upstreamReason(e);
  const detail = shown ? `: ${shown}` : '';
  const status = e.status !== undefined ? ` (HTTP ${e.status})` : '';
  const message =
    code === 'NOT_FOUND'
      ? `Not found: the ${e.upstream} has no such resource${detail}`
      : code === 'UPSTREAM_UNAVAILABLE'
        ? `The ${e.upstream} is unavailable${e.kind === 'timeout' ? ': it did not answer in time' : `${status}${detail}`}`
        : code === 'RATE_LIMITED'
          ? `The ${e.upstream} rate limit was exceeded${e.retryAfterSec !== undefined ? `; retry after ${Math.ceil(e.retryAfterSec)} s` : ''}`
          : code === 'BAD_USER_INPUT'
            ? `The ${e.upstream} rejected the request${status}${detail}`
            : `The ${e.upstream} answered an error${status}${detail}`;
  return construct(message, extensions);
}

/**
 * GraphQLError is recognised by name, not `instanceof`: Yoga, the executor and our code may load
 * different copies of graphql-js (ESM and CJS builds), and an error must not be masked for that.
 */
function isGraphQLError(e: unknown): e is GraphQLError {
  return e instanceof Error && e.name === 'GraphQLError' && 'extensions' in e;
}

function isUpstreamError(e: unknown): e is UpstreamError {
  return (
    e instanceof UpstreamError ||
    (e instanceof Error && e.name === 'UpstreamError' && 'kind' in e && 'upstream' in e)
  );
}

/**
 * Whether an error Yoga logs while masking it is the client's or the upstream's (a coded error, already
 * answered to the client and, for the upstream, logged at warn) rather than the gateway's own failure.
 */
export function isExpectedError(error: unknown): boolean {
  const original = (error as { originalError?: unknown } | null)?.originalError ?? error;
  if (isUpstreamError(original)) return true;
  if (!isGraphQLError(original)) return false;
  const code = original.extensions?.code;
  return typeof code === 'string' && code !== 'INTERNAL';
}

/**
 * Yoga's `maskError`: GraphQL errors we raised pass through, upstream errors are mapped, anything else is
 * masked as INTERNAL (its details only in development).
 */
export function maskError(error: unknown, message: string, isDev = false): GraphQLError {
  const located = isGraphQLError(error) ? error : undefined;
  const original = located?.originalError ?? error;
  const at = {
    nodes: located?.nodes,
    path: located?.path,
    source: located?.source,
    positions: located?.positions,
  };
  // graphql-jit (src/plugins/use-jit.ts) locates its errors by `locations` alone, without nodes.
  const placed = (e: GraphQLError) =>
    e.locations === undefined && located?.locations
      ? Object.assign(e, { locations: located.locations })
      : e;
  if (isUpstreamError(original)) {
    const mapped = fromUpstreamError(original);
    return placed(construct(mapped.message, mapped.extensions, at));
  }
  if (isGraphQLError(original)) {
    return original === located
      ? located
      : placed(construct(original.message, original.extensions, at));
  }
  // Parse and validation errors carry no original error: they are the client's, pass them on
  // (plugins/use-error-codes.ts codes the ones that arrive without a code).
  if (located && !located.originalError) return located;
  const shown = isDev && original instanceof Error ? original.message : message;
  return placed(gqlError('INTERNAL', shown, {}, at));
}
