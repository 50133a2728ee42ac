import { describe, expect, it } from 'vitest';
import {
  ERRORS_MODULE,
  errorCodesIn,
  errorFindingsIn,
  longFiles,
  MAX_LINES,
  shortParameterFindingsIn,
  sourceFindings,
} from '../../scripts/lint-source.js';
import { readSource } from '../../scripts/source-files.js';

/**
 * Self-test of `npm run lint:source`: file length, GraphQL errors made in one module, and no one-letter
 * bag parameter in an exported function.
 */
describe('source rules (scripts/lint-source.ts)', () => {
  const codes = errorCodesIn(readSource(ERRORS_MODULE));

  it('read the ErrorCode union, with one internal code', () => {
    expect(codes.has('BAD_USER_INPUT')).toBe(true);
    expect(codes.has('INTERNAL')).toBe(true);
    expect(codes.has('INTERNAL_SERVER_ERROR')).toBe(false);
  });

  it('flag an error made outside the errors module, and a code outside the union', () => {
    const sample = [
      "import { GraphQLError } from 'graphql';",
      "const a = new GraphQLError('x', { extensions: { code: 'BAD_USER_INPUT' } });",
      "const b = new WsGraphQLError('x');",
      "const c = createGraphQLError('x');",
      "const d = { extensions: { code: 'INTERNAL_SERVER_ERROR' } };",
      "// new GraphQLError('in a comment') is not code",
      "const e = { code: 'ENOENT_LIKE_but_lower' };",
    ].join('\n');
    expect(errorFindingsIn('src/x.ts', sample, codes)).toEqual([
      `src/x.ts:2 (a GraphQLError made outside ${ERRORS_MODULE})`,
      `src/x.ts:3 (a GraphQLError made outside ${ERRORS_MODULE})`,
      `src/x.ts:4 (a GraphQLError made outside ${ERRORS_MODULE})`,
      `src/x.ts:5 (a code outside ErrorCode in ${ERRORS_MODULE})`,
    ]);
    expect(errorFindingsIn(ERRORS_MODULE, "new GraphQLError('x')", codes)).toEqual([]);
  });

  it(`flag a file over ${MAX_LINES} lines`, () => {
    const text = (n: number) =>
      `${Array.from({ length: n }, (_, i) => `const a${i} = ${i};`).join('\n')}\n`;
    expect(longFiles([{ path: 'src/ok.ts', text: text(MAX_LINES) }])).toEqual([]);
    expect(longFiles([{ path: 'src/long.ts', text: text(MAX_LINES + 1) }])).toEqual([
      `src/long.ts (${MAX_LINES + 1} lines, over ${MAX_LINES}: split it by responsibility)`,
    ]);
  });

  it('flag a one-letter options or deps parameter of an exported function, arrow or class', () => {
    const sample = [
      'export function a(o: AOptions) {}',
      'export async function b(url: string, d: { redis: Redis }) {}',
      'export const c = (o: { enabled: boolean }) => o.enabled;',
      'export class D { constructor(o: DOptions) {} run(a: RunArgs) {} private p(o: POptions) {} }',
      'function inner(o: InnerOptions) {}',
      'export function e(options: EOptions, s: string, t: ObjectFields<S>) {',
      '  return [1].map((o) => o);',
      '}',
    ].join('\n');
    const hint = 'name it for what it holds, e.g. options or deps';
    expect(shortParameterFindingsIn('src/x.ts', sample)).toEqual([
      `src/x.ts:1 (parameter 'o' of exported a: ${hint})`,
      `src/x.ts:2 (parameter 'd' of exported b: ${hint})`,
      `src/x.ts:3 (parameter 'o' of exported c: ${hint})`,
      `src/x.ts:4 (parameter 'o' of exported D.constructor: ${hint})`,
      `src/x.ts:4 (parameter 'a' of exported D.run: ${hint})`,
    ]);
  });

  it('find no error made outside the errors module in src/', () => {
    expect(sourceFindings().errors).toEqual([]);
  });

  it('find no one-letter bag parameter of an exported function in src/', () => {
    expect(sourceFindings().names).toEqual([]);
  });
});
