import { createServer } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { applyServerLimits } from '../../src/edge/server-limits.js';

describe('server-level limits', () => {
  it('sets the request and header timeouts from REQUEST_TIMEOUT_MS and caps connections', () => {
    const server = applyServerLimits(createServer(), {
      requestTimeoutMs: 30_000,
      maxConnections: 1000,
    });
    expect(server.requestTimeout).toBe(30_000);
    expect(server.headersTimeout).toBe(30_000);
    expect(server.maxConnections).toBe(1000);
    expect(
      applyServerLimits(createServer(), { requestTimeoutMs: 120_000, maxConnections: 5 })
        .headersTimeout,
    ).toBe(60_000);
  });

  it('closes connections beyond MAX_CONNECTIONS', async () => {
    const server = applyServerLimits(
      createServer((_req, res) => res.end('ok')),
      { requestTimeoutMs: 5_000, maxConnections: 2 },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const open = () =>
      new Promise<{ closed: Promise<boolean> }>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          const closed = new Promise<boolean>((r) => {
            socket.once('close', () => r(true));
            setTimeout(() => r(false), 500);
          });
          resolve({ closed });
        });
        socket.on('error', () => {});
      });
    const sockets = [await open(), await open(), await open()];
    const closed = await Promise.all(sockets.map((s) => s.closed));
    expect(closed).toEqual([false, false, true]);
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
});
