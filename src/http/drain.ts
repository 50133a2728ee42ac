import type { ServerResponse } from 'node:http';
import { rawPathOf } from './path-guard.js';
import type { Stage } from './pipeline.js';

/**
 * What a graceful shutdown needs from the pipeline: while draining, `/health` answers 503 (a balancer's
 * readiness check stops sending here before connections are refused), and every event stream is noted,
 * since streams never finish by themselves: shutdown cuts them, and their clients reconnect (through the
 * balancer, to another replica) with Last-Event-ID.
 */
export interface Drain {
  draining: boolean;
  readonly streams: Set<ServerResponse>;
  /** The stage answering `/health` with 503 while draining. */
  health: Stage;
  /** The stage noting event streams (it never answers). */
  eventStreams: Stage;
}

export function createDrain(): Drain {
  const streams = new Set<ServerResponse>();
  const drain: Drain = {
    draining: false,
    streams,
    health: (req, res) => {
      if (!drain.draining || req.method !== 'GET' || rawPathOf(req.url ?? '/') !== '/health')
        return false;
      res.writeHead(503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end('{"status":"draining"}');
      return true;
    },
    eventStreams: (req, res) => {
      if (req.headers.accept?.includes('text/event-stream')) {
        streams.add(res);
        res.once('close', () => streams.delete(res));
      }
      return false;
    },
  };
  return drain;
}
