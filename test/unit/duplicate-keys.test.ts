import { describe, expect, it } from 'vitest';
import { createPageSnapshots } from '../../src/cache/page-snapshots.js';
import { MemoryStore } from '../../src/cache/store.js';
import { pagedList } from '../../src/loaders/request-loader.js';
import { resolveTokenConnection } from '../../src/schema/connection.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import type { Page } from '../../src/upstream/request.js';

/**
 * Items with equal keys in one block (identical internal calls of one transaction: the upstream gives
 * them no index): a range resume neither repeats nor skips them (issue 11, defect 8).
 */
interface Item {
  id: number; // what the client sees differ (the test's own view), never part of the key
  block: string;
  key: string;
}

function list(order: 'asc' | 'desc') {
  const items: Item[] = [];
  let id = 0;
  for (let b = 1; b <= 12; b++) {
    // per block: one tx with 4 identical internal calls, then another item
    for (let n = 0; n < 4; n++)
      items.push({ id: id++, block: String(b), key: `0xtx${b}:CALL:0xa:0xb:0:21000` });
    items.push({ id: id++, block: String(b), key: `0xother${b}` });
  }
  if (order === 'desc') items.reverse();
  let generation = 0;
  const fetchPage = async (
    token: string | null,
    range?: { startBlock?: string; endBlock?: string },
  ): Promise<Page<Item>> => {
    if (token !== null && Number(token.split('#')[1]) !== generation)
      throw new UpstreamError('data-api', 'status', {
        status: 400,
        upstreamMessage: 'pageToken has expired',
      });
    const inRange = items.filter(
      (it) =>
        (range?.startBlock === undefined || Number(it.block) >= Number(range.startBlock)) &&
        (range?.endBlock === undefined || Number(it.block) < Number(range.endBlock)),
    );
    const start = token === null ? 0 : Number(token.split('@')[0]);
    const end = Math.min(start + 7, inRange.length);
    return {
      items: inRange.slice(start, end),
      nextPageToken:
        end < inRange.length
          ? `${end}@${range?.startBlock ?? ''}-${range?.endBlock ?? ''}#${generation}`
          : null,
    };
  };
  return { items, fetchPage, expire: () => generation++ };
}

describe('range resume with equal keys in a block', () => {
  for (const order of ['asc', 'desc'] as const) {
    it(`${order}: every item exactly once when every token expires between requests`, async () => {
      const l = list(order);
      const ctx = {
        cursorSecret: 'a-test-secret',
        maxFirst: 50,
        snapshots: createPageSnapshots(new MemoryStore()),
      };
      const opts = {
        pages: pagedList(`dups|${order}`, l.fetchPage),
        pageSize: 7,
        itemKey: (x: Item) => x.key,
        resume: { blockOf: (x: Item) => x.block, order, range: {} },
      };
      const seen: number[] = [];
      let after: string | null = null;
      for (let guard = 0; guard < 40; guard++) {
        const r: Awaited<ReturnType<typeof resolveTokenConnection<Item>>> =
          await resolveTokenConnection<Item>({ first: 3, after }, ctx, opts);
        seen.push(...r.edges.map((e) => e.node.id));
        if (!r.pageInfo.hasNextPage) break;
        after = r.pageInfo.endCursor;
        l.expire(); // tokens die: the next request resumes from the cursor's block
        ctx.snapshots = createPageSnapshots(new MemoryStore()); // and head snapshots are gone too
      }
      expect(seen).toEqual(l.items.map((x) => x.id));
    });
  }
});
