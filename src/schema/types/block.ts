import type { GatewayContext } from '../../context.js';
import { gqlError } from '../../errors.js';
import type { Head } from '../../live/head.js';
import { UPSTREAM_PAGE_SIZE } from '../../loaders/evm.js';
import { isUpstreamStatus } from '../../upstream/errors.js';
import type { EvmBlock, NativeTransaction } from '../../upstream/schemas/evm.js';
import { argTable, CHAIN_ID_ARG } from '../arg-table.js';
import { builder } from '../builder.js';
import type { ObjectFields } from '../builder-types.js';
import { evmChainIdOf } from '../chain-id.js';
import { pageDocs, resolveTokenConnection } from '../connection.js';
import { exposed } from '../expose.js';
import { parseBlockId, parseChainId } from '../inputs.js';
import { loadEachOnChain } from '../node-load.js';
import { selectedChildArgs } from '../prefetch.js';
import { isoOf } from '../scalars.js';
import { ChainRef } from './chain.js';
import { TransactionRef } from './transaction.js';

/**
 * An EVM block. Accepted blocks are final, so a block is cached for long once seen.
 * Global id: `Block:<chainId>:<number>`; a block can also be loaded by `<chainId>:<hash>`.
 */
export const BlockRef = builder.loadableNodeRef<EvmBlock, string>('Block', {
  id: { resolve: (b) => `${b.chainId}:${b.blockNumber}` },
  load: loadEachOnChain('Block', parseBlockId, (ctx, chainId, blockId) =>
    loadBlock(ctx, { chainId, blockId }),
  ),
});

/** Fields a block built from a node's header may lack (the Data API's index has them; a pre-London header has no base fee). */
type IndexedField = 'txCount' | 'gasCost' | 'feesSpent' | 'cumulativeTransactions' | 'baseFee';
/** On a block built from a node's header: why each field it lacks is missing (the error to answer with). */
export const MISSING = Symbol('missing');
export type HeaderBlock = EvmBlock & { [MISSING]?: Partial<Record<IndexedField, unknown>> };

/** What a block built from a node's header has (a live head, or a header the node answered). */
export type HeaderFields = Pick<
  Head,
  | 'chainId'
  | 'number'
  | 'hash'
  | 'parentHash'
  | 'timestamp'
  | 'gasUsed'
  | 'gasLimit'
  | 'baseFee'
  | 'txCount'
>;

/**
 * A block from a node's header while the Data API has not indexed it: the fields only its index has
 * answer with `why` (its error), never a made-up zero.
 */
export function headerBlock(header: HeaderFields, why: unknown): HeaderBlock {
  return {
    chainId: header.chainId,
    blockNumber: header.number,
    blockHash: header.hash,
    parentHash: header.parentHash,
    blockTimestamp: header.timestamp,
    txCount: header.txCount ?? 0,
    baseFee: header.baseFee ?? '',
    gasUsed: header.gasUsed,
    gasLimit: header.gasLimit,
    gasCost: '',
    feesSpent: '',
    cumulativeTransactions: '',
    [MISSING]: {
      gasCost: why,
      feesSpent: why,
      cumulativeTransactions: why,
      ...(header.txCount === null ? { txCount: why } : {}),
      ...(header.baseFee === null
        ? {
            baseFee: gqlError('NOT_FOUND', `Block ${header.number}'s header has no base fee`, {
              reason: 'NO_BASE_FEE',
            }),
          }
        : {}),
    },
  };
}

function indexedOnly<K extends IndexedField>(b: EvmBlock, field: K): EvmBlock[K] {
  const why = (b as HeaderBlock)[MISSING]?.[field];
  if (why !== undefined) throw why;
  return b[field];
}

/** The amounts only the Data API's index has (decimal strings), in the order the type shows them. */
const INDEXED_AMOUNTS: Record<Exclude<IndexedField, 'txCount'>, string> = {
  gasCost: 'Gas cost as the Data API reports it for the block (decimal string).',
  feesSpent: "Fees spent (burned) by the block's transactions, in wei (decimal string).",
  cumulativeTransactions:
    'Transactions on the chain up to and including this block (decimal string).',
  baseFee: 'Base fee per gas for inclusion in this block, in wei (decimal string).',
};

const indexedAmounts = (t: ObjectFields<EvmBlock>) =>
  Object.fromEntries(
    (Object.entries(INDEXED_AMOUNTS) as [keyof typeof INDEXED_AMOUNTS, string][]).map(
      ([field, description]) => [
        field,
        t.field({ type: 'BigDecimal', description, resolve: (b) => indexedOnly(b, field) }),
      ],
    ),
  );

/** Why a block built from a head's header lacks what only the Data API's index has. */
export function notIndexedYet(h: Pick<Head, 'hash'>): Error {
  return gqlError('NOT_FOUND', `The Data API has not indexed block ${h.hash} yet`, {
    reason: 'NOT_INDEXED',
  });
}

/**
 * A block by its chain and number or hash: the one load behind `node(id)`, `_entities` and the
 * fields that follow a block. A block read by number is also the block of its hash (and the other
 * way round): a later `parent` (by hash) of a block this request already read costs nothing.
 */
export async function loadBlock(
  ctx: GatewayContext,
  key: { chainId: string; blockId: string },
): Promise<EvmBlock> {
  let block: EvmBlock;
  try {
    block = await ctx.loaders.evm.block.load(key);
  } catch (e) {
    // A block the node accepted that the Data API has not indexed yet (it trails by a few blocks): a
    // client that saw it in `newBlocks` or `latestBlock` and asks for it gets the header this
    // replica's feed read, at no upstream cost; what only the index has answers NOT_INDEXED.
    const head = isUpstreamStatus(e, 404)
      ? ctx.live?.feed.recentHead(key.chainId, key.blockId)
      : undefined;
    if (!head) throw e;
    return headerBlock(head, notIndexedYet(head));
  }
  ctx.loaders.evm.primeBlocks([block]);
  return block;
}

BlockRef.implement({
  description: 'A block of an EVM chain, as indexed by the Data API.',
  fields: (t) => ({
    chainId: t.exposeString('chainId', {
      description: 'EVM chain id the block belongs to, a decimal string (e.g. "43114").',
    }),
    number: t.expose('blockNumber', {
      type: 'BigDecimal',
      description: 'Block number (height) on its chain, a decimal string.',
    }),
    hash: t.exposeString('blockHash', { description: 'Block hash, 0x-prefixed 32-byte hex.' }),
    parentHash: t.exposeString('parentHash', {
      description: 'Hash of the parent block, 0x-prefixed hex.',
    }),
    timestamp: t.expose('blockTimestamp', {
      type: 'Timestamp',
      description: 'When the block was proposed, Unix seconds.',
    }),
    timestampIso: t.string({
      resolve: (b) => isoOf(b.blockTimestamp),
      description: '`timestamp` as an ISO 8601 UTC date-time.',
    }),
    timestampMilliseconds: t.float({
      nullable: true,
      description: 'Millisecond timestamp, present for blocks after the Granite upgrade.',
      resolve: (b) => b.blockTimestampMilliseconds ?? null,
    }),
    txCount: t.int({
      description: 'Number of EVM transactions in the block.',
      resolve: (b) => indexedOnly(b, 'txCount'),
    }),
    ...indexedAmounts(t),
    ...exposed(t, {
      gasUsed: ['BigDecimal', "Gas used by the block's transactions (decimal string)."],
      gasLimit: ['BigDecimal', 'Gas limit of the block (decimal string).'],
    }),
    chain: t.field({
      type: ChainRef,
      nullable: true,
      description: 'The chain this block belongs to (its info loads only when asked for).',
      resolve: (b) => ({ chainId: b.chainId }),
    }),
    parent: t.field({
      type: BlockRef,
      nullable: true,
      description: 'The previous block (null for the genesis block).',
      resolve: (b) => (b.blockNumber === '0' ? null : `${b.chainId}:${b.parentHash.toLowerCase()}`),
    }),
    transactions: t.connection(
      {
        type: TransactionRef,
        nullable: true,
        description: "The block's transactions in block order. Forward paging only (first/after).",
        resolve: (b, args, ctx) =>
          resolveTokenConnection<NativeTransaction>(args, ctx.connections, {
            pages: ctx.loaders.evm.blockTransactionsPage.list({
              chainId: b.chainId,
              blockId: b.blockNumber,
            }),
            pageSize: UPSTREAM_PAGE_SIZE.blockTransactions,
            itemKey: (tx) => tx.txHash,
            // A block is final: its first page of transactions never changes, so its cursors need
            // no snapshot (one write of the whole page less on every cold block query).
            frozenHead: true,
          }),
      },
      ...pageDocs('a block’s transactions', 'A transaction'),
    ),
  }),
});

builder.queryField('block', (t) =>
  t.field({
    type: BlockRef,
    nullable: true,
    description: 'One block, by number (decimal) or hash.',
    args: argTable(t.arg, {
      chainId: CHAIN_ID_ARG,
      id: ['String!', 'Block number (decimal) or block hash (0x…).'],
    }),
    resolve: async (_root, args, ctx, info) => {
      const chainId = parseChainId(args.chainId);
      const blockId = parseBlockId(args.id);
      const evmChainId = await evmChainIdOf(chainId, ctx);
      // By number, the first page of `transactions` needs only these arguments: ask for it now, beside
      // the block itself, rather than after it (its resolver then finds it in the request's loader).
      const firstPage = selectedChildArgs(info, 'transactions').some(
        (a) => a.after === undefined || a.after === null,
      );
      if (firstPage && !blockId.startsWith('0x') && blockId === BigInt(blockId).toString()) {
        ctx.loaders.evm.blockTransactionsPage
          .load({ chainId: evmChainId, blockId, pageToken: null })
          .catch(() => undefined);
      }
      return `${evmChainId}:${blockId}`;
    },
  }),
);
