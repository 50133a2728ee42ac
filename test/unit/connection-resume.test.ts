import type { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createPageSnapshots } from '../../src/cache/page-snapshots.js';
import { MemoryStore } from '../../src/cache/store.js';
import {
  type RangeResume,
  type ResumableList,
  resumeFromBlock,
  resumeFromSnapshot,
  resumeFromToken,
} from '../../src/schema/connection-resume.js';
import {
  type BlockRange,
  decodeCursor,
  encodeCursor,
  hashListKey,
  signPayload,
} from '../../src/schema/cursor.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import type { Page } from '../../src/upstream/request.js';

/** Each way a cursor finds its place again, alone (issue 13: separate resume strategies). */
const list = hashListKey('fake|1');

/** Items `{ id, block }` in list order, served `size` at a time, filtered by a block range. */
function rangedList(items: { id: string; block: number }[], size: number, order: 'asc' | 'desc') {
  const calls: { token: string | null; range?: BlockRange }[] = [];
  const fetchPage = async (token: string | null, range?: BlockRange) => {
    calls.push({ token, range });
    const inRange = items.filter(
      (x) =>
        (range?.startBlock === undefined || x.block >= Number(range.startBlock)) &&
        (range?.endBlock === undefined || x.block < Number(range.endBlock)),
    );
    const start = token === null ? 0 : Number(token);
    const end = Math.min(start + size, inRange.length);
    return {
      items: inRange.slice(start, end),
      nextPageToken: end < inRange.length ? String(end) : null,
    };
  };
  const l: ResumableList<{ id: string; block: number }> = { fetchPage, itemKey: (x) => x.id };
  const resume: RangeResume<{ id: string; block: number }> = {
    blockOf: (x) => String(x.block),
    order,
    range: {},
  };
  return { l, resume, calls };
}

describe('resumeFromToken', () => {
  const letters = (token: string | null): Page<string> =>
    token === 'next'
      ? { items: ['d', 'e'], nextPageToken: null }
      : { items: [], nextPageToken: null };

  it('asks for the same page again and stands on the cursor index', async () => {
    const tokens: (string | null)[] = [];
    const l: ResumableList<string> = {
      fetchPage: async (t) => {
        tokens.push(t);
        return letters(t);
      },
      itemKey: (s) => s,
    };
    const r = await resumeFromToken(l, {
      kind: 'page',
      list,
      pageSize: 2,
      token: 'next',
      index: 0,
    });
    expect(r).toEqual({
      place: { page: letters('next'), index: 0, token: 'next', range: undefined },
    });
    expect(tokens).toEqual(['next']);
  });

  it('a token the upstream refuses (400) is expired, with the upstream reason; a 5xx is thrown', async () => {
    const refusing = (status: number): ResumableList<string> => ({
      fetchPage: async () => {
        throw new UpstreamError('data-api', 'status', {
          status,
          request: 'GET /x',
          upstreamMessage: 'Invalid page token',
        });
      },
      itemKey: (s) => s,
    });
    const c = { kind: 'page', list, pageSize: 2, token: 'old', index: 0 } as const;
    expect(await resumeFromToken(refusing(400), c)).toEqual({
      expired: 'This cursor has expired upstream (Invalid page token)',
    });
    await expect(resumeFromToken(refusing(503), c)).rejects.toBeInstanceOf(UpstreamError);
  });

  it('an index outside the page it names is a malformed cursor', async () => {
    const l: ResumableList<string> = { fetchPage: async (t) => letters(t), itemKey: (s) => s };
    const err = await resumeFromToken(l, {
      kind: 'page',
      list,
      pageSize: 5,
      token: 'next',
      index: 3,
    }).catch((e: GraphQLError) => e);
    expect((err as GraphQLError).extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });
});

describe('resumeFromSnapshot', () => {
  it('a snapshot of a list that had more pages is read back as it was: no upstream call', async () => {
    const snapshots = createPageSnapshots(new MemoryStore());
    const page = { items: ['a', 'b', 'c'], nextPageToken: 'T' };
    await snapshots.put('s'.repeat(24), page);
    let calls = 0;
    const l: ResumableList<string> = {
      fetchPage: async () => {
        calls++;
        return { items: ['z', 'a', 'b', 'c'], nextPageToken: 'U' };
      },
      itemKey: (s) => s,
    };
    const c = { kind: 'head', list, pageSize: 3, snapshot: 's'.repeat(24), index: 1 } as const;
    expect(await resumeFromSnapshot(l, snapshots, c)).toEqual({
      place: { page, index: 1, token: null, range: undefined },
    });
    expect(calls).toBe(0);
  });

  it('a snapshot that was the whole list continues in the live list, right after its item', async () => {
    const snapshots = createPageSnapshots(new MemoryStore());
    await snapshots.put('w'.repeat(24), { items: ['a', 'b'], nextPageToken: null });
    const live = { items: ['a', 'b', 'c'], nextPageToken: null };
    const l: ResumableList<string> = { fetchPage: async () => live, itemKey: (s) => s };
    const c = { kind: 'head', list, pageSize: 3, snapshot: 'w'.repeat(24), index: 1 } as const;
    expect(await resumeFromSnapshot(l, snapshots, c)).toEqual({
      place: { page: live, index: 1, token: null, range: undefined },
    });
  });

  it('a list of changing items follows its item by identity into the live list', async () => {
    const snapshots = createPageSnapshots(new MemoryStore());
    const old = { items: ['m1:pending', 'm2:pending'], nextPageToken: 'T' };
    await snapshots.put('m'.repeat(24), old);
    const live = { items: ['m0:pending', 'm1:delivered', 'm2:delivered'], nextPageToken: 'U' };
    const l: ResumableList<string> = {
      fetchPage: async () => live,
      itemKey: (s) => s,
      idOf: (s) => s.split(':')[0]!,
      mutableItems: true,
    };
    const c = { kind: 'head', list, pageSize: 2, snapshot: 'm'.repeat(24), index: 0 } as const;
    const r = await resumeFromSnapshot(l, snapshots, c);
    expect(r).toEqual({ place: { page: live, index: 1, token: null, range: undefined } });
  });

  it('an evicted snapshot is expired', async () => {
    const snapshots = createPageSnapshots(new MemoryStore());
    const l: ResumableList<string> = {
      fetchPage: async () => ({ items: [], nextPageToken: null }),
      itemKey: (s) => s,
    };
    const c = { kind: 'head', list, pageSize: 2, snapshot: 'e'.repeat(24), index: 0 } as const;
    expect(await resumeFromSnapshot(l, snapshots, c)).toEqual({
      expired: 'This cursor has expired (its page is older than 24 hours)',
    });
  });
});

describe('resumeFromBlock', () => {
  const items = [
    { id: 'x', block: 9 },
    { id: 'dup', block: 7 },
    { id: 'dup', block: 7 },
    { id: 'y', block: 7 },
    { id: 'z', block: 5 },
  ];

  it('newest first: re-reads up to the item block and stands on the item at its position', async () => {
    const { l, resume, calls } = rangedList(items, 10, 'desc');
    const r = await resumeFromBlock(l, resume, { block: '7', key: 'dup', position: 2 });
    expect(calls[0]).toEqual({ token: null, range: { startBlock: undefined, endBlock: '8' } });
    expect(r.page.items[r.index]).toBe(items[2]);
    expect(r.page.items.slice(r.index + 1).map((x) => x.id)).toEqual(['y', 'z']);
    expect(r.range).toEqual({ startBlock: undefined, endBlock: '8' });
  });

  it('oldest first: re-reads from the item block, across pages', async () => {
    const asc = [...items].reverse();
    const { l, resume, calls } = rangedList(asc, 2, 'asc');
    const r = await resumeFromBlock(l, resume, { block: '7', key: 'dup', position: 3 });
    expect(calls.map((c) => c.token)).toEqual([null, '2']);
    expect(r.page.items[r.index]).toBe(asc[3]);
    expect(r.range).toEqual({ startBlock: '7', endBlock: undefined });
  });

  it('an item no longer in its block resumes after the block', async () => {
    const { l, resume } = rangedList(items, 10, 'desc');
    const r = await resumeFromBlock(l, resume, { block: '7', key: 'gone', position: 9 });
    expect(r.page.items.slice(r.index + 1).map((x) => x.id)).toEqual(['z']);
  });
});

describe('cursor codec', () => {
  const SECRET = 's';
  it('each kind round-trips in named fields', () => {
    for (const c of [
      { kind: 'page', list, pageSize: 10, token: 'T', index: 3 },
      {
        kind: 'head',
        list,
        pageSize: 10,
        snapshot: 'a'.repeat(24),
        index: 0,
        at: { block: '12', key: 'k', position: 2, range: { endBlock: '13' } },
      },
      { kind: 'item', list, key: 'NodeID-1', index: 40 },
    ] as const) {
      expect(decodeCursor(encodeCursor(c, SECRET), SECRET)).toEqual(c);
    }
  });

  it('a cursor of an older release (signed, another version) is CURSOR_EXPIRED, not malformed', () => {
    const v1 = signPayload({ v: 1, f: list, s: 10, t: 'T', i: 0 }, SECRET);
    let err: GraphQLError | undefined;
    try {
      decodeCursor(v1, SECRET);
    } catch (e) {
      err = e as GraphQLError;
    }
    expect(err?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      reason: 'CURSOR_EXPIRED',
      argument: 'after',
    });
  });
});
