import type { PageSnapshots } from '../cache/page-snapshots.js';
import { badInput, upstreamReason } from '../errors.js';
import { isUpstreamStatus } from '../upstream/errors.js';
import type { Page } from '../upstream/request.js';
import type { BlockPlace, BlockRange, HeadCursor, PageCursor } from './cursor.js';

/**
 * How a token connection finds its place again from a cursor (DESIGN.md "Connections over page
 * tokens"). One strategy per cursor kind, and a fallback for ranged lists; each returns where paging
 * continues (`index` is the cursor's item: paging goes on right after it), or undefined when the
 * place is gone (the caller then tries the fallback or answers CURSOR_EXPIRED).
 */
export interface Place<T> {
  page: Page<T>;
  index: number;
  /** The token that fetched `page` (null: the head page, kept as a snapshot). */
  token: string | null;
  /** The range paging continues in (a block resume narrows the client's own). */
  range?: BlockRange;
}

/** What the strategies need of a list. */
export interface ResumableList<T> {
  /** Fetches one upstream page; `range` replaces the client's range after a range resume. */
  fetchPage: (pageToken: string | null, range?: BlockRange) => Promise<Page<T>>;
  /** A stable identity of an item, for head-page content ids and range resumes. */
  itemKey: (item: T) => string;
  /**
   * The items change while they sit in the list (an ICM message's status, a stake that ends): a head
   * snapshot then only keeps a cursor's position, and resuming continues from the live list wherever
   * the cursor's item still is, so what follows it is never served from an old snapshot.
   */
  mutableItems?: boolean;
  /** An item's identity across its changes (when `itemKey` includes a changing field). @default itemKey */
  idOf?: (item: T) => string;
  /**
   * The first page never changes (a block's transactions: the block is final). Its cursors then
   * resume from that page read again (an immutable cache entry, or the same upstream answer), checked
   * against the content id the cursor carries, so no snapshot of it is written.
   */
  frozenHead?: boolean;
}

/** For lists filtered by block range: how an expired cursor resumes from its item's block. */
export interface RangeResume<T> {
  blockOf: (item: T) => string;
  /** The list's order by block. */
  order: 'asc' | 'desc';
  /** The client's own range (part of the list's identity). */
  range: BlockRange;
}

export type Resumed<T> = { place: Place<T> } | { expired: string };

const EXPIRED = 'This cursor has expired (its page is older than 24 hours)';

/** A cursor whose index lies outside the page it names was not made by us. */
function checkInPage<T>(page: Page<T>, index: number): void {
  if (index >= Math.max(page.items.length, 1))
    throw badInput('after', 'Malformed cursor: it points outside its page');
}

/**
 * A token page: the upstream is asked for the same page again (cached: usually no call). A token the
 * upstream refuses (400) has expired or been revoked upstream.
 */
export async function resumeFromToken<T>(
  list: ResumableList<T>,
  c: PageCursor,
): Promise<Resumed<T>> {
  const range = c.at?.range;
  let page: Page<T>;
  try {
    page = await list.fetchPage(c.token, range);
  } catch (e) {
    if (!isUpstreamStatus(e, 400)) throw e;
    // The upstream's reason only as far as the allow-list knows it (src/upstream/client-text.ts).
    const why = upstreamReason(e) ?? 'page token refused';
    return { expired: `This cursor has expired upstream (${why})` };
  }
  checkInPage(page, c.index);
  return { place: { page, index: c.index, token: c.token, range } };
}

/**
 * A head page: read back from its snapshot. When the snapshot was the whole list then, or its items
 * change while they sit in the list, paging continues from the live list instead: the cursor's item
 * is found again in the live head page and paging goes on right after it, into whatever arrived
 * since (a list grows at its end; a list of changing items must not be served from an old snapshot).
 * Where the item is not in the live head page the snapshot's own end stands (a newest-first list
 * whose item moved past the head gained nothing after it).
 */
export async function resumeFromSnapshot<T>(
  list: ResumableList<T>,
  snapshots: PageSnapshots,
  c: HeadCursor,
): Promise<Resumed<T>> {
  const range = c.at?.range;
  const page = await snapshots.get<Page<T>>(c.snapshot);
  if (!page) return { expired: EXPIRED };
  checkInPage(page, c.index);
  const item = page.items[c.index];
  if (item !== undefined && (page.nextPageToken === null || list.mutableItems)) {
    const live = await list.fetchPage(null, range);
    const idOf = list.idOf ?? list.itemKey;
    const id = idOf(item);
    const index = live.items.findIndex((x) => idOf(x) === id);
    if (index >= 0) return { place: { page: live, index, token: null, range } };
  }
  return { place: { page, index: c.index, token: null, range } };
}

/**
 * A ranged list past the life of its tokens and snapshots: re-read from the block of the cursor's
 * item and find that item again (items are final: it is still there), by its position within the
 * block (two items may share a key: identical internal calls of one transaction). Paging continues
 * right after it, within the narrowed range. Bounded: an item that cannot be found within its block
 * resumes after that block's last item seen.
 */
export async function resumeFromBlock<T>(
  list: ResumableList<T>,
  r: RangeResume<T>,
  at: BlockPlace,
): Promise<Place<T>> {
  const b = BigInt(at.block);
  const range: BlockRange =
    r.order === 'desc'
      ? { startBlock: r.range.startBlock, endBlock: String(b + 1n) }
      : { startBlock: at.block, endBlock: r.range.endBlock };
  let page = await list.fetchPage(null, range);
  let seen = 0;
  for (let pages = 0; pages < 20; pages++) {
    for (let i = 0; i < page.items.length; i++) {
      const item = page.items[i]!;
      if (BigInt(r.blockOf(item)) !== b) return { page, index: i - 1, token: null, range };
      seen++;
      if (seen === at.position) return { page, index: i, token: null, range };
    }
    if (page.nextPageToken === null) break;
    page = await list.fetchPage(page.nextPageToken, range);
  }
  return { page: { items: [], nextPageToken: null }, index: -1, token: null, range };
}
