import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * One HTTP attempt against an upstream, on `node:http`/`node:https` with keep-alive agents: the request
 * goes out, the whole answer comes back as text (decompressed, capped in bytes), or a `TransportError`
 * says why not. Retries, backoff and the mapping to `UpstreamError` live a layer up (src/upstream/http.ts).
 *
 * Why not `fetch`: under a cold load the fetch stack (undici's WHATWG Request/Response/streams, an
 * AbortSignal per attempt, plus ky's option merging on top) was about a fifth of the gateway's CPU; an
 * upstream answer is always read whole as text, so none of the streaming machinery is needed. This is
 * the same socket pool (one keep-alive agent per scheme, sockets per host:port) with the per-answer
 * work reduced to a buffer concat. What fetch gave for free and this keeps: gzip/deflate/brotli
 * decoding, following redirects (never carrying the configured headers to another origin), and a
 * timeout that covers the whole attempt, the body included.
 */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface TransportRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The whole attempt, until the last byte of the body. */
  timeoutMs: number;
  /** A longer (decompressed) body fails with `too-large` and is not buffered. */
  maxBodyBytes: number;
}

export interface TransportResponse {
  status: number;
  /** A response header by lower-case name (several values joined by `, `). */
  header(name: string): string | undefined;
  body: string;
}

export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

export type TransportErrorKind =
  /** The attempt outlived its timeout. */
  | 'timeout'
  /** No answer: refused, reset, DNS, a broken HTTP message. Worth another attempt. */
  | 'network'
  /** The body is larger than `maxBodyBytes`. */
  | 'too-large'
  /** The body could not be decoded (bad gzip/brotli, or an unknown content-encoding). */
  | 'encoding'
  /** Nothing could be sent: not an http(s) URL, or a header Node refuses. Not worth another attempt. */
  | 'unsendable';

export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    readonly kind: TransportErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Redirects followed before giving up (fetch follows 20; an API that redirects more is broken). */
const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Sockets are kept open between calls (keep-alive) and reused most-recently-freed first, so a quiet
 * period lets the older ones time out rather than keeping every socket of a burst half alive; a free
 * socket is closed after 4 s unused, before the usual 5 s a server waits, so a reused socket is rarely
 * one the server is closing.
 */
const agentOptions: http.AgentOptions = {
  keepAlive: true,
  scheduling: 'lifo',
  timeout: 4_000,
};
const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

export function createHttpTransport(
  options: { agents?: { http: http.Agent; https: https.Agent } } = {},
): Transport {
  const use = options.agents ?? agents;
  return (req) => attempt(req, use, 0);
}

/** The transport every upstream client uses unless one is injected. */
export const httpTransport: Transport = createHttpTransport();

function attempt(
  req: TransportRequest,
  use: { http: http.Agent; https: https.Agent },
  redirects: number,
): Promise<TransportResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch (cause) {
    return Promise.reject(new TransportError('unsendable', `not a URL: ${req.url}`, { cause }));
  }
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:')
    return Promise.reject(new TransportError('unsendable', `unsupported scheme ${url.protocol}`));
  const headers: Record<string, string> = {
    'accept-encoding': 'gzip, deflate, br',
    ...req.headers,
  };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  const started = performance.now();
  return new Promise<TransportResponse>((resolve, reject) => {
    let settled = false;
    const fail = (e: TransportError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(e);
    };
    const onResponse = (res: http.IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) {
        res.resume();
        if (redirects >= MAX_REDIRECTS) {
          fail(new TransportError('network', `more than ${MAX_REDIRECTS} redirects`));
          return;
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch (cause) {
          fail(
            new TransportError('network', 'a redirect to a location that is not a URL', {
              cause,
            }),
          );
          return;
        }
        // A 303 (and, as browsers do, a 301/302 after a POST) becomes a GET without a body.
        const asGet =
          status === 303 || ((status === 301 || status === 302) && req.method === 'POST');
        const sameOrigin = next.origin === url.origin;
        const left = req.timeoutMs - (performance.now() - started);
        settled = true;
        clearTimeout(timer);
        attempt(
          {
            ...req,
            url: next.href,
            method: asGet ? 'GET' : req.method,
            body: asGet ? undefined : req.body,
            // The configured headers (an API key) stay with the origin they were configured for.
            headers: sameOrigin ? req.headers : { accept: req.headers.accept ?? '*/*' },
            timeoutMs: Math.max(1, left),
          },
          use,
          redirects + 1,
        ).then(resolve, reject);
        return;
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > req.maxBodyBytes) {
        res.resume();
        fail(tooLarge(req.maxBodyBytes));
        return;
      }
      let body: Readable = res;
      const encoding = String(res.headers['content-encoding'] ?? 'identity')
        .trim()
        .toLowerCase();
      if (encoding !== 'identity' && encoding !== '') {
        const decoder =
          encoding === 'gzip' || encoding === 'x-gzip'
            ? zlib.createGunzip()
            : encoding === 'deflate'
              ? zlib.createInflate()
              : encoding === 'br'
                ? zlib.createBrotliDecompress()
                : undefined;
        if (!decoder) {
          res.resume();
          // The header is the upstream's text: named only when it looks like an encoding token.
          const named = /^[\w.-]{1,32}$/.test(encoding ?? '') ? ` ${encoding}` : '';
          fail(new TransportError('encoding', `unknown content-encoding${named}`));
          return;
        }
        decoder.on('error', (cause) =>
          fail(new TransportError('encoding', 'the body could not be decompressed', { cause })),
        );
        body = res.pipe(decoder);
      }
      // A connection that closes before the whole message arrived fails the attempt now (Node reports
      // it as an error on the response), not at its timeout.
      res.on('error', (cause) => fail(network(cause)));
      const chunks: Buffer[] = [];
      let total = 0;
      body.on('data', (chunk: Buffer) => {
        total += chunk.byteLength;
        if (total > req.maxBodyBytes) {
          fail(tooLarge(req.maxBodyBytes));
          return;
        }
        chunks.push(chunk);
      });
      body.on('error', (cause) => fail(network(cause)));
      body.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const text =
          chunks.length === 1
            ? (chunks[0] as Buffer).toString('utf8')
            : Buffer.concat(chunks, total).toString('utf8');
        const h = res.headers;
        resolve({
          status,
          header: (name) => {
            const v = h[name];
            return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : v;
          },
          body: text,
        });
      });
    };
    let request: http.ClientRequest;
    try {
      request = (secure ? https : http).request(
        url,
        { method: req.method, headers, agent: secure ? use.https : use.http },
        onResponse,
      );
    } catch (cause) {
      // A header Node refuses to send (a control character in a caller's key).
      settled = true;
      reject(new TransportError('unsendable', 'the request could not be sent', { cause }));
      return;
    }
    const timer = setTimeout(
      () =>
        fail(
          new TransportError(
            'timeout',
            `no complete answer within ${Math.round(req.timeoutMs)} ms`,
          ),
        ),
      req.timeoutMs,
    );
    request.on('error', (cause) => fail(network(cause)));
    request.end(req.body);
  });
}

function tooLarge(max: number): TransportError {
  return new TransportError('too-large', `the upstream answer is larger than ${max} bytes`);
}

function network(cause: unknown): TransportError {
  const code = (cause as { code?: unknown } | undefined)?.code;
  return new TransportError(
    'network',
    typeof code === 'string' ? code : 'the upstream could not be reached',
    { cause },
  );
}
