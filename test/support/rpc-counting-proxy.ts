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

export async function startCountingProxy(target: string): Promise<CountingProxy> {
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
        const upstream = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        res.end(await upstream.text());
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
