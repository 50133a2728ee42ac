import type { GatewayContext } from '../../context.js';
import { badInput, gqlError } from '../../errors.js';
import { IcmNotFoundError, type IcmUpdate, watchIcm } from '../../live/icm-watch.js';
import type { RequestScope } from '../../telemetry/request-scope.js';
import { isUpstreamStatus } from '../../upstream/errors.js';
import type { IcmMessage } from '../../upstream/schemas/icm.js';
import { builder } from '../builder.js';
import { exposed, ref } from '../expose.js';
import { branded, IcmMessageRef, parseMessageId } from './icm-message.js';

/**
 * `icmMessage` as a subscription: a message's delivery status each time it changes, ending once it is
 * delivered (src/live/icm-watch.ts says where each status comes from).
 */
const DeliveryStatusEnum = builder.enumType('IcmDeliveryStatus', {
  description: 'Where an interchain message is, as the subscription sees it move.',
  values: {
    SENT: { description: 'Sent on the source chain; not yet delivered.' },
    FAILED: {
      description:
        'Received on the destination chain, but its execution reverted (Teleporter lets it be retried).',
    },
    DELIVERED: { description: 'Delivered and executed on the destination chain: final.' },
  } as const,
});

const SeenByEnum = builder.enumType('IcmUpdateSource', {
  description: 'Where a status change was seen.',
  values: {
    NODE: { description: "The destination chain's Teleporter receipt, on the followed node." },
    DATA_API: { description: "The Data API's message." },
  } as const,
});

const IcmUpdateRef = builder.objectRef<IcmUpdate>('IcmMessageUpdate').implement({
  description: "One change of an interchain message's delivery status.",
  fields: (t) => ({
    ...exposed(t, {
      messageId: ['String', '32 bytes of hex, no 0x.'],
      status: ref(DeliveryStatusEnum, 'The status it moved to.'),
      seenBy: ref(SeenByEnum, 'Where the change was seen.'),
      head: [
        'BigDecimal?',
        "The followed chain's head when it was seen; null when neither chain is followed.",
      ],
      destinationTransactionHash: [
        'String?',
        'The delivering transaction on the destination chain, once known.',
      ],
    }),
    final: t.boolean({
      description: 'True on the last update (DELIVERED): the stream ends after it.',
      resolve: (u) => u.status === 'DELIVERED',
    }),
    message: t.field({
      type: IcmMessageRef,
      nullable: true,
      description:
        "The Data API's message at that moment (null when the node saw the change first).",
      resolve: (u) => (u.message ? branded({ ...u.message } as IcmMessage) : null),
    }),
  }),
});

/** A subscription's poll ran out of its client's budget: the stream ends with RATE_LIMITED. */
class PollBudgetSpent extends Error {
  override name = 'PollBudgetSpent';
  constructor(
    readonly retryAfterSec: number,
    readonly perMinute: number,
  ) {
    super('budget spent');
  }
}

/** Who a subscription's request is, through `identify` (the budgets' identifier or the gate's). */
function clientOf<T>(ctx: GatewayContext, identify: (h: Headers, p: string | undefined) => T): T {
  const server = ctx as unknown as {
    request?: Request;
    req?: { socket?: { remoteAddress?: string } };
  };
  return identify(server.request?.headers ?? new Headers(), server.req?.socket?.remoteAddress);
}

/**
 * The stream, with its failures turned into coded errors. Each Data API read runs in a scope of its own
 * and its CUs are charged to the subscriber's budget as they are spent (a read the shared cache answers
 * costs 0, so subscribers of one message pay about one upstream read per head between them); a poll that
 * finds the budget spent ends the stream with RATE_LIMITED, so no client makes the gateway poll beyond
 * its budget. The client's place (ICM_SUBSCRIPTIONS_PER_CLIENT) is given back when the stream ends.
 */
function updatesOf(
  ctx: GatewayContext,
  messageId: string,
  release: () => void,
): AsyncIterableIterator<IcmUpdate> {
  const live = ctx.live!;
  const icm = live.icm;
  const client = icm ? clientOf(ctx, icm.identify) : [];
  const load = async (id: string) => {
    const scope: RequestScope = {
      requestId: `icm-poll:${id}`,
      startedAt: Date.now(),
      upstreamCalls: 0,
      upstreamRetries: 0,
      upstreamCu: 0,
    };
    const read = await live
      .loaders(scope)
      .icm.message.load(id)
      .then(
        (m) => ({ m }),
        (e: unknown) => ({ e }),
      );
    const verdict = await icm?.spend?.(client, scope.upstreamCu ?? 0);
    if (verdict && !verdict.ok) throw new PollBudgetSpent(verdict.retryAfterSec, verdict.perMinute);
    if ('e' in read) throw read.e;
    return read.m;
  };
  const inner = watchIcm(
    {
      feed: live.feed,
      activity: live.activity?.feed,
      load,
      isNotFound: (e) => isUpstreamStatus(e, 404),
      isFatal: (e) => e instanceof PollBudgetSpent,
      pollMs: live.pollMs,
      notFoundMs: 60_000,
    },
    messageId,
  );
  const it: AsyncIterableIterator<IcmUpdate> = {
    [Symbol.asyncIterator]: () => it,
    next: async () => {
      try {
        const r = await inner.next();
        if (r.done) release();
        return r;
      } catch (e) {
        release();
        if (e instanceof IcmNotFoundError)
          throw gqlError('NOT_FOUND', `ICM message ${messageId} is not known to the Data API.`);
        if (e instanceof PollBudgetSpent)
          throw gqlError(
            'RATE_LIMITED',
            `This client's budget of ${e.perMinute} compute units a minute is spent by its subscriptions' reads; retry after ${e.retryAfterSec} s.`,
            { retryAfterSec: e.retryAfterSec, budget: 'client-per-minute' },
          );
        throw e;
      }
    },
    return: () => {
      release();
      return inner.return!();
    },
  };
  return it;
}

builder.subscriptionFields((t) => ({
  icmMessage: t.field({
    type: IcmUpdateRef,
    description:
      "An interchain message's delivery status now and each time it changes (SENT, FAILED, DELIVERED); ends once delivered. From the destination chain's Teleporter receipts when that chain is followed live, and from the Data API at the head cadence.",
    args: {
      messageId: t.arg.string({ required: true, description: 'ICM message id (32 bytes of hex).' }),
    },
    subscribe: (_root, args, ctx) => {
      const id = parseMessageId(args.messageId, 'messageId').replace(/^0x/, '');
      if (!ctx.live) throw badInput('messageId', 'Live data is not configured on this gateway.');
      const gate = ctx.live.icm?.gate;
      const release = gate ? gate.enter(clientOf(ctx, gate.identify)) : () => {};
      if (!release)
        throw gqlError(
          'TOO_MANY_SUBSCRIPTIONS',
          `This client holds ${gate!.perClient} icmMessage subscriptions, the most one client may.`,
          { max: gate!.perClient },
        );
      return updatesOf(ctx, id, release);
    },
    resolve: (u) => u as unknown as IcmUpdate,
  }),
}));
