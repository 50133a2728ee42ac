import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastPath } from '../../src/http/fast-path.js';
import { createPipeline, STAGES, type Stage, type StageName } from '../../src/http/pipeline.js';
import { type RunningHttpServer, startHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/telemetry/logger.js';

/**
 * The HTTP entry's stage order is declared once (src/http/pipeline.ts), and it is the order the server
 * runs: every stage is tried in that order until one answers.
 */
const stub = {} as IncomingMessage;
const res = () => ({ headersSent: false, writeHead: () => ({ end: () => {} }) }) as never;

describe('createPipeline', () => {
  it('runs the stages in the declared order, whatever order they are given in', async () => {
    const seen: StageName[] = [];
    const given: Partial<Record<StageName, Stage>> = {};
    for (const name of [...STAGES].reverse())
      given[name] = async () => {
        seen.push(name);
        return name === 'yoga';
      };
    const p = createPipeline(given);
    expect(p.stages).toEqual(STAGES);
    p.handle(stub, res());
    await vi.waitFor(() => expect(seen).toEqual(STAGES));
  });

  it('stops at the stage that answers; a stage that fails before writing hands the request on', async () => {
    const seen: string[] = [];
    const note = (name: string, answers: boolean) => () => {
      seen.push(name);
      return answers;
    };
    const p = createPipeline({
      'path-guard': note('path-guard', false),
      webhook: () => {
        seen.push('webhook');
        throw new Error('x');
      },
      'fast-path': async () => {
        seen.push('fast-path');
        throw new Error('y');
      },
      yoga: note('yoga', true),
    });
    expect(p.stages).toEqual(['path-guard', 'webhook', 'fast-path', 'yoga']);
    p.handle(stub, res());
    await vi.waitFor(() => expect(seen).toEqual(['path-guard', 'webhook', 'fast-path', 'yoga']));
  });
});

describe('the HTTP server', () => {
  let http: RunningHttpServer | undefined;
  afterEach(async () => {
    await http?.shutdown('test');
    http = undefined;
  });

  it('runs the pipeline: the declared stages, fast path before Yoga, the path guard before all', async () => {
    const seen: string[] = [];
    const answer = (r: ServerResponse, who: string) => {
      seen.push(who);
      r.writeHead(200, { 'content-type': 'text/plain' }).end(who);
    };
    const fastPath: FastPath = {
      serve: async (req, r) => {
        seen.push('fast-path');
        if (req.headers['x-hit'] === undefined) return false;
        answer(r, 'fast-hit');
        return true;
      },
      answer: async () => undefined,
    };
    http = await startHttpServer({
      gateway: {
        yoga: Object.assign((_req: IncomingMessage, r: ServerResponse) => answer(r, 'yoga'), {
          graphqlEndpoint: '/graphql',
        }) as never,
        fastPath,
        webhook: { path: '/hook', handle: async (_req, r) => answer(r, 'webhook') },
        close: async () => {},
      },
      websockets: false,
      // As src/server.ts starts it: with the connection shares (their stage is in the pipeline).
      connections: { maxConnections: 100, reserved: 8, perClient: 10, clientOf: () => 'client' },
      port: 0,
      host: '127.0.0.1',
      graceMs: 1_000,
      logger: createLogger({ level: 'silent' }),
    });
    expect(http.stages).toEqual(STAGES);
    const base = `http://127.0.0.1:${http.port}`;
    const text = async (path: string, headers: Record<string, string> = {}) => {
      const r = await fetch(`${base}${path}`, { headers });
      return `${r.status} ${await r.text()}`;
    };
    expect(await text('/graphql')).toBe('200 yoga');
    expect(seen.splice(0)).toEqual(['fast-path', 'yoga']);
    expect(await text('/graphql', { 'x-hit': '1' })).toBe('200 fast-hit');
    expect(seen.splice(0)).toEqual(['fast-path', 'fast-hit']);
    expect(await text('/hook')).toBe('200 webhook');
    expect(seen.splice(0)).toEqual(['webhook']);
    expect(await text('/graphql/')).toMatch(/^404 /);
    expect(seen).toEqual([]);
  });
});
