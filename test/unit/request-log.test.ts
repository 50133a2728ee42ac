import { describe, expect, it } from 'vitest';
import { loggedOperationName, requestLogLine } from '../../src/telemetry/request-log.js';

/** The one log line of a request, whoever answered it (the request observer, the fast path). */
describe('requestLogLine', () => {
  it('keeps the field order, rounds the duration and leaves out what says nothing', () => {
    const line = requestLogLine({
      requestId: 'r1',
      method: 'POST',
      path: '/graphql',
      status: 200,
      durationMs: 1.26,
      operationName: '',
      upstreamCalls: 0,
      upstreamRetries: 0,
    });
    expect(JSON.stringify(line)).toBe(
      '{"requestId":"r1","method":"POST","path":"/graphql","status":200,"durationMs":1.3,"upstreamCalls":0,"upstreamCu":0}',
    );
  });

  it('a full line: trace, operation, retries, error codes, then the fast path mark last', () => {
    const line = requestLogLine({
      requestId: 'r2',
      traceId: 't',
      method: 'GET',
      path: '/graphql',
      status: 304,
      durationMs: 0.04,
      operationName: 'Op',
      operationType: 'query',
      upstreamCalls: 2,
      upstreamCu: 5,
      upstreamRetries: 1,
      errorCodes: ['A'],
      responseCache: 'fast-hit',
    });
    expect(Object.keys(line)).toEqual([
      'requestId',
      'traceId',
      'method',
      'path',
      'status',
      'durationMs',
      'operationName',
      'operationType',
      'upstreamCalls',
      'upstreamCu',
      'upstreamRetries',
      'errorCodes',
      'responseCache',
    ]);
    expect(line.durationMs).toBe(0);
  });

  it('operation names are logged up to 100 characters, and only when they are non-empty strings', () => {
    expect(loggedOperationName('x'.repeat(150))).toHaveLength(100);
    expect(loggedOperationName('')).toBeUndefined();
    expect(loggedOperationName(7)).toBeUndefined();
  });
});
