import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';
import { EXAMPLE_TABS } from './examples.js';

/**
 * GraphiQL served entirely by the gateway: no request leaves the machine. Yoga's default page loads its
 * code from a public CDN (offline it never gets past "Loading…"); `@graphql-yoga/render-graphiql` ships
 * the same GraphiQL (with the explorer) as strings, which we serve once each as immutable, content-hashed
 * assets under `/graphiql/assets/` (gzip when the browser takes it) instead of inlining 9 MB into every page.
 */
export const GRAPHIQL_ASSET_PREFIX = '/graphiql/assets/';

interface Asset {
  body: string | Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
  gzipped?: Uint8Array<ArrayBuffer>;
}

interface Assets {
  byPath: Map<string, Asset>;
  url: {
    js: string;
    css: string;
    favicon: string;
    editorWorkerService: string;
    json: string;
    graphql: string;
  };
}

let assets: Promise<Assets> | undefined;

/** The bundle is large: it is imported on the first GraphiQL page or asset request, never at start-up. */
function loadAssets(): Promise<Assets> {
  assets ??= import('@graphql-yoga/render-graphiql/graphiql').then((m) => {
    const byPath = new Map<string, Asset>();
    const add = (
      name: string,
      ext: string,
      type: string,
      body: string | Uint8Array<ArrayBuffer>,
    ) => {
      const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
      const path = `${GRAPHIQL_ASSET_PREFIX}${name}-${hash}.${ext}`;
      byPath.set(path, { body, type, etag: `"${hash}"` });
      return path;
    };
    const js = 'application/javascript; charset=utf-8';
    return {
      byPath,
      url: {
        js: add('graphiql', 'js', js, m.js),
        css: add('graphiql', 'css', 'text/css; charset=utf-8', m.css),
        // The package's favicon is a 150 kB data URL: served once as an asset, not inlined into every page.
        favicon: add(
          'favicon',
          'ico',
          'image/x-icon',
          new Uint8Array(Buffer.from(m.favicon.slice(m.favicon.indexOf(',') + 1), 'base64')),
        ),
        editorWorkerService: add('editor.worker', 'js', js, m.editorWorkerService),
        json: add('json.worker', 'js', js, m.jsonWorker),
        graphql: add('graphql.worker', 'js', js, m.graphqlWorker),
      },
    };
  });
  return assets;
}

/** GraphiQL's settings: the example tabs, and a headers editor ready for the caller's own Data API key. */
export function graphiqlOptions(title: string): GraphiQLOptions {
  return {
    title,
    defaultTabs: EXAMPLE_TABS.map((t) => ({
      query: t.query,
      variables: t.variables ? JSON.stringify(t.variables, null, 2) : null,
      headers: JSON.stringify({ 'x-glacier-api-key': '' }, null, 2),
    })),
    defaultHeaders: JSON.stringify({ 'x-glacier-api-key': '' }, null, 2),
    defaultEditorToolsVisibility: 'headers',
    // A key typed into the headers editor stays in the browser tab, not in its storage.
    shouldPersistHeaders: false,
    // Subscriptions over graphql-ws on the same path (src/http/graphql-ws.ts). GraphiQL's default, an SSE GET,
    // carries no CSRF-prevention header and is refused (403 CSRF_REJECTED) whenever CSRF_PREVENTION is on;
    // a websocket from the page's own origin passes the upgrade's origin check.
    subscriptionsProtocol: 'WS',
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON inside a <script>: `<` is escaped so no value can close the script element. */
const scriptJson = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

/** Yoga's `renderGraphiQL`: a small page that loads the gateway's own assets. */
export async function renderLocalGraphiQL(opts: GraphiQLOptions): Promise<string> {
  const { url } = await loadAssets();
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(opts.title ?? 'GraphiQL')}</title>
    <link rel="icon" href="${url.favicon}" />
    <link rel="stylesheet" href="${url.css}" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run GraphiQL.</noscript>
    <div id="root"></div>
    <script>
      self.MonacoEnvironment = {
        globalAPI: false,
        getWorkerUrl: function (_moduleId, label) {
          return ${scriptJson({ editorWorkerService: url.editorWorkerService, json: url.json, graphql: url.graphql })}[label];
        },
      };
    </script>
    <script src="${url.js}"></script>
    <script>
      YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), ${scriptJson(opts)});
    </script>
  </body>
</html>
`;
}

/** Serves the content-hashed GraphiQL assets (immutable: a new bundle gets new names). */
export function useGraphiQLAssets(): Plugin {
  return {
    async onRequest({ url, request, endResponse }) {
      if (!url.pathname.startsWith(GRAPHIQL_ASSET_PREFIX)) return;
      const asset = (await loadAssets()).byPath.get(url.pathname);
      if (!asset || (request.method !== 'GET' && request.method !== 'HEAD')) {
        endResponse(
          new Response(
            JSON.stringify({
              errors: [{ message: 'Not found', extensions: { code: 'NOT_FOUND' } }],
            }),
            { status: 404, headers: { 'content-type': 'application/json' } },
          ),
        );
        return;
      }
      const headers: Record<string, string> = {
        'content-type': asset.type,
        'cache-control': 'public, max-age=31536000, immutable',
        etag: asset.etag,
        vary: 'accept-encoding',
      };
      if (request.headers.get('if-none-match') === asset.etag) {
        endResponse(new Response(null, { status: 304, headers }));
        return;
      }
      let body: string | Uint8Array<ArrayBuffer> = asset.body;
      if (
        typeof asset.body === 'string' &&
        /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')
      ) {
        asset.gzipped ??= new Uint8Array(gzipSync(asset.body));
        body = asset.gzipped;
        headers['content-encoding'] = 'gzip';
      }
      endResponse(new Response(request.method === 'HEAD' ? null : body, { status: 200, headers }));
    },
  };
}
