import type { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createPageSnapshots } from '../../src/cache/page-snapshots.js';
import { MemoryStore } from '../../src/cache/store.js';
import { pagedList } from '../../src/loaders/request-loader.js';
import { type ConnectionArgs, resolveTokenConnection } from '../../src/schema/connection.js';
import { decodeCursor, encodeCursor } from '../../src/schema/cursor.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import type { Page } from '../../src/upstream/request.js';

const SECRET = 'test-cursor-secret';

/** A fake upstream list of `n` items served `size` at a time, counting fetches. */
function fakeList(n: number, size: number) {
  const items = Array.from({ length: n }, (_, i) => `item-${i}`);
  const calls: (string | null)[] = [];
  const fetchPage = async (token: string | null): Promise<Page<string>> => {
    calls.push(token);
    const start = token === null ? 0 : Number(token.slice(1));
    const end = Math.min(start + size, n);
    return { items: items.slice(start, end), nextPageToken: end < n ? `t${end}` : null };
  };
  return { items, calls, fetchPage };
}

function setup(n: number, size: number, maxFirst = 50) {
  const list = fakeList(n, size);
  const ctx = { cursorSecret: SECRET, maxFirst, snapshots: createPageSnapshots(new MemoryStore()) };
  const run = (args: ConnectionArgs, listKey = 'fake|1') =>
    resolveTokenConnection<string>(args, ctx, {
      pages: pagedList(listKey, list.fetchPage),
      pageSize: size,
      itemKey: (s) => s,
    });
  return { ...list, run };
}

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return (e as GraphQLError).extensions?.code;
  }
  return 'no error';
};

describe('resolveTokenConnection', () => {
  it('walks a list exactly once, across upstream pages, in steps that do not align with them', async () => {
    const { items, run } = setup(53, 10);
    const seen: string[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 20; guard++) {
      const page = await run({ first: 7, after });
      seen.push(...page.edges.map((e) => e.node));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(items);
  });

  it('resumes mid-page from a cursor', async () => {
    const { run } = setup(30, 10);
    const first = await run({ first: 4 });
    const next = await run({ first: 3, after: first.edges[1]!.cursor });
    expect(next.edges.map((e) => e.node)).toEqual(['item-2', 'item-3', 'item-4']);
    expect(next.pageInfo.hasPreviousPage).toBe(true);
  });

  it('spans two upstream pages in one window and re-reads the page a cursor points into', async () => {
    const { run, calls } = setup(30, 10);
    const a = await run({ first: 8 });
    calls.length = 0;
    const b = await run({ first: 5, after: a.pageInfo.endCursor });
    expect(b.edges.map((e) => e.node)).toEqual([
      'item-8',
      'item-9',
      'item-10',
      'item-11',
      'item-12',
    ]);
    // the head page comes from its snapshot; only the next page is fetched
    expect(calls).toEqual(['t10']);
  });

  it('first: 0 returns no edges but tells whether items exist', async () => {
    const { run } = setup(5, 10);
    const r = await run({ first: 0 });
    expect(r.edges).toEqual([]);
    expect(r.pageInfo.hasNextPage).toBe(true);
  });

  it('an exactly full last page ends the list', async () => {
    const { run, items } = setup(20, 10);
    const r = await run({ first: 20 });
    expect(r.edges.map((e) => e.node)).toEqual(items);
    expect(r.pageInfo.hasNextPage).toBe(false);
  });

  it('an empty last upstream page: hasNextPage may be true, then the next call returns nothing', async () => {
    const pages: Record<string, Page<string>> = {
      head: { items: ['a', 'b'], nextPageToken: 'x' },
      x: { items: [], nextPageToken: null },
    };
    const ctx = {
      cursorSecret: SECRET,
      maxFirst: 50,
      snapshots: createPageSnapshots(new MemoryStore()),
    };
    const opts = {
      pages: pagedList('e', async (t: string | null) => pages[t ?? 'head']!),
      pageSize: 2,
      itemKey: (s: string) => s,
    };
    const r = await resolveTokenConnection({ first: 2 }, ctx, opts);
    expect(r.pageInfo.hasNextPage).toBe(true);
    const r2 = await resolveTokenConnection({ first: 2, after: r.pageInfo.endCursor }, ctx, opts);
    expect(r2.edges).toEqual([]);
    expect(r2.pageInfo.hasNextPage).toBe(false);
  });

  it('a head-page cursor keeps its position when new items land at the head', async () => {
    let head = ['n3', 'n2', 'n1'];
    const fetchPage = async (t: string | null): Promise<Page<string>> =>
      t === null
        ? { items: head, nextPageToken: 'older' }
        : { items: ['o2', 'o1'], nextPageToken: null };
    const ctx = {
      cursorSecret: SECRET,
      maxFirst: 50,
      snapshots: createPageSnapshots(new MemoryStore()),
    };
    const opts = { pages: pagedList('h', fetchPage), pageSize: 3, itemKey: (s: string) => s };
    const a = await resolveTokenConnection({ first: 2 }, ctx, opts);
    head = ['n5', 'n4', 'n3']; // two new items arrived
    const b = await resolveTokenConnection({ first: 10, after: a.pageInfo.endCursor }, ctx, opts);
    expect(b.edges.map((e) => e.node)).toEqual(['n1', 'o2', 'o1']);
  });

  it('refuses last/before, out-of-range first, tampered cursors and cursors of other lists', async () => {
    const { run } = setup(30, 10);
    const a = await run({ first: 3 });
    const cursor = a.pageInfo.endCursor!;
    expect(await codeOf(run({ last: 3 }))).toBe('BAD_USER_INPUT');
    expect(await codeOf(run({ first: 3, before: cursor }))).toBe('BAD_USER_INPUT');
    expect(await codeOf(run({ first: -1 }))).toBe('BAD_USER_INPUT');
    expect(await codeOf(run({ first: 51 }))).toBe('BAD_USER_INPUT');
    expect(await codeOf(run({ first: 3, after: 'garbage' }))).toBe('BAD_USER_INPUT');
    const [body, mac] = cursor.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, index: payload.index + 5 })).toString(
      'base64url',
    );
    expect(await codeOf(run({ first: 3, after: `${forged}.${mac}` }))).toBe('BAD_USER_INPUT');
    expect(await codeOf(run({ first: 3, after: cursor }, 'fake|other-filter'))).toBe(
      'BAD_USER_INPUT',
    );
  });

  it('an evicted head-page snapshot is a clear CURSOR_EXPIRED input error, not a wrong page', async () => {
    const { run } = setup(30, 10);
    const a = await run({ first: 3 });
    const ctx2 = {
      cursorSecret: SECRET,
      maxFirst: 50,
      snapshots: createPageSnapshots(new MemoryStore()),
    };
    const err = await resolveTokenConnection({ first: 3, after: a.pageInfo.endCursor }, ctx2, {
      pages: pagedList('fake|1', fakeList(30, 10).fetchPage),
      pageSize: 10,
      itemKey: (s: string) => s,
    }).catch((e: GraphQLError) => e);
    expect((err as GraphQLError).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'CURSOR_EXPIRED',
      argument: 'after',
    });
  });
});

describe("a frozen head page (a final list: a block's transactions)", () => {
  const frozen = (items: string[], snapshots = createPageSnapshots(new MemoryStore())) => {
    const ctx = { cursorSecret: SECRET, maxFirst: 50, snapshots };
    const run = (args: ConnectionArgs) =>
      resolveTokenConnection<string>(args, ctx, {
        pages: pagedList('block|1', async (token) => {
          const start = token === null ? 0 : Number(token.slice(1));
          const end = Math.min(start + 10, items.length);
          return {
            items: items.slice(start, end),
            nextPageToken: end < items.length ? `t${end}` : null,
          };
        }),
        pageSize: 10,
        itemKey: (x) => x,
        frozenHead: true,
      });
    return { run };
  };

  it('writes no snapshot, and its cursors resume from the first page read again', async () => {
    const items = Array.from({ length: 25 }, (_, i) => `tx-${i}`);
    const snapshots = createPageSnapshots(new MemoryStore());
    let puts = 0;
    const counted = {
      ...snapshots,
      put: (id: string, page: unknown) => {
        puts++;
        return snapshots.put(id, page);
      },
    };
    const { run } = frozen(items, counted);
    const a = await run({ first: 3 });
    expect(puts).toBe(0);
    // Another replica: a store without any snapshot.
    const b = await frozen(items).run({ first: 12, after: a.pageInfo.endCursor });
    expect([...a.edges, ...b.edges].map((e) => e.node)).toEqual(items.slice(0, 15));
  });

  it('a first page that is not the one the cursor was made on (the upstream re-indexed it) is CURSOR_EXPIRED, never a shifted page', async () => {
    const before = Array.from({ length: 25 }, (_, i) => `tx-${i}`);
    const a = await frozen(before).run({ first: 3 });
    const after = ['tx-new', ...before];
    const err = await frozen(after)
      .run({ first: 3, after: a.pageInfo.endCursor })
      .catch((e: GraphQLError) => e);
    expect((err as GraphQLError).extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'CURSOR_EXPIRED',
      argument: 'after',
    });
  });
});

describe('cursor codec', () => {
  it('round-trips and is opaque base64url with a signature', () => {
    const page = {
      kind: 'page',
      list: 'abcdefghijklmnop',
      pageSize: 100,
      token: 'tok',
      index: 4,
    } as const;
    const c = encodeCursor(page, SECRET);
    expect(c).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c, SECRET)).toEqual(page);
    expect(() => decodeCursor(c, 'another-secret')).toThrow(/Malformed cursor/);
  });
});

describe('expired cursors of ranged lists resume from their block', () => {
  /** A newest-first list of items `b<block>-<n>`, a few per block, served by range and token like the address lists. */
  function rangedList(blocks: number, perBlock: number, size: number) {
    const items: { key: string; block: string }[] = [];
    for (let b = blocks; b >= 1; b--)
      for (let n = 0; n < perBlock; n++) items.push({ key: `b${b}-${n}`, block: String(b) });
    // Tokens carry the generation that minted them; `expire()` ages every token minted so far.
    let generation = 0;
    const fetches: (string | null)[] = [];
    const fetchPage = async (
      token: string | null,
      range?: { startBlock?: string; endBlock?: string },
    ): Promise<Page<{ key: string; block: string }>> => {
      fetches.push(token);
      if (token !== null && Number(token.split('#')[1]) !== generation) {
        throw new UpstreamError('data-api', 'status', {
          status: 400,
          upstreamMessage: 'pageToken has expired',
        });
      }
      const inRange = items.filter(
        (it) =>
          (range?.startBlock === undefined || Number(it.block) >= Number(range.startBlock)) &&
          (range?.endBlock === undefined || Number(it.block) < Number(range.endBlock)),
      );
      const start = token === null ? 0 : Number(token.split('@')[0]);
      const end = Math.min(start + size, inRange.length);
      return {
        items: inRange.slice(start, end),
        nextPageToken:
          end < inRange.length ? `${end}@${range?.endBlock ?? ''}#${generation}` : null,
      };
    };
    return { items, fetchPage, fetches, expire: () => generation++ };
  }

  const opts = (l: ReturnType<typeof rangedList>) => ({
    pages: pagedList('ranged', l.fetchPage),
    pageSize: 7,
    itemKey: (x: { key: string }) => x.key,
    resume: { blockOf: (x: { block: string }) => x.block, order: 'desc' as const, range: {} },
  });

  it('an upstream token refused on resume: continues right after the cursor item, nothing repeated or skipped', async () => {
    const l = rangedList(20, 3, 7);
    const ctx = {
      cursorSecret: SECRET,
      maxFirst: 50,
      snapshots: createPageSnapshots(new MemoryStore()),
    };
    const a = await resolveTokenConnection({ first: 11 }, ctx, opts(l)); // ends inside the second (token) page
    l.expire();
    const b = await resolveTokenConnection(
      { first: 10, after: a.pageInfo.endCursor },
      ctx,
      opts(l),
    );
    expect(b.edges.map((e) => e.node.key)).toEqual(l.items.slice(11, 21).map((x) => x.key));
    // and its cursors keep working on the re-read list, even once those tokens expire too
    l.expire();
    const c = await resolveTokenConnection({ first: 5, after: b.pageInfo.endCursor }, ctx, opts(l));
    expect(c.edges.map((e) => e.node.key)).toEqual(l.items.slice(21, 26).map((x) => x.key));
  });

  it('a head-page snapshot gone (another replica, evicted): resumes from the block too', async () => {
    const l = rangedList(20, 3, 7);
    const a = await resolveTokenConnection(
      { first: 4 },
      { cursorSecret: SECRET, maxFirst: 50, snapshots: createPageSnapshots(new MemoryStore()) },
      opts(l),
    );
    const fresh = {
      cursorSecret: SECRET,
      maxFirst: 50,
      snapshots: createPageSnapshots(new MemoryStore()),
    };
    const b = await resolveTokenConnection(
      { first: 6, after: a.pageInfo.endCursor },
      fresh,
      opts(l),
    );
    expect(b.edges.map((e) => e.node.key)).toEqual(l.items.slice(4, 10).map((x) => x.key));
  });
});
