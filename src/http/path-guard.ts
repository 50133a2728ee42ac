import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { Stage } from './pipeline.js';

/**
 * Only the documented routes, spelled exactly, are served: `/graphql/`, `//graphql` or
 * `/graphql/../health` are 404 (a proxy's rules, a cache's key or a log's route would read them as
 * other paths than the one we answer). The raw request line is checked: a WHATWG URL has already
 * resolved the dot segments.
 */
export function unnormalizedPath(rawUrl: string): boolean {
  const path = rawPathOf(rawUrl);
  if (path === '/' || path === '') return false;
  if (!path.startsWith('/') || path.endsWith('/') || path.includes('//')) return true;
  if (/%2e|%2f|%5c|\\/i.test(path)) return true;
  return path.split('/').some((seg) => seg === '.' || seg === '..');
}

/** The path of a request line's URL as sent (no query string), without building a URL. */
export function rawPathOf(rawUrl: string): string {
  const q = rawUrl.indexOf('?');
  return q < 0 ? rawUrl : rawUrl.slice(0, q);
}

/** The pipeline's first stage (src/http/pipeline.ts): a path not spelled exactly is a 404 at once. */
export const pathGuardStage: Stage = (req, res) => {
  if (!unnormalizedPath(req.url ?? '/')) return false;
  res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
  res.end(notFoundBody());
  return true;
};

export function notFoundBody(): string {
  return JSON.stringify({
    errors: [{ message: 'Not found.', extensions: { code: 'NOT_FOUND' } }],
  });
}

/** The same rule inside Yoga, for requests that reach it without the HTTP server (`yoga.fetch`). */
export function usePathGuard(): Plugin {
  return {
    onRequest({ request, serverContext, endResponse, fetchAPI }) {
      const req = (serverContext as { req?: IncomingMessage } | undefined)?.req;
      const raw = req?.url ?? new URL(request.url).pathname;
      if (!unnormalizedPath(raw)) return;
      endResponse(
        new fetchAPI.Response(notFoundBody(), {
          status: 404,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        }),
      );
    },
  };
}
