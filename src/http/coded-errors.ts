import type { GraphQLError } from 'graphql';
import { type ErrorCode, recode } from '../errors.js';

/**
 * Every answer carries coded errors, whatever refused it: an error raised by Yoga or a plugin without a
 * code gets one from its HTTP status; input refused before execution (no `data`) is a 400, never a 500.
 * HTTP answers get this in `useHttpEdge`'s result processing, graphql-ws answers in src/http/graphql-ws.ts.
 */
export function codedErrors<R extends object>(r: R): R {
  if (!r || typeof r !== 'object' || !('errors' in r) || !Array.isArray(r.errors)) return r;
  const refused = !('data' in r) || (r as { data?: unknown }).data === undefined;
  const needs = (e: GraphQLError) =>
    !codeOf(e) || (refused && codeOf(e) === 'BAD_USER_INPUT' && !e.extensions?.http);
  if (!r.errors.some(needs)) return r;
  return {
    ...r,
    errors: r.errors.map((e: GraphQLError) =>
      !needs(e) ? e : codeOf(e) ? withStatus(e, 400) : withCode(e),
    ),
  };
}

const codeOf = (e: { extensions?: Record<string, unknown> }) => e.extensions?.code;

const withStatus = (e: GraphQLError, status: number) => recode(e, { http: { status } });

function withCode(e: GraphQLError): GraphQLError {
  const status = (e.extensions?.http as { status?: number } | undefined)?.status;
  const code: ErrorCode =
    status === 403 && /csrf/i.test(e.message)
      ? 'CSRF_REJECTED'
      : status === 403
        ? 'FORBIDDEN'
        : status === 404
          ? 'NOT_FOUND'
          : status === 405
            ? 'METHOD_NOT_ALLOWED'
            : status && status >= 500
              ? 'INTERNAL'
              : 'BAD_REQUEST';
  return recode(e, { code }, { keepCause: true });
}
