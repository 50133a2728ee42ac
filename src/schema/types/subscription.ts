import type { GatewayContext } from '../../context.js';
import { SlowConsumerError } from '../../live/feed.js';
import type { Head } from '../../live/head.js';
import type { EvmBlock, NativeTransaction } from '../../upstream/schemas/evm.js';
import type { IcmMessage } from '../../upstream/schemas/icm.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { badInput, gqlError } from '../errors.js';
import { parseChainId, parseEvmAddress } from '../inputs.js';
import { BlockRef } from './block.js';
import { branded, IcmMessageRef, parseMessageId } from './icm-message.js';
import { TransactionRef } from './transaction.js';

/**
 * Live data (Server-Sent Events or graphql-ws): the heads of the chains the operator follows over a node
 * websocket (`LIVE_WS`), shared by every replica through Redis (src/live). Each event resolves like a
 * query answer, through fresh per-event loaders and the shared cache.
 */

function liveOf(ctx: GatewayContext, chainId: string) {
  const live = ctx.live;
  if (!live?.feed.configured(chainId)) {
    throw badInput(
      'chainId',
      `Chain ${chainId} is not followed live (the gateway's LIVE_WS names the chains it follows).`,
    );
  }
  return live;
}

/**
 * Heads of one chain, with a slow consumer's end turned into a coded error. A plain iterator, not an
 * async generator: a client that leaves calls `return()` while a `next()` waits for the next block, and
 * a generator would queue that return (the subscriber stays counted) until the block comes.
 */
function headsOf(ctx: GatewayContext, chainId: string): AsyncIterableIterator<Head> {
  const it = liveOf(ctx, chainId).feed.subscribe(chainId);
  const out: AsyncIterableIterator<Head> = {
    [Symbol.asyncIterator]: () => out,
    next: async () => {
      try {
        return await it.next();
      } catch (e) {
        if (e instanceof SlowConsumerError)
          throw gqlError('SLOW_CONSUMER', `Dropped: ${e.message}; subscribe again.`);
        throw e;
      }
    },
    return: async () => {
      await it.return?.();
      return { done: true, value: undefined };
    },
    throw: async (e) => {
      await it.return?.();
      throw e;
    },
  };
  return out;
}

/** `gen`, whose `return()` ends its source first (waking a pending `next()`), then the generator. */
function endsAtOnce<T>(
  gen: AsyncGenerator<T>,
  source: AsyncIterableIterator<unknown>,
): AsyncIterableIterator<T> {
  const out: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => out,
    next: () => gen.next(),
    return: async () => {
      await source.return?.();
      return gen.return(undefined);
    },
    throw: async (e) => {
      await source.return?.();
      return gen.throw(e);
    },
  };
  return out;
}

/** The block of a head as the Data API indexes it; from the node's own header while not indexed there. */
async function blockOfHead(ctx: GatewayContext, h: Head): Promise<EvmBlock> {
  try {
    const b = await ctx.live!.loaders().evm.block.load({ chainId: h.chainId, blockId: h.number });
    if (b.blockHash.toLowerCase() === h.hash) return b;
  } catch {
    // Not indexed (yet), or a chain the Data API does not know: the node's header below.
  }
  const fees = (BigInt(h.gasUsed) * BigInt(h.baseFee)).toString();
  return {
    chainId: h.chainId,
    blockNumber: h.number,
    blockHash: h.hash,
    parentHash: h.parentHash,
    blockTimestamp: h.timestamp,
    txCount: h.txCount ?? 0,
    baseFee: h.baseFee,
    gasUsed: h.gasUsed,
    gasLimit: h.gasLimit,
    gasCost: '0',
    feesSpent: fees,
    cumulativeTransactions: '0',
  };
}

function transactionsOf(
  ctx: GatewayContext,
  chainId: string,
  address: string | undefined,
): AsyncIterableIterator<NativeTransaction> {
  const heads = headsOf(ctx, chainId);
  return endsAtOnce(transactionsOfHeads(ctx, heads, chainId, address), heads);
}

async function* transactionsOfHeads(
  ctx: GatewayContext,
  heads: AsyncIterableIterator<Head>,
  chainId: string,
  address: string | undefined,
): AsyncGenerator<NativeTransaction> {
  for await (const h of heads) {
    const loaders = ctx.live!.loaders();
    let token: string | null = null;
    do {
      const page = await loaders.evm.blockTransactionsPage.load({
        chainId,
        blockId: h.number,
        pageToken: token,
      });
      for (const tx of page.items) {
        const to = tx.to?.address?.toLowerCase();
        if (!address || tx.from.address.toLowerCase() === address || to === address) yield tx;
      }
      token = page.nextPageToken;
    } while (token);
  }
}

async function* icmStatusOf(
  ctx: GatewayContext,
  messageId: string,
  everyMs: number,
): AsyncGenerator<IcmMessage> {
  let last: string | undefined;
  for (;;) {
    const m = await ctx.live!.loaders().icm.message.load(messageId);
    if (m.status !== last) {
      last = m.status;
      yield branded({ ...m });
    }
    if (m.status !== 'pending') return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

builder.subscriptionType({
  description:
    'Live data, over Server-Sent Events (`accept: text/event-stream`) or graphql-ws (`/graphql`).',
});

builder.subscriptionFields((t) => ({
  newBlocks: t.field({
    type: BlockRef,
    description:
      'Every new block of a followed EVM chain, in order, each once; nested fields resolve as in a query.',
    args: argTable(t.arg, {
      chainId: ['String!', 'EVM chain id (decimal), one the gateway follows live.'],
    }),
    subscribe: (_root, args, ctx) => headsOf(ctx, parseChainId(args.chainId, 'chainId')),
    resolve: (head, _args, ctx) => blockOfHead(ctx, head as unknown as Head),
  }),
  newTransactions: t.field({
    type: TransactionRef,
    description:
      'Transactions of each new block of a followed chain, in block order; with `address`, only those from or to it.',
    args: argTable(t.arg, {
      chainId: ['String!', 'EVM chain id (decimal), one the gateway follows live.'],
      address: ['String', 'EVM address (0x + 40 hex): only transactions from or to it.'],
    }),
    subscribe: (_root, args, ctx) =>
      transactionsOf(
        ctx,
        parseChainId(args.chainId, 'chainId'),
        args.address ? parseEvmAddress(args.address, 'address') : undefined,
      ),
    resolve: (tx) => tx as unknown as NativeTransaction,
  }),
  icmMessageStatus: t.field({
    type: IcmMessageRef,
    description:
      'An interchain message now and each time its status changes (pending → delivered); ends once delivered.',
    args: argTable(t.arg, {
      messageId: ['String!', 'ICM message id (32 bytes of hex).'],
    }),
    subscribe: (_root, args, ctx) => {
      const id = parseMessageId(args.messageId, 'messageId');
      if (!ctx.live) throw badInput('messageId', 'Live data is not configured on this gateway.');
      return icmStatusOf(ctx, id, ctx.live.pollMs);
    },
    resolve: (m) => m as unknown as IcmMessage,
  }),
}));
