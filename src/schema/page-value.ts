import type { PagedList } from '../loaders/request-loader.js';
import type { Page } from '../upstream/request.js';
import {
  type ConnectionArgs,
  type ConnectionContext,
  type ConnectionResult,
  resolveTokenConnection,
  type TokenConnectionOptions,
} from './connection.js';

/**
 * A value some upstream pages carry beside their items (the chain info a transaction list names, the
 * P-Chain height L1 validator balances were computed at). Each item carries its page's under `key`, so
 * a page resumed from its snapshot still has it; the connection shows its first item's, or the last
 * page read's when it has no items.
 */
export function carryPageValue<T extends object, P extends Page<T>, K extends string, V>(
  pages: PagedList<T, P>,
  key: K,
  pageValue: (page: P) => V,
) {
  let last: V | null = null;
  const list = pages.map((page) => {
    const value = pageValue(page);
    last = value;
    const items = page.items.map((item) => ({ ...item, [key]: value }) as T & Record<K, V>);
    return { items, nextPageToken: page.nextPageToken };
  });
  const valueFor = (conn: ConnectionResult<T & Record<K, V>>): V | null =>
    conn.edges[0]?.node[key] ?? last;
  return { list, valueFor };
}

/**
 * A connection over pages that carry a value (`carryPageValue` under `key`), showing that value beside
 * its edges as `show`.
 */
export async function resolveCarryingConnection<
  T extends object,
  P extends Page<T>,
  K extends string,
  V,
  S extends string,
>(
  args: ConnectionArgs,
  ctx: ConnectionContext,
  carried: { pages: PagedList<T, P>; key: K; value: (page: P) => V; show: S },
  options: Omit<TokenConnectionOptions<T & Record<K, V>>, 'pages'>,
) {
  const { list, valueFor } = carryPageValue(carried.pages, carried.key, carried.value);
  const conn = await resolveTokenConnection(args, ctx, { ...options, pages: list });
  return { ...conn, [carried.show]: valueFor(conn) } as typeof conn & Record<S, V | null>;
}
