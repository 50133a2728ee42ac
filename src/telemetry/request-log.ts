import { randomUUID } from 'node:crypto';

/**
 * The request id and the one log line a request gets, for every way a request is answered (Yoga's
 * pipeline and direct execution through the request observer, the fast path's response-cache hits), so
 * the lines are alike field for field, in the same order.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What an incoming request id may look like (UUIDs, ULIDs, hex, proxy ids); anything else is replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:=+/-]{1,128}$/;

/** The caller's request id when it looks like one, else a new UUID. */
export function saneRequestId(given: string | null | undefined): string {
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

export interface RequestLogFields {
  requestId: string;
  traceId?: string;
  method: string;
  /** A known route, or `other`. */
  path: string;
  status: number;
  durationMs: number;
  operationName?: string;
  operationType?: string;
  upstreamCalls: number;
  upstreamCu?: number;
  upstreamRetries?: number;
  errorCodes?: string[];
  /** How the whole-response cache answered, when it answered before the pipeline (`fast-hit`). */
  responseCache?: string;
}

/**
 * The log line's object: optional fields only when they say something, the duration to a tenth of a
 * millisecond, the compute units as 0 when none were counted.
 */
export function requestLogLine(fields: RequestLogFields): Record<string, unknown> {
  return {
    requestId: fields.requestId,
    ...(fields.traceId ? { traceId: fields.traceId } : {}),
    method: fields.method,
    path: fields.path,
    status: fields.status,
    durationMs: Math.round(fields.durationMs * 10) / 10,
    ...(fields.operationName ? { operationName: fields.operationName } : {}),
    ...(fields.operationType ? { operationType: fields.operationType } : {}),
    upstreamCalls: fields.upstreamCalls,
    upstreamCu: fields.upstreamCu ?? 0,
    ...(fields.upstreamRetries ? { upstreamRetries: fields.upstreamRetries } : {}),
    ...(fields.errorCodes ? { errorCodes: fields.errorCodes } : {}),
    ...(fields.responseCache ? { responseCache: fields.responseCache } : {}),
  };
}

/** An operation name as logged: at most 100 characters; none when empty or not a string. */
export function loggedOperationName(name: unknown): string | undefined {
  return typeof name === 'string' && name ? name.slice(0, 100) : undefined;
}
