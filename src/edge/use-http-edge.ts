import type { CORSOptions, Plugin } from 'graphql-yoga';
import { gqlError } from '../errors.js';
import { codedErrors } from '../http/coded-errors.js';

/**
 * The HTTP edge: every answer carries a coded error, whatever refused it.
 * - A content type no parser takes gets 415 with a JSON body (Yoga answers an empty one); a method other
 *   than GET and POST gets 405.
 * - Errors raised by Yoga or its plugins without a code (the CSRF check, request validation) get one from
 *   their HTTP status, so no client ever sees an error without `extensions.code`; input refused before
 *   execution is a 400, never a 500.
 */
export function useHttpEdge(options: { graphqlEndpoint: string }): Plugin {
  return {
    onRequestParse({ request, url, requestParser, endResponse, fetchAPI }) {
      if (url.pathname !== options.graphqlEndpoint) return;
      if (requestParser) {
        // Yoga's GET parser JSON.parses these and lets a SyntaxError through as INTERNAL (500).
        const bad =
          request.method === 'GET'
            ? ['variables', 'extensions'].find(
                (p) => !isJsonObjectOrAbsent(url.searchParams.get(p)),
              )
            : undefined;
        if (bad) {
          endResponse(
            fetchAPI.Response.json(
              {
                errors: [
                  {
                    message: `The ${bad} parameter must be a JSON object.`,
                    extensions: { code: 'BAD_REQUEST' },
                  },
                ],
              },
              { status: 400 },
            ),
          );
        }
        return;
      }
      // A preflight that CORS did not answer (CORS off, or an origin not on the list): no CORS headers.
      if (request.method === 'OPTIONS')
        return endResponse(new fetchAPI.Response(null, { status: 204 }));
      if (request.method !== 'POST' && request.method !== 'GET') {
        return endResponse(
          fetchAPI.Response.json(
            {
              errors: [
                {
                  message: `Method ${request.method.slice(0, 20)} is not allowed: use GET or POST.`,
                  extensions: { code: 'METHOD_NOT_ALLOWED' },
                },
              ],
            },
            { status: 405, headers: { allow: 'GET, POST' } },
          ),
        );
      }
      const type = request.headers.get('content-type') ?? '(none)';
      endResponse(
        fetchAPI.Response.json(
          {
            errors: [
              {
                message: `Unsupported content type ${type.slice(0, 100)}: send application/json (POST) or a GET with query parameters.`,
                extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' },
              },
            ],
          },
          { status: 415 },
        ),
      );
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      // A subscription needs a stream: SSE (`accept: text/event-stream`) or graphql-ws. Over plain JSON Yoga
      // would answer an empty 406 (after starting it): refuse it first, with a code.
      const ctx = args.contextValue as { request?: Request; transport?: string };
      const accept = ctx.request?.headers.get('accept') ?? '';
      if (ctx.transport === 'graphql-ws' || /text\/event-stream|multipart\/mixed/.test(accept))
        return;
      setResultAndStopExecution({
        errors: [
          gqlError(
            'BAD_REQUEST',
            'A subscription needs a stream: send it with `accept: text/event-stream` (SSE) or over graphql-ws.',
            { reason: 'SUBSCRIPTION_NEEDS_STREAM', http: { status: 406 } },
          ),
        ],
      });
    },
    onResultProcess({ result, setResult }) {
      const results = Array.isArray(result) ? result : [result];
      const fixed = results.map((r) => (r && typeof r === 'object' ? codedErrors(r) : r));
      if (fixed.some((r, i) => r !== results[i]))
        setResult((Array.isArray(result) ? fixed : fixed[0]) as typeof result);
    },
  };
}

function isJsonObjectOrAbsent(raw: string | null): boolean {
  if (raw === null || raw === '') return true;
  try {
    const v: unknown = JSON.parse(raw);
    return v === null || (typeof v === 'object' && !Array.isArray(v));
  } catch {
    return false;
  }
}

const ALLOWED_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'x-glacier-api-key',
  'x-service-api-key',
  'x-graphql-yoga-csrf',
];

/**
 * CORS from an allowlist. `[]`: no CORS headers at all (browsers keep other origins out). `['*']`: any origin,
 * never with credentials. A list: only those origins, each answered with itself, with credentials.
 */
export function corsOptions(
  origins: string[],
): false | CORSOptions | ((request: Request) => CORSOptions) {
  if (origins.length === 0) return false;
  if (origins.includes('*'))
    return {
      origin: '*',
      credentials: false,
      methods: ['GET', 'POST'],
      allowedHeaders: ALLOWED_HEADERS,
      maxAge: 600,
    };
  const allowed = new Set(origins);
  return (request) => {
    const origin = request.headers.get('origin');
    // `false` from the factory means no CORS headers (an empty origin list would mean "any origin").
    if (!origin || !allowed.has(origin)) return false as unknown as CORSOptions;
    return {
      origin: [origin],
      credentials: true,
      methods: ['GET', 'POST'],
      allowedHeaders: ALLOWED_HEADERS,
      maxAge: 600,
    };
  };
}

/**
 * Whether a page of `origin` may open a graphql-ws socket: the same allowlist as CORS (`*`: any; `[]`:
 * none). A socket has no preflight, so this is the only check a cross-site page meets.
 */
export function originAllowed(origins: string[]): (origin: string) => boolean {
  const allowed = new Set(origins);
  return (origin) => allowed.has('*') || allowed.has(origin);
}
