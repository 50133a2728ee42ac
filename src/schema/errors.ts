import { GraphQLError } from 'graphql';
import { UpstreamError } from '../upstream/errors.js';

/**
 * The one place where failures become client-visible GraphQL errors, each with `extensions.code`.
 * Upstream messages stay in the log: a client sees our message, the code, the upstream's status.
 */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'RATE_LIMITED'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_ERROR'
  /** A subscriber that fell too far behind its events (src/live): resubscribe. */
  | 'SLOW_CONSUMER'
  /** A resumption (`from`, `Last-Event-ID`) older than the activity log reaches: `extensions.oldest`. */
  | 'RESUME_TOO_OLD'
  /** A client holds as many subscriptions of a kind as one client may. */
  | 'TOO_MANY_SUBSCRIPTIONS'
  /** A subscription resumed from a point older than the events the gateway keeps: subscribe afresh. */
  | 'RESUME_GAP'
  | 'INTERNAL';

export function gqlError(
  code: ErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extra } });
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

const MAX_REASON = 300;
/**
 * A stack frame (`at f (file:1:2)`, `file.go:12`), markup, a URL, an IP address or host:port (where the
 * upstream's own machines are), or a long opaque token (a key).
 */
const UNSAFE = [
  /\bat\s+\S+\s+\(/,
  /\.(?:[cm]?js|ts|go|py|java):\d+/,
  /[<>]/,
  /:\/\//,
  /\b\d{1,3}(?:\.\d{1,3}){3}\b/,
  /\b[\w-]+(?:\.[\w-]+)*:\d{2,5}\b/,
];
const TOKEN = /[A-Za-z0-9_\-+/=]{32,}/g;

/** Whether an upstream's message is a plain reason a client may read: short, one line, nothing internal. */
export function plainReason(text: string): boolean {
  if (text.length > MAX_REASON || /[\r\n]/.test(text)) return false;
  if (UNSAFE.some((r) => r.test(text))) return false;
  // Long tokens are keys; a 0x-hex value or a bech32 address is the client's own input.
  return (text.match(TOKEN) ?? []).every(
    (t) => /^(?:0x)?[0-9a-fA-F]+$/.test(t) || /^(?:[A-Z]-)?[a-z]+1[02-9ac-hj-np-z]{6,}$/.test(t),
  );
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
  // The upstream's own text can hold its internal URLs, keys or stack frames: such text goes only to the
  // log (gateway.ts). Kept: the words upstream/ wrote itself (a contract mismatch, an unreachable
  // upstream), a typed error's, and a plain one-line reason (a node's JSON-RPC message, a 400's why).
  const ours =
    e.kind === 'payload' ||
    e.kind === 'network' ||
    typeof (e as { gqlCode?: unknown }).gqlCode === 'string';
  const shown = e.upstreamMessage && (ours || plainReason(e.upstreamMessage));
  const detail = shown ? `: ${e.upstreamMessage}` : '';
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
  return new GraphQLError(message, { extensions });
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
    return placed(
      new GraphQLError(fromUpstreamError(original).message, {
        ...at,
        extensions: fromUpstreamError(original).extensions,
      }),
    );
  }
  if (isGraphQLError(original)) {
    return original === located
      ? located
      : placed(new GraphQLError(original.message, { ...at, extensions: original.extensions }));
  }
  // Parse and validation errors carry no original error: they are the client's, pass them on
  // (plugins/use-error-codes.ts codes the ones that arrive without a code).
  if (located && !located.originalError) return located;
  return placed(
    new GraphQLError(isDev && original instanceof Error ? original.message : message, {
      ...at,
      extensions: { code: 'INTERNAL' },
    }),
  );
}
