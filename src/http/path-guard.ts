import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';

/**
 * Only the documented routes, spelled exactly, are served: `/graphql/`, `//graphql` or
 * `/graphql/../health` are 404 (a proxy's rules, a cache's key or a log's route would read them as
 * other paths than the one we answer). The raw request line is checked: a WHATWG URL has already
 * resolved the dot segments.
 */
export function unnormalizedPath(rawUrl: string): boolean {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  if (path === '/' || path === '') return false;
  if (!path.startsWith('/') || path.endsWith('/') || path.includes('//')) return true;
  if (/%2e|%2f|%5c|\\/i.test(path)) return true;
  return path.split('/').some((seg) => seg === '.' || seg === '..');
}

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
