import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback proxy in front of a JSON-RPC node that records what arrives: each HTTP request as one
 * entry (a batch or a single call) with its methods. Tests count batches and calls with it.
 */
export interface RpcRequestRecord {
  path: string;
  batch: boolean;
  methods: string[];
}

export interface CountingProxy {
  url: string;
  requests: RpcRequestRecord[];
  reset(): void;
  close(): Promise<void>;
}

/** A reply as the node sent it, changed by a test (a fault the node could make); `call` is the request's call. */
export type RpcRewrite = (call: { method: string; params?: unknown[] }, reply: unknown) => unknown;

/**
 * `keepPath`: forward to `target` + the request's path (a node serving several paths, as the
 * simulator's `/ext/bc/C/rpc`); `rewrite`: change each call's reply (single or in a batch).
 */
export async function startCountingProxy(
  target: string,
  o: { keepPath?: boolean; rewrite?: RpcRewrite } = {},
): Promise<CountingProxy> {
  const requests: RpcRequestRecord[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const parsed = JSON.parse(body) as { method: string } | { method: string }[];
        const calls = Array.isArray(parsed) ? parsed : [parsed];
        requests.push({
          path: req.url ?? '/',
          batch: Array.isArray(parsed),
          methods: calls.map((c) => c.method),
        });
      } catch {
        requests.push({ path: req.url ?? '/', batch: false, methods: ['(unparsable)'] });
      }
      try {
        const upstream = await fetch(o.keepPath ? `${target}${req.url ?? ''}` : target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        const text = await upstream.text();
        res.end(o.rewrite && upstream.ok ? rewritten(body, text, o.rewrite) : text);
      } catch {
        res.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reset: () => void requests.splice(0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function rewritten(body: string, text: string, rewrite: RpcRewrite): string {
  type Call = { id?: unknown; method: string; params?: unknown[] };
  const calls = JSON.parse(body) as Call | Call[];
  const replies = JSON.parse(text) as unknown;
  if (!Array.isArray(calls)) return JSON.stringify(rewrite(calls, replies));
  if (!Array.isArray(replies)) return text;
  const byId = new Map(calls.map((c) => [JSON.stringify(c.id), c]));
  return JSON.stringify(
    replies.map((r) => {
      const c = byId.get(JSON.stringify((r as { id?: unknown }).id));
      return c ? rewrite(c, r) : r;
    }),
  );
}
