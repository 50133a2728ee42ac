import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { createBytesLru } from '../cache/bytes-lru.js';
import { badInput } from '../errors.js';
import type { BlockRange } from '../upstream/request.js';

/**
 * The cursor codec (DESIGN.md "Connections over page tokens"): what a cursor says, in named fields,
 * and its wire form, `base64url(JSON) + "." + HMAC`. The HMAC makes a tampered cursor a
 * BAD_USER_INPUT instead of a silently different position; `list` (a hash of the list's identity and
 * its filter arguments) makes a cursor from another list or other filters one too. Every field is
 * still checked after the signature: a cursor made with a leaked or default secret must not reach an
 * upstream or a resolver with a value the gateway never issues.
 *
 * Three kinds, one per way a connection finds its place again:
 * - `page`: the item at `index` of the upstream page fetched with `token`;
 * - `head`: the item at `index` of the head page (fetched without a token), kept as the snapshot
 *   `snapshot` (a content id), since the head moves;
 * - `item`: a list the node answers whole and the gateway windows: the item whose sort key is `key`.
 * `page` and `head` cursors of lists filtered by block range also carry `at`, the item's place in
 * the chain, for resuming once the upstream's token or our snapshot has expired.
 */
export type Cursor = PageCursor | HeadCursor | ItemCursor;

export interface PageCursor {
  kind: 'page';
  list: string;
  /** The upstream page size the list was fetched at (a cursor of another release's size expires). */
  pageSize: number;
  token: string;
  index: number;
  at?: BlockPlace;
}

export interface HeadCursor {
  kind: 'head';
  list: string;
  pageSize: number;
  snapshot: string;
  index: number;
  at?: BlockPlace;
}

export interface ItemCursor {
  kind: 'item';
  list: string;
  key: string;
  index: number;
}

/** Where an item of a block-ranged list sits: enough to find it again by re-reading from its block. */
export interface BlockPlace {
  block: string;
  /** The item's stable key. */
  key: string;
  /** Its position within its block in list order (1-based): items with equal keys stay apart. */
  position: number;
  /** The range in force when the cursor was made (after a resume, not the client's own). */
  range?: BlockRange;
}

export type { BlockRange };

/** Bumped when the wire form changes: a cursor of another version expires (CURSOR_EXPIRED). */
export const CURSOR_VERSION = 2;

/** A page size no route exceeds (node UTXO pages are the largest). */
const MAX_PAGE_SIZE = 10_000;
/** The longest list windowed whole (an item cursor's index). */
const MAX_WHOLE_LIST = 10_000;

const listHash = z.string().regex(/^[A-Za-z0-9_-]{16}$/);
const index = z.number().int().nonnegative();
const pageSize = z.number().int().min(1).max(MAX_PAGE_SIZE);
const block = z.string().regex(/^\d{1,20}$/);
/**
 * An upstream page token travels as one URL-encoded query value; still, only what tokens look like
 * is accepted (Data API UUIDs, the node's small JSON positions): printable ASCII without `&`,
 * bounded. A forged token can neither smuggle another parameter (`evil&pageSize=100000`) nor share a
 * cache key.
 */
const token = z.string().regex(/^[\x21-\x25\x27-\x7e]{1,1024}$/);
const range = z.strictObject({ startBlock: block.optional(), endBlock: block.optional() });
const at = z.strictObject({
  block,
  key: z.string().min(1).max(512),
  position: z.number().int().min(1).max(1_000_000),
  range: range.optional(),
});

/** A page's index lies within the page size it was fetched at. */
const withinPage = (c: { index: number; pageSize: number }) => c.index < c.pageSize;
const version = z.literal(CURSOR_VERSION);

const wire = z.discriminatedUnion('kind', [
  z
    .strictObject({
      v: version,
      kind: z.literal('page'),
      list: listHash,
      pageSize,
      token,
      index,
      at: at.optional(),
    })
    .refine(withinPage),
  z
    .strictObject({
      v: version,
      kind: z.literal('head'),
      list: listHash,
      pageSize,
      snapshot: z.string().regex(/^[A-Za-z0-9_-]{24}$/),
      index,
      at: at.optional(),
    })
    .refine(withinPage),
  z.strictObject({
    v: version,
    kind: z.literal('item'),
    list: listHash,
    key: z.string().min(1).max(512),
    index: index.max(MAX_WHOLE_LIST - 1),
  }),
]);

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const hmac = (body: string, secret: string) =>
  createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
/** Signatures of recent cursor bodies: a warm page signs the same cursors on every request. */
const signed = createBytesLru<string>({ maxBytes: 4 << 20 });
const sign = (body: string, secret: string): string => {
  const k = `${secret}\0${body}`;
  let mac = signed.get(k);
  if (mac === undefined) {
    mac = hmac(body, secret);
    signed.set(k, mac);
  }
  return mac;
};

/** The `list` field: a short hash of the list's identity (its request without the page token). */
export function hashListKey(listKey: string): string {
  let h = listHashes.get(listKey);
  if (h === undefined) {
    h = createHash('sha256').update(listKey).digest('base64url').slice(0, 16);
    listHashes.set(listKey, h);
  }
  return h;
}
/** The hashes of recent list identities: a warm list is hashed once, not per request. */
const listHashes = createBytesLru<string>({ maxBytes: 4 << 20 });

export function encodeCursor(c: Cursor, secret: string): string {
  return signPayload({ v: CURSOR_VERSION, ...c }, secret);
}

/** Signs any payload: the encoder's last step, and how tests forge well-signed bad cursors. */
export function signPayload(payload: unknown, secret: string): string {
  const body = b64(JSON.stringify(payload));
  return `${body}.${sign(body, secret)}`;
}

export function decodeCursor(cursor: string, secret: string, argument = 'after'): Cursor {
  const bad = () =>
    badInput(argument, 'Malformed cursor: pass back a cursor exactly as a connection returned it');
  if (typeof cursor !== 'string' || cursor.length > 4096) throw bad();
  const dot = cursor.indexOf('.');
  if (dot <= 0) throw bad();
  const body = cursor.slice(0, dot);
  const mac = Buffer.from(cursor.slice(dot + 1));
  const expected = Buffer.from(sign(body, secret));
  if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw bad();
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const parsed = wire.safeParse(payload);
  if (!parsed.success) {
    const v = (payload as { v?: unknown } | null)?.v;
    if (typeof v === 'number' && v !== CURSOR_VERSION)
      throw expired(argument, 'This cursor was made by an older release');
    throw bad();
  }
  const { v: _v, ...c } = parsed.data;
  return c;
}

export function expired(argument: string, message: string) {
  return badInput(argument, `${message}; restart paging without \`${argument}\``, {
    reason: 'CURSOR_EXPIRED',
  });
}
