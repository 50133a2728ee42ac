import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { badInput, gqlError, isExpectedError } from '../../src/errors.js';
import { createLogger, yogaLogger } from '../../src/telemetry/logger.js';
import { UpstreamError } from '../../src/upstream/errors.js';

/** Yoga logs, at error, each error its mask replaced; only the gateway's own failures stay at error. */
function levelsOf(errors: Error[]): string[] {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (l) => void lines.push(l) },
  });
  const yoga = yogaLogger(logger, isExpectedError);
  for (const e of errors) yoga.error(e);
  return lines.map((l) => JSON.parse(l).level);
}

/** How graphql-js hands a resolver's error to the mask: located, with the thrown error as original. */
const located = (original: Error) =>
  new GraphQLError(original.message, { path: ['block'], originalError: original });

describe("Yoga's error log lines", () => {
  it('a client error, coded by the gateway, is logged at debug', () => {
    expect(levelsOf([located(badInput('id', 'not a block number'))])).toEqual(['debug']);
    expect(levelsOf([located(gqlError('RATE_LIMITED', 'over budget'))])).toEqual(['debug']);
  });

  it("an upstream's error is logged at debug (the gateway's own warn line carries its details)", () => {
    const upstream = new UpstreamError('data-api', 'status', { status: 404, request: 'GET /x' });
    expect(levelsOf([located(upstream)])).toEqual(['debug']);
  });

  it("the gateway's own failure stays at error, coded INTERNAL or not coded at all", () => {
    expect(levelsOf([located(new TypeError('x is undefined'))])).toEqual(['error']);
    expect(levelsOf([located(gqlError('INTERNAL', 'Unexpected error.'))])).toEqual(['error']);
    expect(levelsOf([new Error('plain')])).toEqual(['error']);
  });
});
