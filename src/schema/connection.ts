import { createHash } from 'node:crypto';
import type { PageSnapshots } from '../cache/page-snapshots.js';
import type { PagedList } from '../loaders/request-loader.js';
import type { Page } from '../upstream/request.js';
import {
  type Place,
  type RangeResume,
  type ResumableList,
  type Resumed,
  resumeFromBlock,
  resumeFromSnapshot,
  resumeFromToken,
} from './connection-resume.js';
import {
  type BlockPlace,
  type Cursor,
  decodeCursor,
  encodeCursor,
  expired,
  type HeadCursor,
  hashListKey,
  type PageCursor,
} from './cursor.js';
import { badInput } from '../errors.js';

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

/**
 * Identifies a head page by its items only: a refetch that mints a new upstream token for the same
 * items names the same snapshot, so a busy list writes one snapshot per distinct head, not per fetch.
 */
function contentIdOf<T>(listHash: string, page: Page<T>, itemKey: (item: T) => string): string {
  // A page read from the cache is the same object on every request (the read-through keeps parsed
  // answers): its id is hashed once.
  let byList = contentIds.get(page);
  const known = byList?.get(listHash);
  if (known) return known;
  const h = createHash('sha256').update(listHash);
  for (const item of page.items) h.update('\n').update(itemKey(item));
  h.update(page.nextPageToken === null ? '\n$' : '\n>');
  const id = h.digest('base64url').slice(0, 24);
  if (!byList) {
    byList = new Map();
    contentIds.set(page, byList);
  }
  byList.set(listHash, id);
  return id;
}
const contentIds = new WeakMap<object, Map<string, string>>();

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
  o: TokenConnectionOptions<T>,
): Promise<ConnectionResult<T>> {
  const want = checkConnectionArgs(args, ctx.maxFirst, o.defaultFirst);
  const list = hashListKey(o.pages.identity);
  const source: ResumableList<T> = { ...o, fetchPage: o.pages.fetchPage };
  let at: Place<T>;
  // Position of the last item returned within its block (list order): carried by cursors, counted on.
  let lastBlock: string | undefined;
  let inBlock = 0;
  if (args.after != null) {
    const c = decodeCursor(args.after, ctx.cursorSecret);
    at = await placeOf(c, list, ctx, o, source);
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
  const maxPages = Math.ceil(ctx.maxFirst / Math.max(o.pageSize, 1)) + 1;
  let hasNextPage = false;
  for (let n = 0; ; n++) {
    // What the cursors into this page share. A head page's content id is hashed when a cursor into the
    // page is encoded, or now to store its snapshot (a frozen head page has none: its cursors hash it
    // only if a client reads them).
    const place = new PagePlace(list, o.pageSize, token, page, o.itemKey);
    // Stored (or confirmed stored) before the cursors into it are handed out: another replica may be asked next.
    if (token === null && !o.frozenHead && page.items.length > index + 1 && want > edges.length)
      await ctx.snapshots.put(place.snapshotId(), page);
    const rest = page.items.length - (index + 1);
    const take = Math.min(rest, want - edges.length);
    for (let j = 1; j <= take; j++) {
      const i = index + j;
      const node = page.items[i]!;
      let at: BlockPlace | undefined;
      if (o.resume) {
        const block = o.resume.blockOf(node);
        inBlock = block === lastBlock ? inBlock + 1 : 1;
        lastBlock = block;
        at = { block, key: o.itemKey(node), position: inBlock };
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

  return { edges, pageInfo: new LazyPageInfo(edges, hasNextPage, args.after != null) };
}

/**
 * A page's `pageInfo`, its cursors read from its edges only when asked for. A class, not an object
 * literal with getters: each literal with an accessor gets an accessor pair and a hidden class of its
 * own, which V8 keeps in the old generation, and from there the getters' closures, their context
 * (`edges`) and every page the edges point into survive each young-generation collection until a full
 * one (measured: `bench/README.md`, "What a request leaves behind"). Accessors on a class live once,
 * on its prototype.
 */
class LazyPageInfo {
  readonly #edges: readonly { readonly cursor: string }[];

  constructor(
    edges: readonly { readonly cursor: string }[],
    readonly hasNextPage: boolean,
    readonly hasPreviousPage: boolean,
  ) {
    this.#edges = edges;
  }

  get startCursor(): string | null {
    return this.#edges[0]?.cursor ?? null;
  }

  get endCursor(): string | null {
    return this.#edges.at(-1)?.cursor ?? null;
  }
}

/** What every cursor into one upstream page shares: its list, page size and token (null: the head page). */
class PagePlace<T> {
  #snapshot: string | undefined;
  constructor(
    readonly list: string,
    readonly pageSize: number,
    readonly token: string | null,
    readonly page: Page<T>,
    readonly itemKey: (item: T) => string,
  ) {}

  /** The head page's content id (its snapshot's key), hashed once, when first needed. */
  snapshotId(): string {
    this.#snapshot ??= contentIdOf(this.list, this.page, this.itemKey);
    return this.#snapshot;
  }
}

/**
 * An edge whose cursor is made and encoded (JSON, base64, a signature) only when read: a query that
 * selects no cursors (most read `edges { node }`) pays nothing for them. A class, not an object literal
 * with a `cursor` getter over a closure (as it was): such a literal's accessor pair lives in the old
 * generation, and kept the closure and the page it reached through every young-generation collection
 * (see `LazyPageInfo`; test/unit/no-accessor-literals.test.ts keeps such literals out of `src/`).
 */
class LazyEdge<T> {
  #encoded: string | undefined;
  readonly #place: PagePlace<T>;
  readonly #index: number;
  readonly #at: BlockPlace | undefined;
  readonly #secret: string;

  constructor(
    readonly node: T,
    place: PagePlace<T>,
    index: number,
    at: BlockPlace | undefined,
    secret: string,
  ) {
    this.#place = place;
    this.#index = index;
    this.#at = at;
    this.#secret = secret;
  }

  get cursor(): string {
    this.#encoded ??= encodeCursor(this.#payload(), this.#secret);
    return this.#encoded;
  }

  #payload(): Cursor {
    const p = this.#place;
    const c: PageCursor | HeadCursor =
      p.token === null
        ? {
            kind: 'head',
            list: p.list,
            pageSize: p.pageSize,
            snapshot: p.snapshotId(),
            index: this.#index,
          }
        : { kind: 'page', list: p.list, pageSize: p.pageSize, token: p.token, index: this.#index };
    if (this.#at) c.at = this.#at;
    return c;
  }
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
