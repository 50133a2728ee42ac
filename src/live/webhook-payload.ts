import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import {
  type ActivityEvent,
  type ActivityKind,
  type ActivityTransfer,
  MAX_EVENT_TRANSFERS,
} from './activity.js';

/**
 * The Data API's `address_activity` webhook delivery (the spec's `webhooks.address_activity`,
 * WebhookAddressActivityResponse) and its signature: `x-signature` is the base64 HMAC-SHA256 of the raw
 * body under the account's shared secret (the spec's `x-speakeasy-webhooks`: type signature, hmac-sha256,
 * base64). Only the fields an activity event needs are read; a transaction's transfer lists are bounded.
 */
export const SIGNATURE_HEADER = 'x-signature';

/** Whether `header` is the body's signature under `secret`, compared in constant time. */
export function signatureValid(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header || header.length > 128) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(header.trim(), 'base64');
  if (given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

/** The signature the Data API (and the simulator) puts on `body`. */
export const signBody = (secret: string, body: string | Buffer): string =>
  createHmac('sha256', secret).update(body).digest('base64');

const hex = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`));
const address = hex(20);
const decimal = z.string().regex(/^\d{1,78}$/);
const transfer = z.object({
  from: address,
  to: address,
  value: decimal,
  tokenId: decimal.optional(),
  logIndex: z.number().int().nonnegative(),
  erc20Token: z.object({ address }).optional(),
  erc721Token: z.object({ address }).optional(),
  erc1155Token: z.object({ address }).optional(),
});
const MAX_LIST = 1_024;
const list = z.array(transfer).max(MAX_LIST).default([]);

export const deliverySchema = z.object({
  webhookId: z.string().min(1).max(128),
  eventType: z.literal('address_activity'),
  messageId: z.string().min(1).max(128),
  event: z.object({
    transaction: z.object({
      blockHash: hex(32),
      blockNumber: decimal,
      from: address,
      // A contract creation has no recipient: the Data API sends an empty string or the zero address.
      to: z.union([address, z.literal(''), z.null()]).optional(),
      txHash: hex(32),
      transactionIndex: z.number().int().nonnegative(),
      value: decimal,
      chainId: z.string().max(32).optional(),
      blockTimestamp: z.number().int().nonnegative(),
      erc20Transfers: list,
      erc721Transfers: list,
      erc1155Transfers: list,
    }),
  }),
});
export type WebhookDelivery = z.output<typeof deliverySchema>;

/** The delivery as the activity event the node would give for the same transaction. */
export function eventOfDelivery(chainId: string, d: WebhookDelivery): ActivityEvent {
  const tx = d.event.transaction;
  const from = tx.from.toLowerCase();
  const to = tx.to ? tx.to.toLowerCase() : null;
  const transfers: ActivityTransfer[] = [];
  if (tx.value !== '0' && tx.value.replace(/^0+/, '') !== '')
    transfers.push({
      kind: 'NATIVE',
      from,
      to: to ?? '',
      value: BigInt(tx.value).toString(),
      token: null,
      tokenId: null,
      logIndex: null,
    });
  const tokens: ActivityTransfer[] = [];
  const add = (
    kind: ActivityKind,
    items: WebhookDelivery['event']['transaction']['erc20Transfers'],
  ) => {
    for (const t of items) {
      const token = t.erc20Token ?? t.erc721Token ?? t.erc1155Token;
      tokens.push({
        kind,
        from: t.from.toLowerCase(),
        to: t.to.toLowerCase(),
        value: kind === 'ERC721' ? '1' : BigInt(t.value).toString(),
        token: token ? token.address.toLowerCase() : null,
        tokenId: kind === 'ERC20' || t.tokenId === undefined ? null : BigInt(t.tokenId).toString(),
        logIndex: t.logIndex,
      });
    }
  };
  add('ERC20', tx.erc20Transfers);
  add('ERC721', tx.erc721Transfers);
  add('ERC1155', tx.erc1155Transfers);
  tokens.sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0));
  transfers.push(...tokens);
  return {
    chainId,
    blockNumber: BigInt(tx.blockNumber).toString(),
    blockHash: tx.blockHash.toLowerCase(),
    blockTimestamp: tx.blockTimestamp,
    txHash: tx.txHash.toLowerCase(),
    txIndex: tx.transactionIndex,
    from,
    to,
    value: BigInt(tx.value).toString(),
    transfers: transfers.slice(0, MAX_EVENT_TRANSFERS),
    ...(transfers.length > MAX_EVENT_TRANSFERS
      ? { transfersOmitted: transfers.length - MAX_EVENT_TRANSFERS }
      : {}),
  };
}
