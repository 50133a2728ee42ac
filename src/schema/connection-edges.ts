import { createHash } from 'node:crypto';
import type { Page } from '../upstream/request.js';
import {
  type BlockPlace,
  type Cursor,
  encodeCursor,
  type HeadCursor,
  type PageCursor,
} from './cursor.js';

/** A connection's edges and `pageInfo`, their cursors encoded only when a query reads them. */

/**
 * Identifies a head page by its items only: a refetch that mints a new upstream token for the same
 * items names the same snapshot, so a busy list writes one snapshot per distinct head, not per fetch.
 */
export function contentIdOf<T>(
  listHash: string,
  page: Page<T>,
  itemKey: (item: T) => string,
): string {
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

/**
 * A page's `pageInfo`, its cursors read from its edges only when asked for. A class, not an object
 * literal with getters: each literal with an accessor gets an accessor pair and a hidden class of its
 * own, which V8 keeps in the old generation, and from there the getters' closures, their context
 * (`edges`) and every page the edges point into survive each young-generation collection until a full
 * one (measured: `bench/README.md`, "What a request leaves behind"). Accessors on a class live once,
 * on its prototype.
 */
export class LazyPageInfo {
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
export class PagePlace<T> {
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
 * with a `cursor` getter over a closure: such a literal's accessor pair lives in the old generation and
 * keeps the closure and the page it reaches (see `LazyPageInfo`; `npm run lint:accessors`).
 */
export class LazyEdge<T> {
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
