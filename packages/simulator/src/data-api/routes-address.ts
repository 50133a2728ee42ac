import type { EvmChainData, ItemRef } from '../world/index.js';
import type { Ctx } from './ctx.js';
import { cmpNum, cmpPair, lowerBound, pageOf } from './paging.js';
import type { Route } from './router.js';
import {
  blockFields,
  internalDetails,
  nativeTx,
  transactionDetails,
  transferDetails,
} from './shape-evm.js';

/**
 * An address's transaction lists: combined, native, ERC-20, ERC-721, ERC-1155, internals.
 * `startBlock` is inclusive, `endBlock` exclusive; newest first (the combined list also takes
 * `sortOrder`). Cursors are positions (tx seq, index in the tx), so paging is stable while blocks
 * arrive.
 */

const RANGE = ['startBlock', 'endBlock'] as const;

interface ListInput {
  chain: EvmChainData;
  address: string;
  size: number;
  startBlock?: number;
  endBlock?: number;
}

function input(ctx: Ctx): ListInput {
  const chain = ctx.chain();
  const address = ctx.evmAddress();
  const size = ctx.pageSize();
  const startBlock = ctx.int('startBlock', { min: 0 });
  const endBlock = ctx.int('endBlock', { min: 0 });
  if (startBlock !== undefined && endBlock !== undefined && startBlock >= endBlock)
    ctx.errors.push('startBlock must be less than endBlock');
  return { chain, address, size, startBlock, endBlock };
}

/** The [lo, hi) window of an ascending list whose items fall in [startBlock, endBlock). */
function window<T>(
  items: readonly T[],
  blockOf: (t: T) => number,
  i: ListInput,
): { lo: number; hi: number } {
  const lo = i.startBlock === undefined ? 0 : lowerBound(items, (t) => blockOf(t) >= i.startBlock!);
  const hi =
    i.endBlock === undefined ? items.length : lowerBound(items, (t) => blockOf(t) >= i.endBlock!);
  return { lo, hi };
}

function seqList(ctx: Ctx, pick: 'txs' | 'native', filters: readonly string[], desc: boolean) {
  const i = input(ctx);
  ctx.check();
  const items = i.chain.activity(i.address)?.[pick] ?? [];
  const blockOf = (seq: number) => i.chain.transactions[seq]!.blockNumber;
  const { page, next } = pageOf(items, {
    ...window(items, blockOf, i),
    desc,
    size: i.size,
    after: ctx.cursor<number>(filters),
    key: (s) => s,
    cmp: cmpNum,
  });
  return { i, page: page.map((s) => i.chain.transactions[s]!), token: ctx.nextPage(filters, next) };
}

function refList(ctx: Ctx, kind: 'erc20' | 'erc721' | 'erc1155' | 'internals') {
  const i = input(ctx);
  ctx.check();
  const items = i.chain.activity(i.address)?.[kind] ?? [];
  const blockOf = (r: ItemRef) => i.chain.transactions[r.seq]!.blockNumber;
  const { page, next } = pageOf<ItemRef, [number, number]>(items, {
    ...window(items, blockOf, i),
    desc: true,
    size: i.size,
    after: ctx.cursor<[number, number]>(RANGE),
    key: (r) => [r.seq, r.index],
    cmp: cmpPair,
  });
  const transactions = page.map((r) => {
    const tx = i.chain.transactions[r.seq]!;
    if (kind === 'internals')
      return { ...blockFields(tx), ...internalDetails(i.chain, tx.internals[r.index]!) };
    return { ...blockFields(tx), ...transferDetails(i.chain, tx[kind][r.index]!, tx.timestamp) };
  });
  return { ...ctx.nextPage(RANGE, next), transactions };
}

const base = '/v1/chains/:chainId/addresses/:address/transactions';

export const addressRoutes: Route<Ctx>[] = [
  {
    method: 'GET',
    template: base,
    handler: (ctx) => {
      const order = ctx.enumOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      const { i, page, token } = seqList(ctx, 'txs', [...RANGE, 'sortOrder'], order === 'desc');
      return {
        ...token,
        transactions: page.map((tx) => transactionDetails(i.chain, tx, i.address)),
      };
    },
  },
  {
    method: 'GET',
    template: `${base}:listNative`,
    handler: (ctx) => {
      const { i, page, token } = seqList(ctx, 'native', RANGE, true);
      return { ...token, transactions: page.map((tx) => nativeTx(i.chain, tx)) };
    },
  },
  { method: 'GET', template: `${base}:listErc20`, handler: (ctx) => refList(ctx, 'erc20') },
  { method: 'GET', template: `${base}:listErc721`, handler: (ctx) => refList(ctx, 'erc721') },
  { method: 'GET', template: `${base}:listErc1155`, handler: (ctx) => refList(ctx, 'erc1155') },
  { method: 'GET', template: `${base}:listInternals`, handler: (ctx) => refList(ctx, 'internals') },
];
