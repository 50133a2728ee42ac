import { badInput } from '../../errors.js';
import {
  type ConnectionArgs,
  type ConnectionContext,
  type ConnectionResult,
  checkConnectionArgs,
} from '../connection.js';
import { decodeCursor, encodeCursor, hashListKey } from '../cursor.js';

/**
 * A Relay connection over a list the node answers whole (peers): no upstream paging, the list is read
 * once (cached) and windowed here, in the order of its items' keys — the node's own order is not stable
 * between reads, so paging in it would repeat and skip items. A cursor names the item it stands on (its
 * key): resuming continues with the first item whose key sorts after it, whether or not it is still there.
 * Cursors are signed and bound to the list and its filters like every other cursor of the gateway.
 */
export interface ListConnectionOptions<T> {
  /** Identity of the list and every filter argument: the upstream request that answers it. */
  identity: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  /** @default 20 */
  defaultFirst?: number;
}

export function resolveListConnection<T>(
  args: ConnectionArgs,
  ctx: ConnectionContext,
  options: ListConnectionOptions<T>,
): ConnectionResult<T> {
  const want = checkConnectionArgs(args, ctx.maxFirst, options.defaultFirst);
  const list = hashListKey(options.identity);
  const keyed = options.items.map((item) => ({ item, key: options.itemKey(item) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const items = keyed.map((x) => x.item);
  let start = 0;
  if (args.after != null) {
    const c = decodeCursor(args.after, ctx.cursorSecret);
    if (c.list !== list || c.kind !== 'item')
      throw badInput('after', 'This cursor belongs to another list or to other filter arguments');
    const after = c.key;
    const next = keyed.findIndex((x) => x.key > after);
    start = next >= 0 ? next : items.length;
  }
  const window = items.slice(start, start + want);
  const edges = window.map((node, j) => ({
    node,
    cursor: encodeCursor(
      { kind: 'item', list, key: options.itemKey(node), index: start + j },
      ctx.cursorSecret,
    ),
  }));
  return {
    edges,
    pageInfo: {
      hasNextPage: start + window.length < items.length,
      hasPreviousPage: start > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
