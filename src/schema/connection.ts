import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { PageSnapshots } from '../cache/page-snapshots.js';
import { UpstreamError } from '../upstream/errors.js';
import type { Page } from '../upstream/request.js';
import { badInput } from './errors.js';

/**
 * Relay connections over the upstreams' forward-only page tokens (DESIGN.md "Connections over page tokens").
 *
 * Cursor = base64url(JSON payload) + "." + HMAC, the payload being
 *   { v: 1, f: hash of the list identity and its filter arguments, s: upstream page size,
 *     t: the upstream token that fetched the page (null for the head page),
 *     c: content id of the head page snapshot (only when t is null), i: index in that page,
 *     and, for lists with a block range: b: the item's block, k: the item's key, p: its position within
 *     its block in list order, r: the range in force }.
 * The HMAC makes a tampered cursor a BAD_USER_INPUT instead of a silently different position; `f` makes a
 * cursor from another list or other filters one too.
 */
export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface CursorPayload {
  v: 1;
  f: string;
  s: number;
  t: string | null;
  c?: string;
  i: number;
  b?: string;
  k?: string;
  /** The item's position within its block in list order (1-based): items with equal keys stay apart. */
  p?: number;
  r?: BlockRange;
}

/** A block range as the upstream takes it: startBlock inclusive, endBlock exclusive (decimal strings). */
export interface BlockRange {
  startBlock?: string;
  endBlock?: string;
}

/**
 * For lists the upstream filters by block range (the address lists): how an expired cursor resumes.
 * Past the life of the upstream's tokens (and of our head-page snapshots), the list is re-read from the
 * cursor's item's block, skipping what was already returned in that block (up to and including its key).
 */
export interface RangeResume<T> {
  blockOf: (item: T) => string;
  /** The list's order by block. */
  order: 'asc' | 'desc';
  /** The client's own range (part of the list's identity). */
  range: BlockRange;
}

export interface ConnectionContext {
  cursorSecret: string;
  /** Largest `first` accepted (it may span several upstream pages). */
  maxFirst: number;
  snapshots: PageSnapshots;
}

export interface TokenConnectionOptions<T> {
  /** Identity of the list and every filter argument, e.g. `latestBlocks|43114`. */
  listKey: string;
  /** The fixed upstream page size this list is fetched at. */
  pageSize: number;
  /** Fetches one upstream page; `range` replaces the client's range after a range resume. */
  fetchPage: (pageToken: string | null, range?: BlockRange) => Promise<Page<T>>;
  /** A stable identity of an item, for head-page content ids and range resumes. */
  itemKey: (item: T) => string;
  /** Set for lists with a block range: expired cursors then resume from their block instead of failing. */
  resume?: RangeResume<T>;
  /**
   * The items change while they sit in the list (an ICM message's status, a stake that ends): a head
   * snapshot then only keeps a cursor's position, and resuming continues from the live list wherever the
   * cursor's item still is, so what follows it is never served from an old snapshot.
   */
  mutableItems?: boolean;
  /** An item's identity across its changes (when `itemKey` includes a changing field). @default itemKey */
  idOf?: (item: T) => string;
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

const CURSOR_VERSION = 1;

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const hmac = (body: string, secret: string) =>
  createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
/** Signatures of recent cursor bodies: a warm page signs the same cursors on every request. */
const signed = new LRUCache<string, string>({ max: 10_000 });
const sign = (body: string, secret: string): string => {
  const k = `${secret}\0${body}`;
  let mac = signed.get(k);
  if (mac === undefined) {
    mac = hmac(body, secret);
    signed.set(k, mac);
  }
  return mac;
};

export const hashListKey = (listKey: string): string =>
  createHash('sha256').update(listKey).digest('base64url').slice(0, 16);

export function encodeCursor(p: CursorPayload, secret: string): string {
  const body = b64(JSON.stringify(p));
  return `${body}.${sign(body, secret)}`;
}

export function decodeCursor(cursor: string, secret: string, argument = 'after'): CursorPayload {
  const bad = () =>
    badInput(argument, 'Malformed cursor: pass back a cursor exactly as a connection returned it');
  if (typeof cursor !== 'string' || cursor.length > 4096) throw bad();
  const dot = cursor.indexOf('.');
  if (dot <= 0) throw bad();
  const body = cursor.slice(0, dot);
  const mac = Buffer.from(cursor.slice(dot + 1));
  const expected = Buffer.from(sign(body, secret));
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw bad();
  let p: unknown;
  try {
    p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!isValidPayload(p)) throw bad();
  return p;
}

const DECIMAL_BLOCK = /^\d{1,20}$/;
/** A page size no route exceeds (node UTXO pages are the largest). */
const MAX_CURSOR_PAGE_SIZE = 10_000;
/**
 * An upstream page token travels as one URL-encoded query value; still, only what tokens look like is
 * accepted (Data API UUIDs, the node's small JSON positions): printable ASCII without `&`, bounded. A
 * forged token cannot smuggle another parameter (`evil&pageSize=100000`), nor share a cache key.
 */
const TOKEN = /^[\x21-\x7e]{1,1024}$/;
const TOKEN_FORBIDDEN = /&/;
const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
const isBlock = (x: unknown) => x === undefined || (typeof x === 'string' && DECIMAL_BLOCK.test(x));

/**
 * Every field of a decoded cursor, checked (a cursor made with a leaked or default secret must still not
 * reach an upstream or a resolver with a value the gateway never issues).
 */
function isValidPayload(p: unknown): p is CursorPayload {
  if (!isObject(p)) return false;
  const { v, f, s, t, c, i, b, k, r } = p;
  if (v !== CURSOR_VERSION || typeof f !== 'string' || !/^[A-Za-z0-9_-]{16}$/.test(f)) return false;
  // `s: 0` marks a whole-list cursor (a list the node answers whole, windowed here): its index is bounded
  // by the list, not by a page, and its `t` is the key of the item it stands on.
  if (typeof s !== 'number' || !Number.isInteger(s) || s < 0 || s > MAX_CURSOR_PAGE_SIZE)
    return false;
  if (
    typeof i !== 'number' ||
    !Number.isInteger(i) ||
    i < 0 ||
    i >= (s === 0 ? MAX_CURSOR_PAGE_SIZE : s)
  )
    return false;
  if (s === 0 && typeof t !== 'string') return false;
  if (t === null) {
    if (typeof c !== 'string' || !/^[A-Za-z0-9_-]{24}$/.test(c)) return false;
  } else if (typeof t !== 'string' || !TOKEN.test(t) || TOKEN_FORBIDDEN.test(t) || c !== undefined)
    return false;
  if (b !== undefined && !(typeof b === 'string' && DECIMAL_BLOCK.test(b))) return false;
  if (k !== undefined && !(typeof k === 'string' && k.length > 0 && k.length <= 512)) return false;
  if (
    p.p !== undefined &&
    !(
      typeof p.p === 'number' &&
      Number.isInteger(p.p) &&
      p.p >= 1 &&
      p.p <= 1_000_000 &&
      b !== undefined
    )
  )
    return false;
  if (r !== undefined) {
    if (!isObject(r) || Object.keys(r).some((key) => key !== 'startBlock' && key !== 'endBlock'))
      return false;
    if (!isBlock(r.startBlock) || !isBlock(r.endBlock)) return false;
  }
  const known = new Set(['v', 'f', 's', 't', 'c', 'i', 'b', 'k', 'p', 'r']);
  return Object.keys(p).every((key) => known.has(key));
}

/**
 * Identifies a head page by its items only: a refetch that mints a new upstream token for the same
 * items names the same snapshot, so a busy list writes one snapshot per distinct head, not per fetch.
 */
function contentIdOf<T>(listHash: string, page: Page<T>, itemKey: (item: T) => string): string {
  const h = createHash('sha256').update(listHash);
  for (const item of page.items) h.update('\n').update(itemKey(item));
  h.update(page.nextPageToken === null ? '\n$' : '\n>');
  return h.digest('base64url').slice(0, 24);
}

function expired(message: string) {
  return badInput('after', `${message}; restart paging without \`after\``, {
    reason: 'CURSOR_EXPIRED',
  });
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
  o: TokenConnectionOptions<T>,
): Promise<ConnectionResult<T>> {
  const want = checkConnectionArgs(args, ctx.maxFirst, o.defaultFirst);
  const f = hashListKey(o.listKey);

  let token: string | null = null;
  let index = -1;
  let range: BlockRange | undefined;
  let page: Page<T>;
  // Position of the last item returned within its block (list order): carried by cursors, counted on.
  let lastBlock: string | undefined;
  let inBlock = 0;
  if (args.after != null) {
    const c = decodeCursor(args.after, ctx.cursorSecret);
    if (c.f !== f)
      throw badInput('after', 'This cursor belongs to another list or to other filter arguments');
    if (c.s !== o.pageSize) throw expired('This cursor was made by an older release');
    token = c.t;
    index = c.i;
    range = c.r;
    if (c.b !== undefined && c.p !== undefined) {
      lastBlock = c.b;
      inBlock = c.p;
    }
    let found: Page<T> | undefined;
    let why = 'This cursor has expired (its page is older than 24 hours)';
    if (c.t === null) {
      found = await ctx.snapshots.get<Page<T>>(c.c!);
    } else {
      try {
        found = await o.fetchPage(c.t, c.r);
      } catch (e) {
        // A token the upstream refuses (400) on resume has expired or been revoked upstream.
        if (!(e instanceof UpstreamError && e.kind === 'status' && e.status === 400)) throw e;
        why = `This cursor has expired upstream (${e.upstreamMessage ?? 'page token refused'})`;
      }
    }
    if (found) {
      page = found;
      if (index < -1 || index >= Math.max(page.items.length, 1))
        throw badInput('after', 'Malformed cursor: it points outside its page');
      if (c.t === null && index >= 0 && (page.nextPageToken === null || o.mutableItems)) {
        // The snapshot was the whole list then; a list grows at its end (an ascending list gains its new
        // items there), so continue from the live list: the cursor's item is found again in the live head
        // page (items are final) and paging goes on right after it, into whatever arrived since. A list of
        // changing items always continues from the live list (the snapshot's later items may be outdated).
        const live = await growthOf(o, page.items[index]!, c.r);
        if (live) ({ page, index } = live);
      }
    } else {
      if (!o.resume || c.b === undefined || c.k === undefined) throw expired(why);
      ({ page, index, range } = await resumeFromBlock(o, o.resume, c.b, c.k, c.p));
      token = null;
    }
  } else {
    page = await o.fetchPage(null);
  }

  const edges: ConnectionResult<T>['edges'] = [];
  // Enough upstream pages to fill the largest `first`, plus one to learn whether more remain.
  const maxPages = Math.ceil(ctx.maxFirst / Math.max(o.pageSize, 1)) + 1;
  let hasNextPage = false;
  for (let n = 0; ; n++) {
    const contentId = token === null ? contentIdOf(f, page, o.itemKey) : undefined;
    // Stored (or confirmed stored) before the cursors into it are handed out: another replica may be asked next.
    if (contentId && page.items.length > index + 1 && want > edges.length)
      await ctx.snapshots.put(contentId, page);
    const rest = page.items.length - (index + 1);
    const take = Math.min(rest, want - edges.length);
    for (let j = 1; j <= take; j++) {
      const i = index + j;
      const node = page.items[i]!;
      const cursor: CursorPayload = { v: CURSOR_VERSION, f, s: o.pageSize, t: token, i };
      if (contentId) cursor.c = contentId;
      if (o.resume) {
        cursor.b = o.resume.blockOf(node);
        cursor.k = o.itemKey(node);
        inBlock = cursor.b === lastBlock ? inBlock + 1 : 1;
        lastBlock = cursor.b;
        cursor.p = inBlock;
        if (range) cursor.r = range;
      }
      edges.push({ node, cursor: encodeCursor(cursor, ctx.cursorSecret) });
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
    page = await o.fetchPage(token, range);
  }

  return {
    edges,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: args.after != null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/**
 * The live head page and the index of `item` in it, when it is there; undefined otherwise (then the
 * snapshot's own end stands: a newest-first list whose item moved past the live head page gained nothing
 * after it).
 */
async function growthOf<T>(
  o: TokenConnectionOptions<T>,
  item: T,
  range: BlockRange | undefined,
): Promise<{ page: Page<T>; index: number } | undefined> {
  const page = await o.fetchPage(null, range);
  const idOf = o.idOf ?? o.itemKey;
  const key = idOf(item);
  const index = page.items.findIndex((x) => idOf(x) === key);
  return index >= 0 ? { page, index } : undefined;
}

/**
 * Re-reads a ranged list from the block of the cursor's item and finds that item again (items are final:
 * it is still there): by its position within the block when the cursor carries it (two items may share a
 * key: identical internal calls of one transaction), else by its key. Returns the page holding it and its
 * index, so paging continues right after it. Bounded: an item that cannot be found within its block
 * resumes after that block's last seen item.
 */
async function resumeFromBlock<T>(
  o: TokenConnectionOptions<T>,
  r: RangeResume<T>,
  block: string,
  key: string,
  position?: number,
): Promise<{ page: Page<T>; index: number; range: BlockRange }> {
  const b = BigInt(block);
  const range: BlockRange =
    r.order === 'desc'
      ? { startBlock: r.range.startBlock, endBlock: String(b + 1n) }
      : { startBlock: block, endBlock: r.range.endBlock };
  let page = await o.fetchPage(null, range);
  let seen = 0;
  for (let pages = 0; pages < 20; pages++) {
    for (let i = 0; i < page.items.length; i++) {
      const item = page.items[i]!;
      if (BigInt(r.blockOf(item)) !== b) return { page, index: i - 1, range };
      seen++;
      if (position !== undefined ? seen === position : o.itemKey(item) === key)
        return { page, index: i, range };
    }
    if (page.nextPageToken === null) break;
    page = await o.fetchPage(page.nextPageToken, range);
  }
  return { page: { items: [], nextPageToken: null }, index: -1, range };
}
