import type { Plugin } from 'graphql-yoga';
import { gqlError, YogaGraphQLError } from '../errors.js';

/**
 * The request-body limit, as Yoga's own `maxRequestBodySize` enforces it (same 413 and 400 errors),
 * without its cost on ordinary requests: Yoga pipes every body through a counting stream, even one whose
 * `content-length` is known and within the limit — and Node's HTTP parser never delivers more bytes than
 * the declared length. Here only a body without a length (chunked) is counted as it streams.
 * Register it after every plugin that sets a request parser (it wraps the parser chosen by then).
 */
const tooLarge = () =>
  gqlError(
    'REQUEST_ENTITY_TOO_LARGE',
    'Request body too large',
    { http: { status: 413 } },
    {},
    YogaGraphQLError,
  );
const badLength = () =>
  gqlError(
    'BAD_REQUEST',
    'Content-Length header is invalid.',
    { http: { status: 400 } },
    {},
    YogaGraphQLError,
  );
const CONTENT_LENGTH_RE = /^\d+$/;

export function useBodyLimit(limit: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const contentLength = request.headers.get('content-length');
      if (contentLength != null) {
        if (!CONTENT_LENGTH_RE.test(contentLength)) throw badLength();
        if (Number(contentLength) > limit) throw tooLarge();
        return; // the parser reads exactly this many bytes
      }
      if (requestParser == null || request.body == null) return;
      const original = requestParser;
      setRequestParser((req) => original(counted(req, limit, fetchAPI)));
    },
  };
}

type FetchAPI = Parameters<NonNullable<Plugin['onRequestParse']>>[0]['fetchAPI'];

function counted(request: Request, limit: number, fetchAPI: FetchAPI): Request {
  const body = request.body;
  if (!body) return request;
  const Transform =
    body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
  let bytesRead = 0;
  const limited = body.pipeThrough(
    new Transform<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytesRead += chunk.byteLength;
        if (bytesRead > limit) return controller.error(tooLarge());
        controller.enqueue(chunk);
      },
    }),
  );
  return new fetchAPI.Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body: limited,
    duplex: 'half',
  } as RequestInit);
}
