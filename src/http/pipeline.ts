import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The HTTP entry as one pipeline: every request on the Node server goes through these stages, in this
 * order, until one answers it. Each stage lives in its own file; the order lives only here.
 *
 * 1. `path-guard` (path-guard.ts): a path not spelled exactly (`/graphql/`, `//graphql`, dot segments) is 404.
 * 2. `draining` (drain.ts): at shutdown, `/health` answers 503 while the listener still serves.
 * 2b. `connections` (connection-shares.ts): over MAX_CONNECTIONS only `/health`, `/live`, `/metrics`
 *    are served; an SSE stream over its client's share of long-lived connections is refused (429).
 * 3. `webhook` (webhook.ts): the Data API's webhook deliveries, to their own handler.
 * 4. `event-streams` (drain.ts): an SSE request is noted so shutdown can cut it; it never answers.
 * 5. `fast-path` (fast-path.ts): a small JSON POST's body is read (request-read.ts, within the body
 *    limit), then a whole-response-cache hit is answered with one store read, then a plain JSON POST is
 *    executed directly (direct.ts: Yoga's GraphQL layer without its HTTP layer).
 * 6. `yoga` (src/gateway.ts): everything else, through Yoga's HTTP layer and plugins (GET, CORS, CSRF,
 *    SSE, multipart, persisted operations).
 *
 * Beside the pipeline, graphql-ws (graphql-ws.ts) takes websocket upgrades on the GraphQL endpoint. What
 * two ways both write is one function below them: the caching headers (src/cache/http-freshness.ts), an
 * entry's key and freshness (src/cache/response-entry.ts), the log line (src/telemetry/request-log.ts).
 */
export const STAGES = [
  'path-guard',
  'draining',
  'connections',
  'webhook',
  'event-streams',
  'fast-path',
  'yoga',
] as const;

export type StageName = (typeof STAGES)[number];

export type PipelineRequest = IncomingMessage & { body?: unknown };

/**
 * A stage answers the request (true) or hands it on (false), having written nothing. One that fails
 * before writing hands it on too; one that fails after has answered.
 */
export type Stage = (req: PipelineRequest, res: ServerResponse) => boolean | Promise<boolean>;

export interface Pipeline {
  /** The stages it runs, in order (those given, in the order of `STAGES`). */
  readonly stages: readonly StageName[];
  handle(req: PipelineRequest, res: ServerResponse): void;
}

export function createPipeline(given: Partial<Record<StageName, Stage>>): Pipeline {
  const names = STAGES.filter((name) => given[name] !== undefined);
  const run = names.map((name) => given[name]!);
  // Synchronous stages run in one loop; only a stage that returns a promise defers the rest.
  const from = (req: PipelineRequest, res: ServerResponse, start: number): void => {
    for (let i = start; i < run.length; i++) {
      let answered: boolean | Promise<boolean>;
      try {
        answered = run[i]!(req, res);
      } catch {
        if (res.headersSent) return;
        continue;
      }
      if (answered === true) return;
      if (answered === false) continue;
      answered.then(
        (done) => {
          if (!done) from(req, res, i + 1);
        },
        () => {
          if (!res.headersSent) from(req, res, i + 1);
        },
      );
      return;
    }
    // No stage answered (a pipeline without Yoga): nothing serves this request.
    if (!res.headersSent) res.writeHead(404).end();
  };
  return { stages: names, handle: (req, res) => from(req, res, 0) };
}

/** The last stage: Yoga answers whatever reaches it. */
export function yogaStage(yoga: (req: PipelineRequest, res: ServerResponse) => unknown): Stage {
  return (req, res) => {
    void yoga(req, res);
    return true;
  };
}
