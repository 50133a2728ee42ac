import type { GatewayContext } from '../../context.js';
import { badInput, gqlError } from '../../errors.js';
import { ACTIVITY_KINDS, type ActivityKind, type ActivityTransfer } from '../../live/activity.js';
import { type DeliveredActivity, ResumeTooOldError } from '../../live/activity-feed.js';
import { SlowConsumerError } from '../../live/feed.js';
import { FollowShareError } from '../../live/follow-shares.js';
import { activityEventIds } from '../../live/use-activity-event-ids.js';
import { argTable, LIVE_CHAIN_ID_ARG } from '../arg-table.js';
import { builder } from '../builder.js';
import { exposed, ref } from '../expose.js';
import { parseBlockNumber, parseChainId, parseEvmAddress } from '../inputs.js';
import { AddressRef, addressFields, addressOn } from './address.js';
import { BlockRef, loadBlock } from './block.js';
import { loadTransaction, TransactionRef } from './transaction.js';

/**
 * `addressActivity`: what followed addresses send and receive, as it lands in blocks (src/live/activity*).
 * Events come from the node the operator follows (LIVE_WS), one per transaction, in block order, once.
 */
export const ActivityKindEnum = builder.enumType('ActivityKind', {
  description: 'What an activity event moved.',
  values: {
    NATIVE: { description: 'The native token (a transaction from or to the address).' },
    ERC20: { description: 'An ERC-20 Transfer (three topics, the amount in data).' },
    ERC721: { description: 'An ERC-721 Transfer (the token id indexed).' },
    ERC1155: { description: 'An ERC-1155 TransferSingle or TransferBatch item.' },
  } as const,
});

type TransferShape = ActivityTransfer & { chainId: string };

const ActivityTransferRef = builder.objectRef<TransferShape>('ActivityTransfer').implement({
  description: 'One movement of value inside an activity event.',
  fields: (t) => ({
    ...exposed(t, {
      kind: ref(ActivityKindEnum, 'What moved: the native token or a token standard.'),
    }),
    ...addressFields(t, {
      from: 'Sender (the zero address for a mint).',
      to: 'Recipient (the zero address for a burn).',
    }),
    ...exposed(t, {
      value: ['BigDecimal', 'Wei for NATIVE, token units for ERC-20 and ERC-1155, 1 for ERC-721.'],
    }),
    token: t.field({
      type: AddressRef,
      nullable: true,
      description: 'The token contract; null for NATIVE.',
      resolve: (x) => (x.token ? addressOn(x.chainId, x.token) : null),
    }),
    ...exposed(t, {
      tokenId: ['BigDecimal?', 'The token id (ERC-721, ERC-1155); null otherwise.'],
      logIndex: ['Int?', "The log's index in its block; null for NATIVE."],
    }),
  }),
});

const AddressActivityRef = builder.objectRef<DeliveredActivity>('AddressActivityEvent').implement({
  description: 'One transaction that touches a followed address, as its block landed.',
  fields: (t) => ({
    chainId: t.exposeString('chainId', { description: 'EVM chain id, decimal.' }),
    head: t.expose('head', {
      type: 'BigDecimal',
      description: 'The chain head the gateway had seen when it read this block.',
    }),
    blockNumber: t.expose('blockNumber', {
      type: 'BigDecimal',
      description: 'The block; resume after it with `from`.',
    }),
    blockHash: t.exposeString('blockHash', {
      description: "The block's hash, as the node gave it.",
    }),
    blockTimestamp: t.expose('blockTimestamp', {
      type: 'Timestamp',
      description: 'When the block was proposed, Unix seconds.',
    }),
    block: t.field({
      type: BlockRef,
      nullable: true,
      description: 'The block as the Data API indexes it (an error while it is not indexed yet).',
      resolve: (e, _a, ctx) => loadBlock(ctx, { chainId: e.chainId, blockId: e.blockNumber }),
    }),
    transactionHash: t.exposeString('txHash', { description: 'The transaction, 0x-hex.' }),
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      description:
        'The transaction as the Data API indexes it (an error while it is not indexed yet).',
      resolve: (e, _a, ctx) => loadTransaction(ctx, { chainId: e.chainId, txHash: e.txHash }),
    }),
    from: t.field({
      type: AddressRef,
      description: "The transaction's sender.",
      resolve: (e) => addressOn(e.chainId, e.from),
    }),
    to: t.field({
      type: AddressRef,
      nullable: true,
      description: 'Null for a contract creation.',
      resolve: (e) => (e.to ? addressOn(e.chainId, e.to) : null),
    }),
    value: t.expose('value', { type: 'BigDecimal', description: 'Native value sent, wei.' }),
    transfersOmitted: t.int({
      description:
        "Transfers of the followed addresses left out of `transfers` (each event carries at most 256); the transaction's receipt has them all.",
      resolve: (e) => e.transfersOmitted ?? 0,
    }),
    transfers: t.field({
      type: [ActivityTransferRef],
      description: 'What moved to or from the followed addresses, in log order (NATIVE first).',
      resolve: (e) => e.transfers.map((x) => ({ ...x, chainId: e.chainId })),
    }),
  }),
});

interface Followed {
  chainId: string;
  addresses: Set<string>;
  kinds: Set<ActivityKind>;
  /** Resume after this block (from the log)... */
  from: bigint | undefined;
  /** ...and, in the block after it, after this transaction index (an `activityId` resumes mid-block). */
  skipThrough: number | undefined;
}

/** `from` or `Last-Event-ID`: a block number, or an event's activityId (`<block>:<transaction index>`). */
function resumeOf(raw: string, argument: string): Pick<Followed, 'from' | 'skipThrough'> {
  const m = /^(\d{1,20}):(\d{1,9})$/.exec(raw.trim());
  if (!m) return { from: BigInt(parseBlockNumber(raw, argument)), skipThrough: undefined };
  const block = BigInt(parseBlockNumber(m[1]!, argument));
  if (block === 0n) return { from: undefined, skipThrough: undefined };
  return { from: block - 1n, skipThrough: Number(m[2]) };
}

/** The arguments checked before anything is followed (errors at subscribe time, not on the first event). */
function followedOf(
  ctx: GatewayContext,
  args: {
    chainId: string;
    addresses: readonly string[];
    kinds?: readonly ActivityKind[] | null;
    from?: string | null;
  },
): Followed {
  const chainId = parseChainId(args.chainId, 'chainId');
  const live = ctx.live;
  if (!live?.activity || !live.feed.configured(chainId))
    throw badInput('chainId', `Chain ${chainId} is not followed live (see the gateway's LIVE_WS).`);
  const max = live.activity.gate.maxAddresses;
  if (args.addresses.length === 0)
    throw badInput('addresses', 'addresses must name at least one address');
  if (args.addresses.length > max)
    throw badInput('addresses', `at most ${max} addresses per subscription`, { max });
  const addresses = new Set(args.addresses.map((a) => parseEvmAddress(a, 'addresses')));
  if (args.kinds && args.kinds.length === 0)
    throw badInput('kinds', 'kinds, when given, must name at least one kind');
  const lastEventId = (ctx as { request?: Request }).request?.headers.get('last-event-id');
  const resume =
    args.from != null
      ? resumeOf(args.from, 'from')
      : lastEventId
        ? resumeOf(lastEventId, 'Last-Event-ID')
        : { from: undefined, skipThrough: undefined };
  return {
    chainId,
    addresses,
    kinds: new Set<ActivityKind>(args.kinds ?? ACTIVITY_KINDS),
    ...resume,
  };
}

/**
 * The subscription's stream. Not an async generator: a generator waiting for its next event cannot be
 * returned until one arrives, so a client that leaves a quiet address would hold its place (and its
 * interest) until then. Here `return` ends the feed's iterator and frees the client's place at once.
 */
function activityOf(ctx: GatewayContext, f: Followed): AsyncIterableIterator<DeliveredActivity> {
  const activity = ctx.live!.activity!;
  const { gate } = activity;
  let inner: AsyncIterableIterator<DeliveredActivity> | undefined;
  let release: (() => void) | undefined;
  let started: Promise<void> | undefined;
  let closed = false;
  const finish = () => {
    closed = true;
    release?.();
    release = undefined;
    void inner?.return?.();
  };
  const start = async () => {
    const server = ctx as unknown as {
      request?: Request;
      req?: { socket?: { remoteAddress?: string } };
    };
    const client = gate.identify(
      server.request?.headers ?? new Headers(),
      server.req?.socket?.remoteAddress,
    );
    release = gate.enter(client);
    if (!release)
      throw gqlError(
        'TOO_MANY_SUBSCRIPTIONS',
        `This client holds ${gate.perClient} addressActivity subscriptions, the most one client may.`,
        { max: gate.perClient },
      );
    try {
      inner = await activity.feed.subscribe(f.chainId, f.addresses, f.kinds, f.from, client);
    } catch (e) {
      if (e instanceof FollowShareError) throw followShareError(e);
      if (e instanceof ResumeTooOldError)
        throw gqlError('RESUME_TOO_OLD', `Cannot resume after block ${f.from}: ${e.message}.`, {
          oldest: e.oldest ?? null,
        });
      throw e;
    }
    if (closed) finish();
  };
  const it: AsyncIterableIterator<DeliveredActivity> = {
    [Symbol.asyncIterator]: () => it,
    next: async () => {
      if (closed) return { value: undefined, done: true };
      try {
        started ??= start();
        await started;
        for (;;) {
          const r = await inner!.next();
          if (r.done) {
            finish();
            return r;
          }
          const e = r.value;
          // Resumed mid-block: the events of that block up to the last one seen were delivered before.
          if (
            f.skipThrough !== undefined &&
            f.from !== undefined &&
            BigInt(e.blockNumber) === f.from + 1n &&
            e.txIndex <= f.skipThrough
          )
            continue;
          activityEventIds.set(ctx, `${e.blockNumber}:${e.txIndex}`);
          return r;
        }
      } catch (e) {
        finish();
        if (e instanceof SlowConsumerError)
          throw gqlError('SLOW_CONSUMER', `Dropped: ${e.message}; resubscribe with from.`);
        if (e instanceof FollowShareError) throw followShareError(e);
        throw e;
      }
    },
    return: async () => {
      finish();
      return { value: undefined, done: true };
    },
  };
  return it;
}

/** A claim refused at subscribe time (FOLLOW_SHARE_EXCEEDED) or dropped later (INTEREST_DROPPED). */
function followShareError(e: FollowShareError) {
  return e.reason === 'DROPPED'
    ? gqlError(
        'INTEREST_DROPPED',
        `Ended: ${e.message}; resubscribe with fewer addresses, or with from.`,
      )
    : gqlError('FOLLOW_SHARE_EXCEEDED', `Refused: ${e.message}.`, {
        reason: e.reason,
        share: e.share,
      });
}

builder.subscriptionFields((t) => ({
  addressActivity: t.field({
    type: AddressActivityRef,
    description:
      'Transactions that touch any of `addresses` (native value, ERC-20/721/1155 transfers) as their blocks land on a followed chain: in block order, each once, across replicas. `from` resumes after a block from the activity log.',
    args: {
      ...argTable(t.arg, {
        chainId: LIVE_CHAIN_ID_ARG,
        addresses: [
          '[String]!',
          'EVM addresses (0x + 40 hex) to follow; at most ACTIVITY_MAX_ADDRESSES.',
        ],
      }),
      kinds: t.arg({
        type: [ActivityKindEnum],
        required: false,
        description: 'Only these kinds (default: all).',
      }),
      from: t.arg.string({
        required: false,
        description:
          "Resume: a block number (replay the events of the blocks after it first), or an event's `extensions.activityId` (after that event). Over SSE, the `Last-Event-ID` header does the same. RESUME_TOO_OLD past the log.",
      }),
    },
    subscribe: (_root, args, ctx) => activityOf(ctx, followedOf(ctx, args)),
    resolve: (e) => e as unknown as DeliveredActivity,
  }),
}));
