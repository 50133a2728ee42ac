import type { IncomingMessage, Server } from 'node:http';
import type { Config } from '../config.js';
import { rawPathOf } from './path-guard.js';
import type { Stage } from './pipeline.js';

/**
 * The connection cap shared fairly. Long-lived connections (SSE streams and graphql-ws sockets) are
 * counted per client (the budgets' identity: its address, behind TRUSTED_PROXIES the forwarded one), and
 * one client holds at most `perClient` of them, so one client cannot fill MAX_CONNECTIONS. Node's own cap
 * is MAX_CONNECTIONS + `reserved`: the connections above MAX_CONNECTIONS serve only `/health`, `/live`
 * and `/metrics` (anything else on them is answered 503 SERVER_BUSY and closed), so a full server still
 * answers its balancer and its scraper.
 */
export interface ConnectionSharesOptions {
  /** MAX_CONNECTIONS: connections for ordinary traffic. */
  maxConnections: number;
  /** CONNECTIONS_RESERVED: connections above it kept for /health, /live and /metrics. */
  reserved: number;
  /** STREAMS_PER_CLIENT: SSE streams and graphql-ws sockets one client may hold open. */
  perClient: number;
  /** The client of a request (src/edge/client-budget.ts createClientIdentifier, its address). */
  clientOf: (req: IncomingMessage) => string;
}

export interface ConnectionShares {
  readonly perClient: number;
  /** Counts the server's connections and sets Node's cap to MAX_CONNECTIONS + reserved. */
  attach(server: Server): void;
  /** The pipeline stage: refuses ordinary requests over MAX_CONNECTIONS and SSE streams over a share. */
  stage: Stage;
  /** A long-lived connection of `client` begins: its release, or undefined over the client's share. */
  enter(client: string): (() => void) | undefined;
  /** Long-lived connections open now. */
  streams(): number;
}

/** Served on the reserved connections too: a full server still says how it is. */
const ALWAYS = new Set(['/health', '/live', '/metrics']);

export const isEventStream = (req: IncomingMessage): boolean =>
  req.headers.accept?.includes('text/event-stream') === true;

export function createConnectionShares(options: ConnectionSharesOptions): ConnectionShares {
  let connections = 0;
  let streams = 0;
  const open = new Map<string, number>();
  const enter = (client: string) => {
    const n = open.get(client) ?? 0;
    if (n >= options.perClient) return undefined;
    open.set(client, n + 1);
    streams += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      streams -= 1;
      const left = (open.get(client) ?? 1) - 1;
      if (left <= 0) open.delete(client);
      else open.set(client, left);
    };
  };
  const refuse = (
    res: Parameters<Stage>[1],
    status: number,
    code: string,
    message: string,
    extra: Record<string, unknown> = {},
  ) => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'close',
      ...(status === 429 ? { 'retry-after': '1' } : {}),
    });
    res.end(JSON.stringify({ errors: [{ message, extensions: { code, ...extra } }] }));
    return true;
  };
  return {
    perClient: options.perClient,
    attach(server) {
      server.maxConnections = options.maxConnections + options.reserved;
      server.on('connection', (socket) => {
        connections += 1;
        socket.once('close', () => {
          connections -= 1;
        });
      });
    },
    stage: (req, res) => {
      if (req.method === 'GET' && ALWAYS.has(rawPathOf(req.url ?? '/'))) return false;
      if (connections > options.maxConnections)
        return refuse(
          res,
          503,
          'SERVER_BUSY',
          `This server holds its ${options.maxConnections} connections; the rest are kept for /health.`,
          { max: options.maxConnections },
        );
      if (!isEventStream(req)) return false;
      const release = enter(options.clientOf(req));
      if (!release)
        return refuse(
          res,
          429,
          'TOO_MANY_CONNECTIONS',
          `This client holds ${options.perClient} event streams and websockets, the most one client may.`,
          { max: options.perClient },
        );
      res.once('close', release);
      return false;
    },
    enter,
    streams: () => streams,
  };
}

/** The shares as the settings declare them (src/server.ts and the tests start servers alike). */
export const connectionSharesOf = (
  config: Pick<Config, 'maxConnections' | 'connectionsReserved' | 'streamsPerClient'>,
  clientOf: (req: IncomingMessage) => string,
): ConnectionSharesOptions => ({
  maxConnections: config.maxConnections,
  reserved: config.connectionsReserved,
  perClient: config.streamsPerClient,
  clientOf,
});
