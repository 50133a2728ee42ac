import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Gateway } from '../gateway.js';
import type { Logger } from '../telemetry/logger.js';
import { type ConnectionSharesOptions, createConnectionShares } from './connection-shares.js';
import { createDrain } from './drain.js';
import { type GraphqlWsOptions, serveGraphqlWs } from './graphql-ws.js';
import { pathGuardStage } from './path-guard.js';
import { createPipeline, type StageName, yogaStage } from './pipeline.js';
import { webhookStage } from './webhook.js';

/**
 * The gateway on a Node HTTP server, every request through the pipeline of src/http/pipeline.ts and
 * graphql-ws beside it, with a graceful shutdown: stop accepting connections, let the
 * requests in flight finish (up to `graceMs`), then close what is left and the gateway's caches (Redis).
 * `src/server.ts` runs it for the process; tests start it the same way.
 */
export interface HttpServerOptions {
  gateway: Pick<Gateway, 'yoga' | 'close'> &
    Partial<Pick<Gateway, 'fastPath' | 'wsOriginAllowed' | 'webhook'>>;
  /** Serve graphql-ws subscriptions on the GraphQL endpoint. @default true */
  websockets?: boolean;
  /** graphql-ws timeouts and per-client socket cap (src/http/graphql-ws.ts). */
  ws?: GraphqlWsOptions;
  /**
   * Each client's share of long-lived connections (SSE and graphql-ws together) and the connections kept
   * for /health (src/http/connection-shares.ts). @default none (Node's cap alone)
   */
  connections?: ConnectionSharesOptions;
  port: number;
  host: string;
  /** Longest wait for in-flight requests at shutdown. */
  graceMs: number;
  /**
   * At shutdown, how long `/health` answers 503 while the listener still serves, so a balancer's
   * readiness check stops sending here before connections are refused. @default 0
   */
  drainMs?: number;
  logger: Logger;
  /** Settings applied to the server before it listens (the edge's timeouts and connection cap). */
  configure?: (server: Server) => void;
}

export interface RunningHttpServer {
  server: Server;
  /** The address actually bound (port 0 picks a free one). */
  port: number;
  /** The pipeline's stages this server runs, in order (src/http/pipeline.ts). */
  stages: readonly StageName[];
  /** Requests being served now. */
  inFlight(): number;
  /**
   * Drains and closes; resolves when the server and the gateway are closed. Idempotent: later calls
   * return the first call's promise. Resolves `drained: false` when the grace ran out first.
   */
  shutdown(reason: string): Promise<{ drained: boolean }>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  let inFlight = 0;
  let onIdle: (() => void) | undefined;
  const drain = createDrain();
  const fast = options.gateway.fastPath;
  const hook = options.gateway.webhook;
  const shares = options.connections && createConnectionShares(options.connections);
  const pipeline = createPipeline({
    'path-guard': pathGuardStage,
    draining: drain.health,
    connections: shares?.stage,
    webhook: hook && webhookStage(hook),
    'event-streams': drain.eventStreams,
    // A POST body the fast path read but did not answer stays on the request, where Yoga takes it.
    'fast-path': fast && ((req, res) => fast.serve(req, res)),
    yoga: yogaStage(options.gateway.yoga),
  });
  const server = createServer((req, res) => {
    inFlight += 1;
    // A keep-alive client learns that this connection ends with this response.
    if (drain.draining) res.setHeader('connection', 'close');
    res.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) onIdle?.();
    });
    pipeline.handle(req, res);
  });
  options.configure?.(server);
  shares?.attach(server);
  const ws =
    options.websockets === false
      ? undefined
      : serveGraphqlWs(server, options.gateway.yoga, {
          originAllowed: options.gateway.wsOriginAllowed,
          ...(shares ? { clientOf: options.connections?.clientOf, enter: shares.enter } : {}),
          ...options.ws,
        });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  let stopping: Promise<{ drained: boolean }> | undefined;
  const shutdown = async (reason: string): Promise<{ drained: boolean }> => {
    drain.draining = true;
    const drainMs = options.drainMs ?? 0;
    if (drainMs > 0) {
      options.logger.info({ reason, drainMs }, 'shutting down: /health answers 503, still serving');
      await new Promise((r) => setTimeout(r, drainMs));
    }
    options.logger.info(
      { reason, inFlight, graceMs: options.graceMs },
      'shutting down: no new connections, draining in-flight requests',
    );
    // Stops accepting; idle keep-alive connections close now, busy ones after their response.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    for (const res of drain.streams) res.destroy();
    if (ws) for (const c of ws.clients) c.close(1012, 'server restarting');
    const drained = await new Promise<boolean>((resolve) => {
      if (inFlight === 0) return resolve(true);
      const timer = setTimeout(() => resolve(false), options.graceMs);
      onIdle = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    if (!drained)
      options.logger.warn(
        { abandoned: inFlight, graceMs: options.graceMs },
        'shutdown grace ran out; closing the connections still busy',
      );
    server.closeAllConnections();
    if (ws) {
      for (const c of ws.clients) c.terminate();
      ws.close();
    }
    await closed;
    await options.gateway.close();
    options.logger.info({ drained }, 'closed');
    return { drained };
  };

  return {
    server,
    port: (server.address() as AddressInfo).port,
    stages: pipeline.stages,
    inFlight: () => inFlight,
    shutdown: (reason) => (stopping ??= shutdown(reason)),
  };
}
