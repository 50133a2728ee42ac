import type { GatewayContext } from '../../context.js';
import { badInput, gqlError } from '../../errors.js';
import { SlowConsumerError } from '../../live/feed.js';
import type { Head } from '../../live/head.js';
import { eventIdOf, headsAfter, ResumeGapError, resumePoint } from '../../live/resume.js';
import { markEvent } from '../../live/use-event-ids.js';
import type { EvmBlock, NativeTransaction } from '../../upstream/schemas/evm.js';
import type { IcmMessage } from '../../upstream/schemas/icm.js';
import { argTable, LIVE_CHAIN_ID_ARG } from '../arg-table.js';
import { builder } from '../builder.js';
import { parseChainId, parseEvmAddress } from '../inputs.js';
import { BlockRef, headerBlock, notIndexedYet } from './block.js';
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
 * Heads of one chain (from `after` when given), with a slow consumer's end or a resume point no longer
 * kept turned into a coded error. A plain iterator, not an async generator: a client that leaves calls
 * `return()` while a `next()` waits for the next block, and a generator would queue that return (the
 * subscriber stays counted) until the block comes.
 */
function headsOf(
  ctx: GatewayContext,
  chainId: string,
  after?: bigint,
): AsyncIterableIterator<Head> {
  const feed = liveOf(ctx, chainId).feed;
  const it = after === undefined ? feed.subscribe(chainId) : headsAfter(feed, chainId, after);
  const out: AsyncIterableIterator<Head> = {
    [Symbol.asyncIterator]: () => out,
    next: async () => {
      try {
        return await it.next();
      } catch (e) {
        if (e instanceof SlowConsumerError)
          throw gqlError('SLOW_CONSUMER', `Dropped: ${e.message}; subscribe again.`);
        if (e instanceof ResumeGapError)
          throw gqlError('RESUME_GAP', `Cannot resume: ${e.message}; subscribe without \`after\`.`);
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

/**
 * The block of a head as the Data API indexes it; while it is not indexed there (or the Data API fails),
 * the node's header, whose fields the header lacks answer with the Data API's error, never a made-up zero.
 */
async function blockOfHead(ctx: GatewayContext, h: Head): Promise<EvmBlock> {
  let why: unknown;
  try {
    const b = await ctx.live!.loaders().evm.block.load({ chainId: h.chainId, blockId: h.number });
    if (b.blockHash.toLowerCase() === h.hash) return b;
    why = notIndexedYet(h);
  } catch (e) {
    why = e;
  }
  return headerBlock(h, why);
}

/** newBlocks: every head once, from `after` (or SSE's Last-Event-ID) when given; each event names its id. */
function newBlocksOf(
  ctx: GatewayContext,
  rawChainId: string,
  rawAfter: string | null | undefined,
): AsyncIterableIterator<Head> {
  const chainId = parseChainId(rawChainId, 'chainId');
  let after: bigint | undefined;
  if (rawAfter != null) {
    after = resumePoint(chainId, rawAfter);
    if (after === undefined)
      throw badInput(
        'after',
        'after: a block number (decimal), or chainId:number as in an event id.',
      );
  } else {
    const request = (ctx as { request?: Request }).request;
    after = resumePoint(chainId, request?.headers.get('last-event-id'));
  }
  const heads = headsOf(ctx, chainId, after);
  return endsAtOnce(markedHeads(ctx, heads), heads);
}

async function* markedHeads(
  ctx: GatewayContext,
  heads: AsyncIterableIterator<Head>,
): AsyncGenerator<Head> {
  for await (const h of heads) {
    markEvent(ctx, eventIdOf(h));
    yield h;
  }
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
      chainId: LIVE_CHAIN_ID_ARG,
      after: [
        'String',
        'Resume: only blocks numbered above this one (decimal), first those the gateway still keeps (the last 256). Over SSE the `Last-Event-ID` header does the same.',
      ],
    }),
    subscribe: (_root, args, ctx) => newBlocksOf(ctx, args.chainId, args.after),
    resolve: (head, _args, ctx) => blockOfHead(ctx, head as unknown as Head),
  }),
  newTransactions: t.field({
    type: TransactionRef,
    description:
      'Transactions of each new block of a followed chain, in block order; with `address`, only those from or to it.',
    args: argTable(t.arg, {
      chainId: LIVE_CHAIN_ID_ARG,
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
