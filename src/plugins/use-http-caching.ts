import { hash } from 'node:crypto';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { CREDENTIAL_HEADERS, type GatewayContext } from '../context.js';
import { requestSlot } from '../telemetry/request-slot.js';

/**
 * The HTTP caching contract, so CDNs and browsers can keep what the gateway knows is fresh.
 *
 * - A successful query answer (GET or POST) with no credential: `Cache-Control: public, max-age=<freshness
 *   left>, stale-while-revalidate=<window>`, from the same freshness that bounds the whole-response cache
 *   (the shortest of the upstream parts the answer holds), with `Age` when it came from that cache.
 * - Anything else — a mutation, an answer with errors, a part served stale, a part that is never cached,
 *   a subscription, a refusal — is `no-store`; with a credential (a caller's key, an admin token) it is
 *   `private, no-store`: no shared cache may keep it.
 * - Every JSON answer carries a weak `ETag` (a hash of its data and errors); a matching `If-None-Match` gets `304` with no
 *   body. A `304` saves the transfer, not the work: execution (or the response-cache read) has already run.
 * - `Vary` names what changes the answer beyond the URL: the media type, the encoding, and the credential
 *   headers (so a shared cache never hands a caller's answer to another).
 */
export interface HttpFreshness {
  /** How much longer the answer is fresh. */
  maxAgeMs: number;
  /** How long past that a cache may serve it while it revalidates. */
  swrMs: number;
  /** How old the answer already is (response-cache hits). */
  ageMs?: number;
}

export const VARY = ['accept', 'accept-encoding', ...CREDENTIAL_HEADERS].join(', ');

// On the request itself, not in a WeakMap keyed by it (see telemetry/request-slot.ts).
const fresh = requestSlot<HttpFreshness>('httpFreshness');

/** Called by whoever answered the request without executing it (the whole-response cache). */
export function noteFreshness(request: Request, f: HttpFreshness): void {
  fresh.set(request, f);
}

export function useHttpCaching(o: { maxAgeMs: number }): Plugin<GatewayContext> {
  return {
    onExecute({ args }) {
      const ctx = args.contextValue as GatewayContext & { request?: Request };
      const request = ctx.request;
      if (!request || getOperationAST(args.document, args.operationName)?.operation !== 'query')
        return;
      return {
        onExecuteDone({ result }) {
          if (!result || Symbol.asyncIterator in result || result.errors?.length) return;
          const keep = ctx.served.keepable(o.maxAgeMs);
          if (keep) fresh.set(request, { maxAgeMs: keep.ttlMs, swrMs: keep.swrMs });
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
      const { notModified } = applyHttpCaching(request, response.status, body, (name, value) =>
        headers.set(name, value),
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

/**
 * The caching headers of a JSON answer (`Vary`, `Cache-Control`, `Age` for a response-cache hit, the
 * weak `ETag`), set through `setHeader`; `notModified` when the request's `If-None-Match` matches a
 * successful answer (then it is a `304` with no body). The plugin above applies it to Yoga's answers, the
 * direct execution (src/http/direct.ts) to its own.
 */
export function applyHttpCaching(
  request: Request,
  status: number,
  body: string,
  setHeader: (name: string, value: string) => void,
): { notModified: boolean } {
  const credentialed = CREDENTIAL_HEADERS.some((h) => request.headers.get(h));
  const f = fresh.get(request);
  setHeader('vary', VARY);
  if (
    status === 200 &&
    f &&
    !credentialed &&
    (request.method === 'GET' || request.method === 'POST')
  ) {
    setHeader(
      'cache-control',
      `public, max-age=${Math.floor(f.maxAgeMs / 1000)}, stale-while-revalidate=${Math.floor(f.swrMs / 1000)}`,
    );
    if (f.ageMs !== undefined) setHeader('age', String(Math.max(0, Math.floor(f.ageMs / 1000))));
  } else {
    setHeader('cache-control', credentialed ? 'private, no-store' : 'no-store');
  }
  const etag = etagOf(body);
  setHeader('etag', etag);
  return { notModified: status === 200 && ifNoneMatch(request.headers.get('if-none-match'), etag) };
}

/**
 * A weak ETag over the answer's `data` and `errors`: `extensions` (the cost estimate, the client's budget
 * left, cache marks) change from request to request without changing the answer, so they are left out.
 * Yoga writes `extensions` last: the body up to it is hashed as it is (checked by parsing only that
 * small tail), so the answer is neither parsed nor written again. A body of any other form is parsed.
 */
export function etagOf(body: string): string {
  return hashMeaning(withoutExtensions(body) ?? meaningOf(body));
}

const EXTENSIONS = ',"extensions":';

function withoutExtensions(body: string): string | undefined {
  const at = body.lastIndexOf(EXTENSIONS);
  if (at <= 0 || !body.endsWith('}')) return body.startsWith('{"data":') ? body : undefined;
  try {
    const tail = JSON.parse(`{${body.slice(at + 1)}`) as Record<string, unknown>;
    return Object.keys(tail).length === 1 && 'extensions' in tail
      ? `${body.slice(0, at)}}`
      : undefined;
  } catch {
    return undefined;
  }
}

function meaningOf(body: string): string {
  try {
    const { data, errors } = JSON.parse(body) as { data?: unknown; errors?: unknown };
    return JSON.stringify({ data, errors });
  } catch {
    return body; // not JSON after all: the body itself
  }
}

const hashMeaning = (meaning: string): string =>
  `W/"${hash('sha256', meaning, 'base64url').slice(0, 27)}"`;

export function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag.replace(/^W\//, '');
  });
}
