import { createServer, type RequestListener, type Server } from 'node:http';

/** Serves a fetch-style handler (Yoga, Hive Gateway) on a free loopback port. */
export async function serveOnLoopback(
  handler: RequestListener,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
