import type { IncomingHttpHeaders } from 'node:http';
import { isAsyncIterable } from '@envelop/core';
import type { ExecutionResult } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import { applyHttpCaching } from '../cache/request-freshness.js';
import { type ErrorCode, wrappedIn, YogaGraphQLError } from '../errors.js';
import type { RequestObserver } from '../telemetry/request-observer.js';
import { type Hook, type Processor, yogaInternals } from './yoga-internals.js';

/**
 * Direct execution: a plain JSON POST (a query or a mutation) is executed by Yoga's own GraphQL layer
 * without its HTTP layer. Yoga's plugins run as they do in Yoga: every `onRequestParse` hook (plugins
 * note there what they decide about a request, such as introspection being off), every `onParams` hook,
 * the envelop (parse and validation caches, limits, cost and budget, the response cache, the compiled
 * executor, error masking and codes) and, for an answer with errors, every `onResultProcess` hook and
 * Yoga's result processor. What is skipped is the HTTP layer's cost: the Node request turned into a
 * WHATWG `Request` with a body stream, the answer into a `Response` and back. The warm path spent about
 * half of its CPU there (bench/README.md).
 *
 * What the HTTP layer's plugins do for such a request is done here through the same code
 * (`RequestObserver` for the span, request id, metrics and log line; `applyHttpCaching` for `Vary`,
 * `Cache-Control`, `ETag` and `304`), so an answer is the same status, headers and bytes either way
 * (test/integration/direct-execution.test.ts sends a corpus both ways). One difference, on purpose: a
 * `304` is logged and counted as 304 (Yoga's pipeline logs it before the caching plugin turns the 200
 * into a 304).
 *
 * It takes only what Yoga's HTTP layer would pass through unchanged: a POST to the endpoint's URL (no
 * query string) of a JSON object with a string `query` and nothing but `variables` (an object or null)
 * and `operationName` (a string or null) besides, no `Origin` (CORS is Yoga's), an `accept` answered with
 * a single JSON result. The fast path (src/http/fast-path.ts) reads and checks that; anything else, and
 * anything a request-parse hook would answer itself, goes to Yoga untouched. A request that ran is
 * answered here, whatever happens: it never runs twice.
 */
export interface DirectRequest {
  headers: IncomingHttpHeaders;
  /** The request's path and query string, as the HTTP server got it. */
  url: string;
  params: { query: string; variables?: unknown; operationName?: unknown };
  /** The media type of the answer (`mediaTypeFor` of the request's `accept`). */
  mediaType: string;
  /** What Yoga's Node adapter passes as the server context (`req`: the client's address for budgets). */
  serverContext: Record<string, unknown>;
}

export interface DirectAnswer {
  status: number;
  headers: Record<string, string>;
  /** Undefined for a `304`. */
  body?: string;
}

export interface DirectExecution {
  /** The answer, or undefined when a plugin's request checks want Yoga to answer (nothing ran). */
  execute(r: DirectRequest): Promise<DirectAnswer | undefined>;
}

/** What it uses of the gateway's Yoga (a stage names no type of the composition above it). */
type Yoga = Pick<
  YogaServerInstance<Record<string, unknown>, Record<string, unknown>>,
  'fetchAPI' | 'getResultForParams'
>;
export function createDirectExecution(options: {
  yoga: Yoga;
  observer: RequestObserver;
  /** The headers naming an answer's surrogate keys (SURROGATE_KEY_HEADER). @default none */
  tagHeaders?: readonly string[];
}): DirectExecution | undefined {
  const internals = yogaInternals(options.yoga);
  if (!internals) return undefined;
  const { fetchAPI } = options.yoga;

  /**
   * Yoga's request parsing (server.js `parseRequest`) without the parser itself (the fast path parsed the
   * body): every `onRequestParse` hook sees the request, then every `onRequestParseDone` the parameters.
   * Undefined when a hook would answer the request itself, throws, or no parser would take it: Yoga then
   * answers it from the start.
   */
  const requestParse = async (
    request: Request,
    serverContext: Record<string, unknown>,
    params: DirectRequest['params'],
  ): Promise<DirectRequest['params'] | undefined> => {
    let parser: unknown;
    let ended = false;
    const done: Hook[] = [];
    const url = new fetchAPI.URL(request.url);
    try {
      for (const hook of internals.parseHooks) {
        let r = hook({
          request,
          url,
          requestParser: parser,
          serverContext,
          setRequestParser: (p: unknown) => {
            parser = p;
          },
          endResponse: () => {
            ended = true;
          },
          fetchAPI,
        });
        if (r instanceof Promise) r = await r;
        if (ended) return undefined;
        const onDone = (r as { onRequestParseDone?: unknown } | undefined)?.onRequestParseDone;
        if (typeof onDone === 'function') done.push(onDone as Hook);
      }
      if (!parser) return undefined;
      let parsed: unknown = params;
      for (const onDone of done)
        await onDone({
          requestParserResult: parsed,
          setRequestParserResult: (p: unknown) => {
            parsed = p;
          },
        });
      return parsed as DirectRequest['params'];
    } catch {
      return undefined;
    }
  };

  /** Yoga's result processing (server.js `processResult`): the hooks choose a processor, or 406. */
  const processResult = async (
    request: Request,
    first: unknown,
    serverContext: Record<string, unknown>,
  ): Promise<Response> => {
    let result = first;
    let processor: Processor | undefined;
    let mediaType = '*/*';
    const acceptableMediaTypes: string[] = [];
    for (const hook of internals.resultHooks)
      await hook({
        request,
        acceptableMediaTypes,
        result,
        setResult: (r: unknown) => {
          result = r;
        },
        resultProcessor: processor,
        setResultProcessor: (p: Processor, type: string) => {
          processor = p;
          mediaType = type;
        },
        serverContext,
      });
    if (!processor)
      return new fetchAPI.Response(null, {
        status: 406,
        statusText: 'Not Acceptable',
        headers: { accept: acceptableMediaTypes.join('; charset=utf-8, ') },
      });
    return processor(result, fetchAPI, mediaType);
  };

  /**
   * Yoga's `handleError` for an error thrown out of a hook, with masking on (as the gateway runs it): a
   * masked error that is not a GraphQLError of Yoga's own `graphql` is wrapped in one, as Yoga does.
   */
  const thrown = (error: unknown): ExecutionResult => {
    const masked = internals.mask.maskError(
      error,
      internals.mask.errorMessage,
      internals.mask.isDev,
    );
    return { errors: [wrappedIn(YogaGraphQLError, masked)] };
  };

  /** The answer to a result: Yoga's result processing, then the HTTP caching headers. */
  const render = async (request: Request, result: unknown, r: DirectRequest): Promise<Rendered> => {
    let status: number;
    let body: string;
    const out: Record<string, string> = {};
    if (isPlainSuccess(result)) {
      // What Yoga's regular result processor gives a result without errors or HTTP extensions.
      status = 200;
      body = JSON.stringify(result);
      out['content-type'] = `${r.mediaType}; charset=utf-8`;
    } else {
      const response = await processResult(request, result, r.serverContext);
      status = response.status;
      // Names in lower case (the WHATWG ponyfill keeps `Content-Type` as it was set).
      // Sent whole, with its length: no hop-by-hop headers (chunked beside a length is malformed HTTP).
      response.headers.forEach((value, name) => {
        const lower = name.toLowerCase();
        if (lower !== 'transfer-encoding' && lower !== 'connection') out[lower] = value;
      });
      body = await response.text();
    }
    let notModified = false;
    if (/json/.test(out['content-type'] ?? '') && out['cache-control'] === undefined)
      notModified = applyHttpCaching(
        request,
        status,
        body,
        (name, value) => {
          out[name] = value;
        },
        options.tagHeaders,
      ).notModified;
    if (notModified) {
      delete out['content-length'];
      return { status: 304, headers: out };
    }
    // A body-less answer (a 406) has no length, as Yoga's.
    if (body !== '' || out['content-length'] !== undefined)
      out['content-length'] = String(Buffer.byteLength(body));
    return { status, headers: out, body };
  };

  return {
    async execute(r) {
      const headers = new fetchAPI.Headers();
      for (const [name, value] of Object.entries(r.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      }
      const host = typeof r.headers.host === 'string' ? r.headers.host : 'localhost';
      let request: Request;
      try {
        request = new fetchAPI.Request(`http://${host}${r.url}`, { method: 'POST', headers });
      } catch {
        return undefined; // a host that makes no URL: Yoga's to answer
      }
      const params = await requestParse(request, r.serverContext, r.params);
      if (!params) return undefined;
      let answer: DirectAnswer | undefined;
      let ran = false;
      const observed = options.observer.observe(request, async () => {
        ran = true;
        let result: unknown;
        try {
          result = await options.yoga.getResultForParams(
            { params: params as never, request },
            r.serverContext as never,
          );
        } catch (error) {
          result = thrown(error);
        }
        // Once the request ran, it is answered here whatever happens (never run again by Yoga): an error
        // while answering is answered as Yoga answers one, and if even that fails, with a plain 500.
        let rendered: Rendered;
        try {
          rendered = await render(request, result, r);
        } catch (error) {
          rendered = await render(request, thrown(error), r).catch(() => INTERNAL);
        }
        options.observer.respond(request, rendered.status, (name, value) => {
          rendered.headers[name] = value;
        });
        answer = rendered;
      });
      try {
        await observed;
      } catch (error) {
        // Observing failed: before the request ran, Yoga may answer it; after, it must not run again.
        if (!ran) throw error;
      }
      return answer ?? INTERNAL;
    },
  };
}

type Rendered = DirectAnswer & { headers: Record<string, string> };

/** The last resort, should answering an error fail too. */
const INTERNAL_BODY = JSON.stringify({
  errors: [{ message: 'Unexpected error.', extensions: { code: 'INTERNAL' satisfies ErrorCode } }],
});
const INTERNAL: Rendered = {
  status: 500,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(INTERNAL_BODY)),
  },
  body: INTERNAL_BODY,
};

/** A single result without errors, HTTP extensions or a stringifier of its own. */
function isPlainSuccess(result: unknown): result is ExecutionResult {
  if (!result || typeof result !== 'object' || Array.isArray(result) || isAsyncIterable(result))
    return false;
  const r = result as ExecutionResult & { stringify?: unknown };
  return (
    !r.errors?.length &&
    r.stringify === undefined &&
    (r.extensions as { http?: unknown } | undefined)?.http === undefined
  );
}
