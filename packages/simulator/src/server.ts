import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import type { AccessControl } from './access.js';
import type { CallStats, FaultSet } from './control.js';
import type { SimRequest, SimResponse, SimUpstream } from './types.js';

/**
 * The simulator's single node:http server. `/data-api`, `/metrics-api` and `/node` go to their
 * upstream handlers; `/_sim` is the control surface. Per upstream request: run the handler (which
 * names the route template), count it, apply access rules (keys, rate limit) and faults, wait the
 * base latency, answer.
 */

export interface ServerDeps {
  upstreams: { base: string; upstream: SimUpstream; rateLimited: boolean; keyed: boolean }[];
  stats: CallStats;
  faults: FaultSet;
  access: AccessControl;
  latencyMs: () => number;
  /** Spec variation (`SIM_VARY`): turns a successful JSON answer into a spec-valid variant. */
  vary?: (
    upstream: SimUpstream['name'],
    route: string,
    status: number,
    body: unknown,
    rpcMethods: readonly string[],
  ) => unknown;
  control: (
    method: string,
    path: string,
    body: string,
  ) => Promise<{ status: number; body?: unknown }> | { status: number; body?: unknown };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function readBody(req: IncomingMessage): Promise<string> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    req.resume();
    return Promise.resolve('');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  payload: string,
  contentType = JSON_TYPE,
): void {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

/** The encoding a varied simulator answers with: what the client accepts, for bodies of 512 bytes or more. */
function compressionFor(req: IncomingMessage, payload: string): 'gzip' | 'br' | undefined {
  if (payload.length < 512) return undefined;
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const gzip = /\bgzip\b/.test(accepted);
  const br = /\bbr\b/.test(accepted);
  if (gzip && br) return (req.url ?? '').length % 2 === 0 ? 'gzip' : 'br';
  return gzip ? 'gzip' : br ? 'br' : undefined;
}

function serialize(r: SimResponse): { payload: string; type: string } {
  if (r.text !== undefined)
    return { payload: r.text, type: r.headers?.['content-type'] ?? 'text/plain; charset=utf-8' };
  if (r.body === undefined) return { payload: '', type: JSON_TYPE };
  return { payload: JSON.stringify(r.body), type: JSON_TYPE };
}

function decodePath(raw: string): string | undefined {
  if (!raw.includes('%')) return raw;
  try {
    return raw.split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
}

const statusText: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};
const errorBody = (status: number, message: string) => ({
  message,
  statusCode: status,
  error: statusText[status] ?? 'Error',
});

export function createSimServer(deps: ServerDeps): Server {
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const body = await readBody(req);
    if (rawPath === '/_sim' || rawPath.startsWith('/_sim/')) {
      const r = await deps.control(req.method ?? 'GET', rawPath.slice('/_sim'.length) || '/', body);
      send(res, r.status, {}, r.body === undefined ? '' : JSON.stringify(r.body));
      return;
    }
    const entry = deps.upstreams.find(
      (u) => rawPath === u.base || rawPath.startsWith(`${u.base}/`),
    );
    if (!entry) {
      send(res, 404, {}, JSON.stringify(errorBody(404, `Cannot ${req.method} ${rawPath}`)));
      return;
    }
    const path = decodePath(rawPath.slice(entry.base.length) || '/');
    if (path === undefined) {
      send(res, 400, {}, JSON.stringify(errorBody(400, 'Malformed percent-encoding in the path')));
      return;
    }
    const simReq: SimRequest = {
      method: req.method ?? 'GET',
      path,
      query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)),
      headers: req.headers,
      rawBody: body,
    };
    let answer: SimResponse;
    try {
      answer = await entry.upstream.handle(simReq);
    } catch (err) {
      answer = {
        status: 500,
        body: errorBody(500, 'Internal Server Error'),
        route: `${simReq.method} (error)`,
      };
      console.error('[sim] handler error', err);
    }
    const name = entry.upstream.name;
    if (deps.vary && answer.status >= 200 && answer.status < 300 && answer.body !== undefined) {
      answer = {
        ...answer,
        body: deps.vary(name, answer.route, answer.status, answer.body, answer.rpcMethods ?? []),
      };
    }
    deps.stats.count(
      `${name} ${answer.route}`,
      (answer.rpcMethods ?? []).map((m) => `${path} ${m}`),
    );

    let headers: Record<string, string> = { ...answer.headers };
    if (entry.rateLimited) {
      const a = deps.access.check(
        name,
        req.headers,
        req.socket.remoteAddress ?? 'unknown',
        entry.keyed,
        answer.route,
      );
      if (!a.ok) {
        answer = { status: a.status, body: errorBody(a.status, a.message), route: answer.route };
        headers = {};
      }
      Object.assign(headers, a.headers);
    }
    const decision = deps.faults.decide(`${name} ${answer.route}`);
    const wait = deps.latencyMs() + decision.latencyMs;
    if (wait > 0) await sleep(wait);
    const effect = decision.effect;
    if (effect?.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (effect?.kind === 'malformed') {
      send(res, 200, {}, '{"malformed": tru');
      return;
    }
    if (effect?.kind === 'status') {
      const b =
        effect.body ?? errorBody(effect.status, statusText[effect.status] ?? 'Simulated fault');
      send(
        res,
        effect.status,
        { ...effect.headers },
        typeof b === 'string' ? b : JSON.stringify(b),
      );
      return;
    }
    const { payload, type } = serialize(answer);
    if (answer.status === 204 || answer.status === 304) {
      res.writeHead(answer.status, headers);
      res.end();
      return;
    }
    // A varied run also varies the transfer: real upstreams (behind a CDN) compress what the client
    // accepts, so bodies of some size come gzip- or brotli-encoded, chosen per path.
    const encoding = deps.vary ? compressionFor(req, payload) : undefined;
    if (encoding) {
      // On-the-fly levels, as a CDN uses (brotli's default, quality 11, is for static assets).
      const packed =
        encoding === 'br'
          ? brotliCompressSync(payload, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } })
          : gzipSync(payload, { level: 5 });
      res.writeHead(answer.status, {
        'content-type': type,
        'content-length': packed.byteLength,
        'content-encoding': encoding,
        vary: 'accept-encoding',
        ...headers,
      });
      res.end(packed);
      return;
    }
    send(res, answer.status, headers, payload, type);
  }

  const server = createServer((req, res) => {
    // Every answer carries an id of its own, as the upstreams' load balancers add one.
    res.setHeader('x-request-id', randomUUID());
    handle(req, res).catch((err: unknown) => {
      console.error('[sim] request failed', err);
      if (!res.headersSent)
        send(res, 500, {}, JSON.stringify(errorBody(500, 'Internal Server Error')));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}
