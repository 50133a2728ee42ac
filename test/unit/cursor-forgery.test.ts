import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { keys } from '../../src/cache/keys.js';
import { createPageSnapshots } from '../../src/cache/page-snapshots.js';
import { MemoryStore } from '../../src/cache/store.js';
import { encodeCursor, hashListKey, resolveTokenConnection } from '../../src/schema/connection.js';
import type { Page } from '../../src/upstream/request.js';

/**
 * Cursors signed with a known secret (the development default, a leak) must still be validated field by
 * field: a broken one is BAD_USER_INPUT before anything reaches an upstream (issue 12, forgeable cursors).
 */
const SECRET = 'known-secret';
const LIST = 'fake|1';
const f = hashListKey(LIST);

function setup() {
  const tokens: (string | null)[] = [];
  const items = Array.from({ length: 30 }, (_, i) => `item-${i}`);
  const fetchPage = async (token: string | null): Promise<Page<string>> => {
    tokens.push(token);
    const start = token === null ? 0 : Number(token.replace(/\D/g, '')) || 0;
    return {
      items: items.slice(start, start + 10),
      nextPageToken: start + 10 < 30 ? `t${start + 10}` : null,
    };
  };
  const ctx = {
    cursorSecret: SECRET,
    maxFirst: 50,
    snapshots: createPageSnapshots(new MemoryStore()),
  };
  const run = (after: string) =>
    resolveTokenConnection<string>({ first: 3, after }, ctx, {
      listKey: LIST,
      pageSize: 10,
      fetchPage,
      itemKey: (s) => s,
    });
  return { run, tokens };
}

const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e instanceof GraphQLError
      ? { code: e.extensions.code, argument: e.extensions.argument }
      : { code: 'NOT A GRAPHQL ERROR', argument: String(e) };
  }
  return { code: 'no error' };
};

describe('forged cursors', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['a fractional index', { v: 1, f, s: 10, t: 't10', i: 0.5 }],
    ['a negative index', { v: 1, f, s: 10, t: 't10', i: -3 }],
    ['an index beyond the page size', { v: 1, f, s: 10, t: 't10', i: 10 }],
    ['an index that is a string', { v: 1, f, s: 10, t: 't10', i: '1' }],
    ['a token smuggling a parameter', { v: 1, f, s: 10, t: 'evil&pageSize=100000', i: 0 }],
    ['a token with a newline', { v: 1, f, s: 10, t: 'a\nb', i: 0 }],
    ['an overlong token', { v: 1, f, s: 10, t: 'x'.repeat(5000), i: 0 }],
    ['a head cursor without its content id', { v: 1, f, s: 10, t: null, i: 0 }],
    [
      'a range with a non-decimal block',
      { v: 1, f, s: 10, t: 't10', i: 0, b: '5', k: 'item-10', r: { startBlock: '1e9' } },
    ],
    ['a range with an unknown field', { v: 1, f, s: 10, t: 't10', i: 0, r: { pageSize: '5' } }],
    ['an unknown field', { v: 1, f, s: 10, t: 't10', i: 0, pageSize: 100000 }],
    [
      'a page size of zero (a whole-list cursor) on a paged list',
      { v: 1, f, s: 0, t: 't10', i: 0 },
    ],
    ['a negative page size', { v: 1, f, s: -1, t: 't10', i: 0 }],
  ];
  for (const [name, payload] of cases) {
    it(`${name}: BAD_USER_INPUT on \`after\`, no upstream call`, async () => {
      const { run, tokens } = setup();
      expect(await failure(run(encodeCursor(payload as never, SECRET)))).toEqual({
        code: 'BAD_USER_INPUT',
        argument: 'after',
      });
      expect(tokens).toEqual([]);
    });
  }

  it('a well-formed cursor still resumes', async () => {
    const { run } = setup();
    const r = await run(encodeCursor({ v: 1, f, s: 10, t: 't10', i: 2 }, SECRET));
    expect(r.edges.map((e) => e.node)).toEqual(['item-13', 'item-14', 'item-15']);
  });
});

describe('request cache keys', () => {
  it('a query value holding `&` can never read as another parameter', () => {
    const forged = keys.request({
      upstream: 'data-api',
      method: 'GET',
      path: '/p',
      query: { pageSize: 100, pageToken: 'T&sortOrder=asc' },
    });
    const real = keys.request({
      upstream: 'data-api',
      method: 'GET',
      path: '/p',
      query: { pageSize: 100, pageToken: 'T', sortOrder: 'asc' },
    });
    expect(forged).not.toBe(real);
  });
});
