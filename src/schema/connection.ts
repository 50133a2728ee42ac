import type { PageSnapshots } from '../cache/page-snapshots.js';
import { badInput } from '../errors.js';
import type { PagedList } from '../loaders/request-loader.js';
import { contentIdOf, LazyEdge, LazyPageInfo, PagePlace } from './connection-edges.js';
import {
  type Place,
  type RangeResume,
  type ResumableList,
  type Resumed,
  resumeFromBlock,
  resumeFromSnapshot,
  resumeFromToken,
} from './connection-resume.js';
import { type BlockPlace, type Cursor, decodeCursor, expired, hashListKey } from './cursor.js';

export type { RangeResume } from './connection-resume.js';
export type { BlockRange } from './cursor.js';

/**
 * Relay connections over the upstreams' forward-only page tokens (DESIGN.md "Connections over page
 * tokens"): the cursor codec is `cursor.ts`, the ways a cursor finds its place again are
 * `connection-resume.ts`; this file reads the first page (or the cursor's), then fills `first` across
 * upstream pages and hands out a cursor per item.
 */
/**
 * The connection and edge options of a list whose types are named after its items (`<name>Connection`,
 * `<name>Edge`): the last two arguments of `t.connection(…)`.
 */
export const pageTypes = (name: string, items: string, item: string) =>
  [
    { name: `${name}Connection`, description: `A page of ${items}.` },
    { name: `${name}Edge`, description: `${item} and its cursor.` },
  ] as const;

/** The connection and edge descriptions of a list whose types Pothos names after its field. */
export const pageDocs = (items: string, item: string) =>
  [{ description: `A page of ${items}.` }, { description: `${item} and its cursor.` }] as const;

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface ConnectionContext {
  cursorSecret: string;
  /** Largest `first` accepted (it may span several upstream pages). */
  maxFirst: number;
  snapshots: PageSnapshots;
}

export interface TokenConnectionOptions<T> extends Omit<ResumableList<T>, 'fetchPage'> {
  /**
   * The list's pages (a page loader's `list(…)`): its identity, which the cursors are bound to, is
   * the upstream request of its first page, so no resolver names a list by hand.
   */
  pages: PagedList<T>;
  /** The fixed upstream page size this list is fetched at. */
  pageSize: number;
  /** Set for lists with a block range: expired cursors then resume from their block instead of failing. */
  resume?: RangeResume<T>;
  /** @default 20 */
  defaultFirst?: number;
}

export interface ConnectionResult<T> {
  edges: { node: T; cursor: string }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

/** Validates `first`/`last`/`before` before anything reaches an upstream. */
export function checkConnectionArgs(
  args: ConnectionArgs,
  maxFirst: number,
  defaultFirst = 20,
): number {
  if (args.last != null || args.before != null) {
    throw badInput(
      args.last != null ? 'last' : 'before',
      'Backward paging (last/before) is not supported: the upstream pages forward only. Use first/after.',
    );
  }
  const first = args.first ?? defaultFirst;
  if (!Number.isInteger(first) || first < 0 || first > maxFirst) {
    throw badInput('first', `first must be an integer from 0 to ${maxFirst}`);
  }
  return first;
}

export async function resolveTokenConnection<T>(
  args: ConnectionArgs,
  ctx: ConnectionContext,
  options: TokenConnectionOptions<T>,
): Promise<ConnectionResult<T>> {
  const want = checkConnectionArgs(args, ctx.maxFirst, options.defaultFirst);
  const list = hashListKey(options.pages.identity);
  const source: ResumableList<T> = { ...options, fetchPage: options.pages.fetchPage };
  let at: Place<T>;
  // Position of the last item returned within its block (list order): carried by cursors, counted on.
  let lastBlock: string | undefined;
  let inBlock = 0;
  if (args.after != null) {
    const c = decodeCursor(args.after, ctx.cursorSecret);
    at = await placeOf(c, list, ctx, options, source);
    if (c.kind !== 'item' && c.at) {
      lastBlock = c.at.block;
      inBlock = c.at.position;
    }
  } else {
    at = { page: await source.fetchPage(null), index: -1, token: null };
  }

  let { page, index, token } = at;
  const { range } = at;
  const edges: ConnectionResult<T>['edges'] = [];
  // Enough upstream pages to fill the largest `first`, plus one to learn whether more remain.
  const maxPages = Math.ceil(ctx.maxFirst / Math.max(options.pageSize, 1)) + 1;
  let hasNextPage = false;
  for (let n = 0; ; n++) {
    // What the cursors into this page share. A head page's content id is hashed when a cursor into the
    // page is encoded, or now to store its snapshot (a frozen head page has none: its cursors hash it
    // only if a client reads them).
    const place = new PagePlace(list, options.pageSize, token, page, options.itemKey);
    // Stored (or confirmed stored) before the cursors into it are handed out: another replica may be asked next.
    if (
      token === null &&
      !options.frozenHead &&
      page.items.length > index + 1 &&
      want > edges.length
    )
      await ctx.snapshots.put(place.snapshotId(), page);
    const rest = page.items.length - (index + 1);
    const take = Math.min(rest, want - edges.length);
    for (let j = 1; j <= take; j++) {
      const i = index + j;
      const node = page.items[i]!;
      let at: BlockPlace | undefined;
      if (options.resume) {
        const block = options.resume.blockOf(node);
        inBlock = block === lastBlock ? inBlock + 1 : 1;
        lastBlock = block;
        at = { block, key: options.itemKey(node), position: inBlock };
        if (range) at.range = range;
      }
      edges.push(new LazyEdge(node, place, i, at, ctx.cursorSecret));
    }
    if (rest > take) {
      hasNextPage = true;
      break;
    }
    if (page.nextPageToken === null) break;
    if (edges.length >= want || n + 1 >= maxPages) {
      // More exists upstream; an empty next page is possible (Relay allows hasNextPage then no items).
      hasNextPage = true;
      break;
    }
    token = page.nextPageToken;
    index = -1;
    page = await source.fetchPage(token, range);
  }

  options.pages.shown?.(edges.map((e) => e.node));
  return { edges, pageInfo: new LazyPageInfo(edges, hasNextPage, args.after != null) };
}

/** Where the cursor's item is: by its kind's strategy, else (ranged lists) from its block, else expired. */
async function placeOf<T>(
  c: Cursor,
  list: string,
  ctx: ConnectionContext,
  o: TokenConnectionOptions<T>,
  source: ResumableList<T>,
): Promise<Place<T>> {
  if (c.list !== list || c.kind === 'item')
    throw badInput('after', 'This cursor belongs to another list or to other filter arguments');
  if (c.pageSize !== o.pageSize) throw expired('after', 'This cursor was made by an older release');
  if (c.kind === 'head' && o.frozenHead) {
    // The same first page as when the cursor was made (checked by its content id): paging goes on in it.
    const page = await source.fetchPage(null, c.at?.range);
    if (contentIdOf(list, page, o.itemKey) === c.snapshot && c.index < page.items.length)
      return { page, index: c.index, token: null, range: c.at?.range };
  }
  const found: Resumed<T> =
    c.kind === 'head'
      ? await resumeFromSnapshot(source, ctx.snapshots, c)
      : await resumeFromToken(source, c);
  if ('place' in found) return found.place;
  if (!o.resume || !c.at) throw expired('after', found.expired);
  return resumeFromBlock(source, o.resume, c.at);
}
