import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { applyHttpCaching, noteFreshness } from '../cache/request-freshness.js';
import { boundedTags } from '../cache/surrogate-key-header.js';
import type { GatewayContext } from '../context.js';

/**
 * The HTTP caching contract, so CDNs and browsers can keep what the gateway knows is fresh (the headers
 * themselves: `cachingHeaders` in src/cache/http-freshness.ts, shared with the fast path).
 *
 * - A successful query answer (GET or POST) with no credential: `Cache-Control: public, max-age=<freshness
 *   left>, stale-while-revalidate=<window>`, from the same freshness that bounds the whole-response cache
 *   (the shortest of the upstream parts the answer holds), with `Age` when it came from that cache.
 * - Anything else — a mutation, an answer with errors, a part served stale, a part that is never cached,
 *   a subscription, a refusal — is `no-store`; with a credential (a caller's key, an admin token) it is
 *   `private, no-store`: no shared cache may keep it.
 * - A public answer names the entities it holds (`Surrogate-Key`, `Cache-Tag`: SURROGATE_KEY_HEADER), the
 *   tags the request's loaders collected, bounded, so a CDN can purge it by entity (docs/cdn.md).
 * - Every JSON answer carries a weak `ETag` (a hash of its data and errors); a matching `If-None-Match` gets `304` with no
 *   body. A `304` saves the transfer, not the work: execution (or the response-cache read) has already run.
 * - `Vary` names what changes the answer beyond the URL: the media type, the encoding, and the credential
 *   headers (so a shared cache never hands a caller's answer to another).
 */
export function useHttpCaching(options: {
  maxAgeMs: number;
  /** The headers naming an answer's surrogate keys (SURROGATE_KEY_HEADER). @default none */
  tagHeaders?: readonly string[];
}): Plugin<GatewayContext> {
  const tagHeaders = options.tagHeaders ?? [];
  return {
    onExecute({ args }) {
      const ctx = args.contextValue as GatewayContext & { request?: Request };
      const request = ctx.request;
      if (!request || getOperationAST(args.document, args.operationName)?.operation !== 'query')
        return;
      return {
        onExecuteDone({ result }) {
          if (!result || Symbol.asyncIterator in result || result.errors?.length) return;
          const keep = ctx.served.keepable(options.maxAgeMs);
          if (!keep) return;
          if (tagHeaders.length === 0) {
            noteFreshness(request, { maxAgeMs: keep.ttlMs, swrMs: keep.swrMs });
            return;
          }
          // An answer whose facts cannot be named within the header's bound is kept by no shared
          // cache: one a purge could not reach would be served stale until its max-age.
          const tags = boundedTags(ctx.served.tags);
          if (tags) noteFreshness(request, { maxAgeMs: keep.ttlMs, swrMs: keep.swrMs, tags });
        },
      };
    },
    async onResponse({ request, response, setResponse, fetchAPI }) {
      const type = response.headers.get('content-type') ?? '';
      if (response.headers.has('cache-control')) return;
      if (/^(multipart\/mixed|text\/event-stream)/.test(type)) {
        // Incremental and streamed answers are never stored by anyone.
        const headers = new fetchAPI.Headers(response.headers);
        headers.set('cache-control', 'no-store');
        setResponse(
          new fetchAPI.Response(response.body, {
            status: response.status,
            statusText: response.statusText,
            headers,
          }),
        );
        return;
      }
      if (!/json/.test(type)) return;
      const body = await response.text();
      const headers = new fetchAPI.Headers(response.headers);
      const { notModified } = applyHttpCaching(
        request,
        response.status,
        body,
        (name, value) => headers.set(name, value),
        tagHeaders,
      );
      if (notModified) {
        headers.delete('content-length');
        setResponse(new fetchAPI.Response(null, { status: 304, headers }));
        return;
      }
      setResponse(
        new fetchAPI.Response(body, {
          status: response.status,
          statusText: response.statusText,
          headers,
        }),
      );
    },
  };
}
