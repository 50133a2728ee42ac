import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import {
  type DocumentNode,
  type ExecutionResult,
  type GraphQLError,
  Kind,
  OperationTypeNode,
} from 'graphql';
import type { Context } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import { asErrorOf, gqlError, maskError } from '../errors.js';
import type { Gateway } from '../gateway.js';
import { requestIdFrom } from '../telemetry/request-observer.js';
import { openRequestScope } from '../telemetry/request-scope.js';
import { codedErrors } from './coded-errors.js';

/**
 * graphql-ws on the same server and path as HTTP. Every operation goes through Yoga's own
 * `getResultForParams`, the stage an HTTP request reaches after its body is read: the `onParams` hooks
 * (document nesting, persisted operations, APQ), then the envelop (parse and validation caches, the
 * introspection switch, armor's limits, cost and budget, masking). So a socket is held to the same rules
 * as a POST; a refusal is an `error` message on that operation only, never a close of the socket.
 *
 * The socket itself: `connection_init` within `initTimeoutMs`, a ping every `pingIntervalMs` (a peer
 * that misses a pong is dropped), closed after `idleTimeoutMs` without a message or a running
 * subscription, and at most `maxPerClient` sockets per client address.
 */
export interface GraphqlWsOptions {
  /** @default 3000 */
  initTimeoutMs?: number;
  /** @default 30000 */
  pingIntervalMs?: number;
  /** @default 60000 */
  idleTimeoutMs?: number;
  /** Open sockets per client address. @default 16 */
  maxPerClient?: number;
  /** The client address of an upgrade request. @default the socket's peer */
  clientOf?: (req: IncomingMessage) => string;
  /**
   * The client's share of long-lived connections, shared with SSE (src/http/connection-shares.ts): its
   * release, or undefined over the share (the socket is closed 4429). @default no shared count
   */
  enter?: (client: string) => (() => void) | undefined;
  /** Largest message. @default 1048576 */
  maxPayload?: number;
  /**
   * Whether a browser page of this `Origin` may open a socket (cross-site websocket hijacking: a page on
   * another site would open it with the user's credentials). Asked only when the upgrade has an `Origin`
   * that is not the server's own; refused with 403 before the upgrade. @default any origin
   */
  originAllowed?: (origin: string) => boolean;
}

type Yoga = Gateway['yoga'];
type Extra = { socket: WebSocket; request: IncomingMessage };

/** One subscription operation, so graphql-ws calls `subscribe` (which hands back the prepared result). */
const PREPARED: DocumentNode = {
  kind: Kind.DOCUMENT,
  definitions: [
    {
      kind: Kind.OPERATION_DEFINITION,
      operation: OperationTypeNode.SUBSCRIPTION,
      selectionSet: { kind: Kind.SELECTION_SET, selections: [] },
    },
  ],
};

export const WS_CLOSE_IDLE = 4000;
export const WS_CLOSE_TOO_MANY = 4429;

export function serveGraphqlWs(
  server: Server,
  yoga: Yoga,
  {
    initTimeoutMs = 3_000,
    pingIntervalMs = 30_000,
    idleTimeoutMs = 60_000,
    maxPerClient = 16,
    maxPayload = 1024 * 1024,
    clientOf = (req) => req.socket.remoteAddress ?? '?',
    enter,
    originAllowed,
  }: GraphqlWsOptions = {},
): WebSocketServer {
  const wss = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    maxPayload,
    verifyClient: originAllowed
      ? ({ req }, done) => {
          const origin = req.headers.origin;
          if (!origin || sameOrigin(origin, req.headers.host) || originAllowed(origin))
            return done(true);
          done(false, 403, 'origin not allowed');
        }
      : undefined,
  });
  const perClient = new Map<string, number>();
  const state = new WeakMap<WebSocket, { alive: boolean; lastMessage: number; ctx?: Context }>();

  wss.on('connection', (socket, req) => {
    const client = clientOf(req);
    const open = (perClient.get(client) ?? 0) + 1;
    perClient.set(client, open);
    socket.once('close', () => {
      const n = (perClient.get(client) ?? 1) - 1;
      if (n <= 0) perClient.delete(client);
      else perClient.set(client, n);
    });
    if (open > maxPerClient) {
      socket.close(WS_CLOSE_TOO_MANY, `more than ${maxPerClient} sockets from one client`);
      return;
    }
    const release = enter ? enter(client) : () => {};
    if (!release) {
      socket.close(
        WS_CLOSE_TOO_MANY,
        'TOO_MANY_CONNECTIONS: this client holds its share of event streams and websockets',
      );
      return;
    }
    socket.once('close', release);
    const s = { alive: true, lastMessage: Date.now() };
    state.set(socket, s);
    socket.on('pong', () => {
      s.alive = true;
    });
    socket.on('message', () => {
      s.lastMessage = Date.now();
    });
  });

  // One timer for all sockets: missed pong → terminate; idle past the bound → close.
  const tick = Math.max(50, Math.min(pingIntervalMs, idleTimeoutMs / 2));
  let sincePing = 0;
  const timer = setInterval(() => {
    sincePing += tick;
    const ping = sincePing >= pingIntervalMs;
    if (ping) sincePing = 0;
    const now = Date.now();
    for (const socket of wss.clients) {
      const s = state.get(socket);
      if (!s) continue;
      const running = s.ctx ? Object.keys(s.ctx.subscriptions).length : 0;
      if (running === 0 && now - s.lastMessage > idleTimeoutMs) {
        socket.close(WS_CLOSE_IDLE, 'idle');
        continue;
      }
      if (!ping) continue;
      if (!s.alive) {
        socket.terminate();
        continue;
      }
      s.alive = false;
      socket.ping();
    }
  }, tick);
  timer.unref();
  wss.on('close', () => clearInterval(timer));

  useServer<Record<string, unknown>, Extra>(
    {
      connectionInitWaitTimeout: initTimeoutMs,
      onConnect: (ctx) => {
        const s = state.get(ctx.extra.socket);
        if (s) s.ctx = ctx as unknown as Context;
        return true;
      },
      subscribe: (args) => (args.rootValue as { prepared: unknown }).prepared as never,
      execute: (args) => (args.rootValue as { prepared: unknown }).prepared as never,
      onSubscribe: async (ctx, _id, payload) => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(ctx.extra.request.headers))
          if (typeof v === 'string') headers.set(k, v);
        const request = new Request(`http://localhost${yoga.graphqlEndpoint}`, {
          method: 'POST',
          headers,
        });
        // Each operation's own scope: its upstream calls are counted and metered as a request's
        // (src/edge/use-query-cost.ts gives it its allowance, and stops it when the socket closes).
        openRequestScope(request, {
          requestId: requestIdFrom(headers),
          startedAt: performance.now(),
          upstreamCalls: 0,
          upstreamRetries: 0,
        });
        let prepared: ExecutionResult | AsyncIterable<ExecutionResult> | undefined;
        try {
          prepared = await yoga.getResultForParams(
            {
              params: {
                query: payload.query,
                variables: payload.variables ?? undefined,
                operationName: payload.operationName ?? undefined,
                extensions: payload.extensions ?? undefined,
              },
              request,
            },
            {
              req: ctx.extra.request,
              socket: ctx.extra.socket,
              transport: 'graphql-ws',
            } as never,
          );
        } catch (error) {
          return [asGraphQLError(maskError(error, 'Unexpected error.'))];
        }
        if (!prepared) return [refused('the operation gave no result')];
        if (!(Symbol.asyncIterator in prepared)) {
          const result = codedErrors(prepared);
          // Refused before execution: an `error` message for this operation alone.
          if (!('data' in result) || result.data === undefined) {
            const errors = (result.errors ?? []).map(asGraphQLError);
            return errors.length > 0 ? errors : [refused('the operation was refused')];
          }
          prepared = result;
        } else prepared = mapCoded(prepared);
        return {
          schema: yoga.getEnveloped().schema,
          document: PREPARED,
          rootValue: { prepared },
          contextValue: {},
        };
      },
    },
    wss,
  );
  return wss;
}

/** A page served by this very host (GraphiQL) is not cross-site. */
function sameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

const refused = (message: string) => gqlError('BAD_REQUEST', message, {}, {}, WsGraphQLError);

/**
 * graphql-ws answers with an `error` message only for instances of the GraphQLError class it loaded
 * (Node's resolution of `graphql`, which can be another copy than the one a bundler gives this file).
 */
const WsGraphQLError = createRequire(import.meta.url)('graphql')
  .GraphQLError as typeof GraphQLError;

const asGraphQLError = (e: unknown) => asErrorOf(WsGraphQLError, e);

/**
 * Each event's errors coded. A plain iterator, not an async generator: `return()` reaches the source at
 * once (a generator would wait for its pending `next()`, keeping a gone subscriber until the next event).
 */
function mapCoded(it: AsyncIterable<ExecutionResult>): AsyncIterableIterator<ExecutionResult> {
  const src = it[Symbol.asyncIterator]();
  const out: AsyncIterableIterator<ExecutionResult> = {
    [Symbol.asyncIterator]: () => out,
    next: async () => {
      const r = await src.next();
      return r.done ? r : { done: false, value: codedErrors(r.value) };
    },
    return: async () => (await src.return?.()) ?? { done: true, value: undefined },
    throw: async (e) => (src.throw ? src.throw(e) : Promise.reject(e)),
  };
  return out;
}
