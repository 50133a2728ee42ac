import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { keys } from '../../src/cache/keys.js';
import { createPageSnapshots } from '../../src/cache/page-snapshots.js';
import { MemoryStore } from '../../src/cache/store.js';
import { pagedList } from '../../src/loaders/request-loader.js';
import { resolveTokenConnection } from '../../src/schema/connection.js';
import { hashListKey, signPayload } from '../../src/schema/cursor.js';
import type { Page } from '../../src/upstream/request.js';

/**
 * Cursors signed with a known secret (the development default, a leak) must still be validated field by
 * field: a broken one is BAD_USER_INPUT before anything reaches an upstream (issue 12, forgeable cursors).
 */
const SECRET = 'known-secret';
const LIST = 'fake|1';
const list = hashListKey(LIST);
/** A well-formed page cursor's wire fields, for the cases to break one at a time. */
const ok = { v: 2, kind: 'page', list, pageSize: 10, token: 't10', index: 0 };

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
      pages: pagedList(LIST, fetchPage),
      pageSize: 10,
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
    ['a fractional index', { ...ok, index: 0.5 }],
    ['a negative index', { ...ok, index: -3 }],
    ['an index beyond the page size', { ...ok, index: 10 }],
    ['an index that is a string', { ...ok, index: '1' }],
    ['a token smuggling a parameter', { ...ok, token: 'evil&pageSize=100000' }],
    ['a token with a newline', { ...ok, token: 'a\nb' }],
    ['an overlong token', { ...ok, token: 'x'.repeat(5000) }],
    ['a head cursor without its content id', { ...ok, kind: 'head', token: undefined }],
    ['a page cursor without its token', { ...ok, token: undefined }],
    ['a head cursor with a token', { ...ok, kind: 'head', snapshot: 'a'.repeat(24) }],
    [
      'a range with a non-decimal block',
      {
        ...ok,
        at: { block: '5', key: 'item-10', position: 1, range: { startBlock: '1e9' } },
      },
    ],
    [
      'a range with an unknown field',
      { ...ok, at: { block: '5', key: 'item-10', position: 1, range: { pageSize: '5' } } },
    ],
    ['a block place without its position', { ...ok, at: { block: '5', key: 'item-10' } }],
    ['an unknown field', { ...ok, pageSize2: 100000 }],
    ['an unknown kind', { ...ok, kind: 'range' }],
    [
      'a whole-list (item) cursor on a paged list',
      { v: 2, kind: 'item', list, key: 't10', index: 0 },
    ],
    ['a page size of zero', { ...ok, pageSize: 0 }],
    ['a negative page size', { ...ok, pageSize: -1 }],
  ];
  for (const [name, payload] of cases) {
    it(`${name}: BAD_USER_INPUT on \`after\`, no upstream call`, async () => {
      const { run, tokens } = setup();
      expect(await failure(run(signPayload(payload, SECRET)))).toEqual({
        code: 'BAD_USER_INPUT',
        argument: 'after',
      });
      expect(tokens).toEqual([]);
    });
  }

  it('a well-formed cursor still resumes', async () => {
    const { run } = setup();
    const r = await run(signPayload({ ...ok, index: 2 }, SECRET));
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
