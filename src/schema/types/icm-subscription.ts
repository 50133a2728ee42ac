import type { GatewayContext } from '../../context.js';
import { badInput, gqlError } from '../../errors.js';
import { IcmNotFoundError, type IcmUpdate, watchIcm } from '../../live/icm-watch.js';
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

/** The stream, with its failures turned into coded errors. */
function updatesOf(ctx: GatewayContext, messageId: string): AsyncIterableIterator<IcmUpdate> {
  const live = ctx.live!;
  const inner = watchIcm(
    {
      feed: live.feed,
      activity: live.activity?.feed,
      load: (id) => live.loaders().icm.message.load(id),
      isNotFound: (e) => isUpstreamStatus(e, 404),
      pollMs: live.pollMs,
      notFoundMs: 60_000,
    },
    messageId,
  );
  const it: AsyncIterableIterator<IcmUpdate> = {
    [Symbol.asyncIterator]: () => it,
    next: async () => {
      try {
        return await inner.next();
      } catch (e) {
        if (e instanceof IcmNotFoundError)
          throw gqlError('NOT_FOUND', `ICM message ${messageId} is not known to the Data API.`);
        throw e;
      }
    },
    return: () => inner.return!(),
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
      return updatesOf(ctx, id);
    },
    resolve: (u) => u as unknown as IcmUpdate,
  }),
}));
