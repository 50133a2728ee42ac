import { createServer, type Server, Socket } from 'node:net';

/** A loopback TCP relay to `port` whose open connections a test can cut (a dropped upstream socket). */
export interface TcpCutter {
  port: number;
  /** Connections relayed so far. */
  opened(): number;
  cut(): void;
  /** While held, new connections are refused (closed at once) until `release`. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startTcpCutter(port: number): Promise<TcpCutter> {
  const open = new Set<Socket>();
  let opened = 0;
  let held = false;
  const server: Server = createServer((client) => {
    if (held) return void client.destroy();
    opened += 1;
    const upstream = new Socket();
    upstream.connect(port, '127.0.0.1');
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    opened: () => opened,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
    },
    cut: () => {
      for (const s of open) s.destroy();
      open.clear();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
}
