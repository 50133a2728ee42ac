import { GraphQLError } from 'graphql';
import { UpstreamError } from '../upstream/errors.js';

/**
 * The one place where failures become client-visible GraphQL errors, each with `extensions.code`.
 * Upstream messages are passed on (they help the client fix its input); nothing secret is in them.
 */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'RATE_LIMITED'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_ERROR'
  | 'INTERNAL';

export function gqlError(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extra } });
}

/** Bad client input, naming the argument at fault. */
export function badInput(argument: string, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return gqlError('BAD_USER_INPUT', message, { argument, ...extra });
}

export function codeForUpstream(e: UpstreamError): ErrorCode {
  if (e.kind === 'timeout' || e.kind === 'network') return 'UPSTREAM_UNAVAILABLE';
  if (e.kind === 'payload') return 'UPSTREAM_ERROR';
  if (e.kind === 'rpc') return e.rpcCode === -32602 ? 'BAD_USER_INPUT' : 'UPSTREAM_ERROR';
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

export function fromUpstreamError(e: UpstreamError): GraphQLError {
  const code = codeForUpstream(e);
  const extensions: Record<string, unknown> = { code, upstream: e.upstream };
  if (e.status !== undefined) extensions.upstreamStatus = e.status;
  if (e.rpcCode !== undefined) extensions.rpcCode = e.rpcCode;
  if (e.retryAfterSec !== undefined) extensions.retryAfterSec = e.retryAfterSec;
  const detail = e.upstreamMessage ?? (e.kind === 'timeout' ? 'the upstream did not answer in time' : e.kind);
  const message =
    code === 'NOT_FOUND'
      ? `Not found: ${detail}`
      : code === 'UPSTREAM_UNAVAILABLE'
        ? `The ${e.upstream} is unavailable: ${detail}`
        : code === 'RATE_LIMITED'
          ? `The ${e.upstream} rate limit was exceeded${e.retryAfterSec !== undefined ? `; retry after ${Math.ceil(e.retryAfterSec)} s` : ''}`
          : code === 'BAD_USER_INPUT'
            ? `The ${e.upstream} rejected the request: ${detail}`
            : `The ${e.upstream} answered an error: ${detail}`;
  return new GraphQLError(message, { extensions });
}

/**
 * Yoga's `maskError`: GraphQL errors we raised pass through, upstream errors are mapped, anything else is
 * masked as INTERNAL (its details only in development).
 */
export function maskError(error: unknown, message: string, isDev = false): GraphQLError {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof UpstreamError) {
    const mapped = fromUpstreamError(original);
    return error instanceof GraphQLError
      ? new GraphQLError(mapped.message, { nodes: error.nodes, path: error.path, source: error.source, positions: error.positions, extensions: mapped.extensions })
      : mapped;
  }
  if (original instanceof GraphQLError) {
    if (error instanceof GraphQLError && error !== original) {
      return new GraphQLError(original.message, { nodes: error.nodes, path: error.path, source: error.source, positions: error.positions, extensions: original.extensions });
    }
    return original;
  }
  if (error instanceof GraphQLError && !error.originalError) return error; // validation / parse errors
  const e = new GraphQLError(isDev && original instanceof Error ? original.message : message, {
    nodes: error instanceof GraphQLError ? error.nodes : undefined,
    path: error instanceof GraphQLError ? error.path : undefined,
    extensions: { code: 'INTERNAL' },
  });
  return e;
}
