import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type MetricsOptions, metricsAnswer } from '../metrics-answer.js';

/**
 * METRICS_PORT: `/metrics` on a listener of its own, nothing else on it (every other path 404), so the
 * public port never serves them and a scraper reaches them inside the cluster only. METRICS_TOKEN, when
 * set, applies here too.
 */
export interface RunningMetricsServer {
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(
  o: Omit<MetricsOptions, 'where' | 'path'> & { port: number; host: string },
): Promise<RunningMetricsServer> {
  const answer = metricsAnswer({ ...o, where: 'here' });
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      res.end('not found');
      return;
    }
    answer(req.headers.authorization ?? null).then(
      (a) => {
        res.writeHead(a.status, a.headers);
        res.end(a.body);
      },
      () => {
        res.writeHead(500, { 'cache-control': 'no-store' });
        res.end();
      },
    );
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
