import { createRequire } from 'node:module';
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { yogaInternals } from '../../src/http/yoga-internals.js';

/**
 * Direct execution (src/http/direct.ts) reads three Yoga internals: `onRequestParseHooks`,
 * `onResultProcessHooks` and `maskedErrorsOpts`. This fails, naming the installed Yoga, when an upgrade
 * changes their shape; the gateway itself then falls back to Yoga for every request.
 */
const YOGA = (createRequire(import.meta.url)('graphql-yoga/package.json') as { version: string })
  .version;

describe(`the Yoga internals direct execution reads (graphql-yoga ${YOGA})`, () => {
  const parse = () => {};
  const result = () => {};
  const marker: Plugin = { onRequestParse: parse, onResultProcess: result };
  const masked = new Error('ours');
  const maskError = () => masked;
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Query { a: Int }' }),
    plugins: [marker],
    maskedErrors: { maskError, errorMessage: 'masked' },
    logging: false,
  });

  it(`graphql-yoga ${YOGA}: the plugins' hooks and the masking options are where direct execution reads them`, () => {
    const internals = yogaInternals(yoga);
    expect(
      internals,
      `graphql-yoga ${YOGA} changed its internals: see src/http/yoga-internals.ts`,
    ).toBeDefined();
    expect(internals!.parseHooks).toContain(parse);
    expect(internals!.resultHooks).toContain(result);
    expect(internals!.mask.maskError(new Error('x'), 'masked')).toBe(masked);
    expect(internals!.mask.errorMessage).toBe('masked');
  });

  it('anything else is refused, so direct execution stays off and Yoga answers', () => {
    expect(yogaInternals({})).toBeUndefined();
    expect(
      yogaInternals({ onRequestParseHooks: [], onResultProcessHooks: [parse] }),
    ).toBeUndefined();
    expect(
      yogaInternals({
        onRequestParseHooks: [parse],
        onResultProcessHooks: [result],
        maskedErrorsOpts: { maskError: 'no', errorMessage: 'x' },
      }),
    ).toBeUndefined();
  });
});
