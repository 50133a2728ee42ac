import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UpstreamError } from '../../src/upstream/errors.js';
import { createHttpClient } from '../../src/upstream/http.js';
import { createJsonRpcClient } from '../../src/upstream/jsonrpc.js';
import {
  createHttpTransport,
  httpTransport,
  TransportError,
} from '../../src/upstream/transport.js';
import { configuredHttpLimits } from '../support/http-limits.js';

/**
 * The upstream transport (src/upstream/transport.ts) against real loopback servers: what `fetch` did
 * for us and the transport must still do (decompress, follow redirects without carrying a key to
 * another origin, a timeout over the whole answer, a byte cap), and the retry policy of the client
 * on top (src/upstream/http.ts).
 */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
let handler: Handler;
const seen: { url: string; headers: http.IncomingHttpHeaders; at: number }[] = [];
let server: http.Server;
let base: string;
let other: http.Server;
let otherBase: string;
const otherSeen: http.IncomingHttpHeaders[] = [];

function listen(s: http.Server): Promise<string> {
  return new Promise((resolve) =>
    s.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, at: performance.now() });
      handler(req, res, body);
    });
  });
  base = await listen(server);
  other = http.createServer((req, res) => {
    otherSeen.push(req.headers);
    res.setHeader('content-type', 'application/json');
    res.end('{"where":"other"}');
  });
  otherBase = await listen(other);
});
afterAll(async () => {
  server.closeAllConnections();
  other.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => other.close(r));
});
beforeEach(() => {
  seen.length = 0;
  otherSeen.length = 0;
});

const get = (
  path: string,
  o: { timeoutMs?: number; maxBodyBytes?: number; headers?: Record<string, string> } = {},
) =>
  httpTransport({
    method: 'GET',
    url: `${base}${path}`,
    headers: o.headers ?? {},
    timeoutMs: o.timeoutMs ?? 2_000,
    maxBodyBytes: o.maxBodyBytes ?? 1_000_000,
  });

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
};

describe('transport', () => {
  const doc = JSON.stringify({
    items: Array.from({ length: 200 }, (_, i) => ({ i, hash: `0x${i}` })),
  });

  it.each([
    ['gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
  ] as const)('asks for compression and decodes a %s body', async (encoding, compress) => {
    handler = (_req, res) => {
      res.setHeader('content-encoding', encoding);
      res.end(compress(Buffer.from(doc)));
    };
    const r = await get('/x');
    expect(seen[0]!.headers['accept-encoding']).toMatch(/gzip/);
    expect(r.status).toBe(200);
    expect(r.body).toBe(doc);
  });

  it('a body that does not decode is an encoding failure, not a crash', async () => {
    handler = (_req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end('not gzip at all');
    };
    const e = await failure(get('/x'));
    expect(e).toBeInstanceOf(TransportError);
    expect((e as TransportError).kind).toBe('encoding');
  });

  it('caps the body in bytes, declared or not, and after decompression', async () => {
    handler = (req, res) => {
      if (req.url === '/declared') res.end('x'.repeat(5000));
      else if (req.url === '/chunked') {
        res.write('x'.repeat(3000));
        res.end('x'.repeat(3000));
      } else {
        res.setHeader('content-encoding', 'gzip');
        res.end(zlib.gzipSync(Buffer.from('x'.repeat(100_000)))); // a small body that inflates
      }
    };
    for (const path of ['/declared', '/chunked', '/bomb']) {
      const e = await failure(get(path, { maxBodyBytes: 4096 }));
      expect((e as TransportError).kind, path).toBe('too-large');
    }
    expect((await get('/declared', { maxBodyBytes: 5000 })).body).toHaveLength(5000);
  });

  it('the timeout covers the whole answer: headers at once and a body that never ends time out', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
    };
    const e = await failure(get('/slow-body', { timeoutMs: 150 }));
    expect((e as TransportError).kind).toBe('timeout');
  });

  it('follows a redirect on the same origin with its headers, and to another origin without them', async () => {
    handler = (req, res) => {
      if (req.url === '/old') {
        res.writeHead(301, { location: '/new' });
        res.end();
      } else if (req.url === '/away') {
        res.writeHead(302, { location: `${otherBase}/there` });
        res.end();
      } else res.end('{"where":"new"}');
    };
    const key = { 'x-glacier-api-key': 'secret' };
    expect((await get('/old', { headers: key })).body).toBe('{"where":"new"}');
    expect(seen.map((s) => [s.url, s.headers['x-glacier-api-key']])).toEqual([
      ['/old', 'secret'],
      ['/new', 'secret'],
    ]);
    expect((await get('/away', { headers: key })).body).toBe('{"where":"other"}');
    expect(otherSeen[0]!['x-glacier-api-key']).toBeUndefined();
  });

  it('a redirect to something that is not a URL is a failure of that call, not a crash', async () => {
    handler = (_req, res) => {
      res.writeHead(302, { location: 'http://[broken' });
      res.end();
    };
    const e = await failure(get('/bad-location', { timeoutMs: 60_000 }));
    expect((e as TransportError).kind).toBe('network');
    expect((e as Error).message).toMatch(/not a URL/);
  });

  it('gives up after a few redirects (a loop is a failure, not a hang)', async () => {
    handler = (_req, res) => {
      res.writeHead(302, { location: '/loop' });
      res.end();
    };
    const e = await failure(get('/loop'));
    expect((e as TransportError).kind).toBe('network');
    expect(seen.length).toBe(6);
  });

  it('a connection that closes in the middle of the body fails at once, not at the timeout', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('{"a":');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const e = await failure(get('/cut', { timeoutMs: 60_000 }));
    expect((e as TransportError).kind).toBe('network');
  });

  it('a header Node refuses to send is a failure of that call, sent nowhere and not retried', async () => {
    handler = (_req, res) => res.end('{"ok":true}');
    const e = await failure(get('/h', { headers: { 'x-glacier-api-key': 'a\nb' } }));
    expect((e as TransportError).kind).toBe('unsendable');
    const client = createHttpClient({
      ...configuredHttpLimits(),
      name: 'data-api',
      baseUrl: base,
      retries: 2,
    });
    const err = await failure(
      client.getJson('/h', {}, z.object({ ok: z.boolean() }), {
        headers: { 'x-glacier-api-key': 'a\nb' },
      }),
    );
    expect(err).toMatchObject({ kind: 'network' });
    expect(seen).toHaveLength(0);
  });

  it('a refused connection is a network failure', async () => {
    const closed = http.createServer();
    const url = await listen(closed);
    await new Promise((r) => closed.close(r));
    const e = await failure(
      httpTransport({ method: 'GET', url, headers: {}, timeoutMs: 1000, maxBodyBytes: 100 }),
    );
    expect((e as TransportError).kind).toBe('network');
  });

  it('an answer slower than the idle-socket timeout still arrives within the attempt timeout', async () => {
    // Agents whose free sockets close after 100 ms: a socket in use must not be closed by that timer.
    const opts = { keepAlive: true, timeout: 100 };
    const transport = createHttpTransport({
      agents: { http: new http.Agent(opts), https: new https.Agent(opts) },
    });
    handler = (_req, res) => {
      setTimeout(() => res.end('{"late":true}'), 400);
    };
    const r = await transport({
      method: 'GET',
      url: `${base}/late`,
      headers: {},
      timeoutMs: 2_000,
      maxBodyBytes: 1_000,
    });
    expect(r.body).toBe('{"late":true}');
  });

  it('reuses its connection between calls (keep-alive)', async () => {
    const ports = new Set<number | undefined>();
    handler = (req, res) => {
      ports.add(req.socket.remotePort);
      res.end('{}');
    };
    for (let i = 0; i < 5; i++) await get('/k');
    expect(ports.size).toBe(1);
  });
});

describe('transport over TLS', () => {
  // A real upstream is https: a self-signed certificate made for this test, trusted by the agent only.
  let dir: string;
  let tls: https.Server;
  let tlsBase: string;
  let ca: Buffer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'transport-tls-'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=localhost']
        .concat(['-addext', 'subjectAltName=IP:127.0.0.1'])
        .concat(['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]),
      { stdio: 'ignore' },
    );
    ca = readFileSync(join(dir, 'cert.pem'));
    tls = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: ca }, (req, res) => {
      res.setHeader('content-encoding', 'gzip');
      res.end(
        zlib.gzipSync(
          Buffer.from(JSON.stringify({ path: req.url, key: req.headers['x-api-key'] })),
        ),
      );
    });
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', () => r()));
    tlsBase = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    tls.closeAllConnections();
    await new Promise((r) => tls.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('reaches an https upstream through its agent, headers and decoding included', async () => {
    const transport = createHttpTransport({
      agents: { http: new http.Agent(), https: new https.Agent({ keepAlive: true, ca }) },
    });
    const r = await transport({
      method: 'GET',
      url: `${tlsBase}/v1/x?a=1`,
      headers: { 'x-api-key': 'k' },
      timeoutMs: 5_000,
      maxBodyBytes: 10_000,
    });
    expect(JSON.parse(r.body)).toEqual({ path: '/v1/x?a=1', key: 'k' });
  });

  it('an untrusted certificate is a network failure (verification is on)', async () => {
    const e = await failure(
      httpTransport({
        method: 'GET',
        url: `${tlsBase}/`,
        headers: {},
        timeoutMs: 5_000,
        maxBodyBytes: 100,
      }),
    );
    expect((e as TransportError).kind).toBe('network');
  });
});

describe('client retries over the transport', () => {
  const schema = z.object({ ok: z.boolean() });
  const client = (retries = 2) =>
    createHttpClient({
      ...configuredHttpLimits(),
      name: 'data-api',
      baseUrl: base,
      retries,
      maxRetryAfterMs: 2_000,
    });

  it('a transient status is retried; the cache is told of the failed attempt before the wait', async () => {
    let n = 0;
    handler = (_req, res) => {
      n += 1;
      if (n === 1) {
        res.writeHead(503, { 'retry-after': '1' });
        res.end('{"message":"busy"}');
      } else res.end('{"ok":true}');
    };
    let toldAt = 0;
    const scope = { requestId: 'r', startedAt: 0, upstreamCalls: 0, upstreamRetries: 0 };
    const r = await client().getJson('/r', {}, schema, {
      scope,
      onFailedAttempt: () => {
        toldAt = performance.now();
      },
    });
    expect(r).toEqual({ ok: true });
    // Both attempts count toward the request the call was made for; the second is a retry.
    expect(scope).toMatchObject({ upstreamCalls: 2, upstreamRetries: 1 });
    expect(seen).toHaveLength(2);
    // told between the first answer and the retry (which waited for retry-after), not after the wait
    expect(toldAt).toBeGreaterThan(0);
    expect(toldAt).toBeLessThan(seen[1]!.at);
    expect(seen[1]!.at - toldAt).toBeGreaterThan(500);
  });

  it('a retry-after longer than the longest wait is not waited for: the status comes back at once', async () => {
    handler = (_req, res) => {
      res.writeHead(429, { 'retry-after': '60' });
      res.end('{"message":"slow down"}');
    };
    const e = await failure(client().getJson('/r', {}, schema));
    expect(e).toBeInstanceOf(UpstreamError);
    expect(e).toMatchObject({ kind: 'status', status: 429, retryAfterSec: 60 });
    expect(seen).toHaveLength(1);
  });

  it('retry-after as an HTTP date counts the same: a minute away is not waited for', async () => {
    handler = (_req, res) => {
      res.writeHead(503, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() });
      res.end('{"message":"maintenance"}');
    };
    const e = await failure(client().getJson('/r', {}, schema));
    expect(e).toMatchObject({ kind: 'status', status: 503 });
    expect((e as UpstreamError).retryAfterSec).toBeGreaterThan(50);
    expect(seen).toHaveLength(1);
  });

  it('a body over the cap is a payload error and is not asked again', async () => {
    handler = (_req, res) => res.end(JSON.stringify({ ok: true, pad: 'x'.repeat(10_000) }));
    const c = createHttpClient({
      ...configuredHttpLimits(),
      name: 'data-api',
      baseUrl: base,
      retries: 2,
      maxBodyBytes: 1000,
    });
    const e = await failure(c.getJson('/r', {}, schema));
    expect(e).toMatchObject({ kind: 'payload' });
    expect((e as Error).message).toMatch(/larger than 1000 bytes/);
    expect(seen).toHaveLength(1);
  });

  it('a non-idempotent call (retry: false) is sent once', async () => {
    handler = (_req, res) => {
      res.statusCode = 502;
      res.end('{}');
    };
    const e = await failure(client().postJson('/p', { a: 1 }, schema, { retry: false }));
    expect(e).toMatchObject({ kind: 'status', status: 502 });
    expect(seen).toHaveLength(1);
  });

  it('a 4xx other than 429 is not retried; its message is the upstream’s', async () => {
    handler = (_req, res) => {
      res.statusCode = 400;
      res.end('{"message":["pageSize must be at most 100"]}');
    };
    const e = await failure(client().getJson('/r', {}, schema));
    expect(e).toMatchObject({ status: 400, upstreamMessage: 'pageSize must be at most 100' });
    expect(seen).toHaveLength(1);
  });

  it('a JSON-RPC batch is one request’s: calls of two requests in one tick go as two batches, each on its own bill', async () => {
    handler = (_req, res, body) => {
      answerEach(res, body);
    };
    const rpc = batchingRpc();
    // Each request may spend one eth_getBalance (10 CU): the batch of both, on one bill, would be 20.
    const scope = () => ({
      requestId: 'r',
      startedAt: 0,
      upstreamCalls: 0,
      upstreamRetries: 0,
      allowance: 10,
    });
    const [a, b] = [scope(), scope()];
    const got = await Promise.all(
      [a, b].map((s, i) =>
        rpc.call('eth_getBalance', [`0x${String(i).repeat(40)}`, 'latest'], { call: { scope: s } }),
      ),
    );
    expect(got).toEqual(['0x1', '0x1']);
    expect(seen).toHaveLength(2);
    expect(a).toMatchObject({ upstreamCalls: 1, allowance: 0 });
    expect(b).toMatchObject({ upstreamCalls: 1, allowance: 0 });
  });

  it('a JSON-RPC batch made for several loads of one request tells each of a failed attempt; its attempts count toward that request', async () => {
    let n = 0;
    handler = (_req, res, body) => {
      n += 1;
      if (n === 1) {
        res.statusCode = 503;
        res.end('{}');
        return;
      }
      answerEach(res, body);
    };
    const rpc = batchingRpc();
    const a = { requestId: 'r', startedAt: 0, upstreamCalls: 0, upstreamRetries: 0 };
    const told: string[] = [];
    const got = await Promise.all([
      rpc.call('eth_chainId', [], { call: { scope: a, onFailedAttempt: () => told.push('a') } }),
      rpc.call('eth_blockNumber', [], {
        call: { scope: a, onFailedAttempt: () => told.push('b') },
      }),
    ]);
    expect(got).toEqual(['0x1', '0x1']);
    // One batch, sent twice.
    expect(seen).toHaveLength(2);
    expect(told.sort()).toEqual(['a', 'b']);
    expect(a).toMatchObject({ upstreamCalls: 2, upstreamRetries: 1 });
  });
});

/** A node client over the test server that batches, as the gateway's does. */
function batchingRpc() {
  return createJsonRpcClient({
    http: createHttpClient({ ...configuredHttpLimits(), name: 'node', baseUrl: base, retries: 1 }),
    path: '/ext/bc/C/rpc',
    style: 'geth',
  });
}

/** Answers every call of a JSON-RPC batch with `0x1`. */
function answerEach(res: http.ServerResponse, body: string): void {
  const calls = JSON.parse(body) as { id: number }[];
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(calls.map((c) => ({ jsonrpc: '2.0', id: c.id, result: '0x1' }))));
}
