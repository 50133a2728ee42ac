import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActivityBus, WebhookOutcome } from './activity-bus.js';
import {
  deliverySchema,
  eventOfDelivery,
  SIGNATURE_HEADER,
  signatureValid,
} from './webhook-payload.js';

/**
 * The route the Data API posts `address_activity` deliveries to. Nothing here executes GraphQL: a
 * delivery is checked (POST, JSON, within the body limit, signed with the shared secret, one of our
 * webhook ids, not replayed), turned into the transaction's activity event and published on the bus,
 * which drops it when the node already delivered the transaction.
 *
 * Statuses: 401 unsigned or a bad signature; 404 a webhook id that is not ours; 409 a message id seen
 * before, or a block at least the dedupe window below the activity cursor (the message ids before it are
 * forgotten, so it cannot be told from a replay); 400 a signed body that is not a delivery; 503 no shared
 * secret yet (the Data API retries; the request causes no read of it); 200 otherwise, `outcome` saying
 * whether it was delivered.
 */
export interface WebhookReceiverOptions {
  bus: ActivityBus;
  /** The chain a webhook id of ours watches, or undefined. */
  chainOf(webhookId: string): Promise<string | undefined>;
  /** The shared secret as last read, or undefined; it never reads (webhook-secret.ts reads in the background). */
  secret(): string | undefined;
  /** Told of a bad signature (the secret may have been rotated). */
  onBadSignature?(): void;
  head(chainId: string): string | undefined;
  maxBodyBytes: number;
  onOutcome?(outcome: string): void;
}

const send = (res: ServerResponse, status: number, body: unknown, extra = {}) => {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
    ...extra,
  });
  res.end(text);
};
const refuse = (res: ServerResponse, status: number, code: string, message: string, extra = {}) =>
  send(res, status, { errors: [{ message, extensions: { code } }] }, extra);

class TooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        return reject(new TooLarge());
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const STATUS: Record<WebhookOutcome, [number, string] | undefined> = {
  delivered: undefined,
  duplicate: undefined,
  replayed: [409, 'REPLAYED'],
  stale: [409, 'OUTSIDE_REPLAY_WINDOW'],
};

export function createWebhookReceiver(options: WebhookReceiverOptions) {
  const count = (outcome: string) => options.onOutcome?.(outcome);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') {
      count('method');
      return refuse(res, 405, 'METHOD_NOT_ALLOWED', 'Only POST is accepted here.', {
        allow: 'POST',
      });
    }
    if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
      count('type');
      return refuse(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Expected application/json.');
    }
    const length = req.headers['content-length'];
    if (length !== undefined && (!/^\d+$/.test(length) || Number(length) > options.maxBodyBytes)) {
      count('size');
      const bad = !/^\d+$/.test(length);
      return refuse(
        res,
        bad ? 400 : 413,
        bad ? 'BAD_REQUEST' : 'REQUEST_ENTITY_TOO_LARGE',
        bad ? 'Content-Length header is invalid.' : 'Request body too large',
        { connection: 'close' },
      );
    }
    let body: Buffer;
    try {
      body = await readBody(req, options.maxBodyBytes);
    } catch (e) {
      count('size');
      if (e instanceof TooLarge)
        return refuse(res, 413, 'REQUEST_ENTITY_TOO_LARGE', 'Request body too large', {
          connection: 'close',
        });
      throw e;
    }
    const header = req.headers[SIGNATURE_HEADER];
    if (typeof header !== 'string' || header === '') {
      count('unsigned');
      return refuse(res, 401, 'UNAUTHENTICATED', `The ${SIGNATURE_HEADER} header is missing.`);
    }
    const secret = options.secret();
    if (!secret) {
      count('no-secret');
      return refuse(res, 503, 'UNAVAILABLE', 'No shared secret yet.', { 'retry-after': '5' });
    }
    if (!signatureValid(secret, body, header)) {
      count('bad-signature');
      options.onBadSignature?.();
      return refuse(res, 401, 'UNAUTHENTICATED', 'The signature does not match the body.');
    }
    let parsed: ReturnType<typeof deliverySchema.safeParse>;
    try {
      parsed = deliverySchema.safeParse(JSON.parse(body.toString('utf8')));
    } catch {
      count('malformed');
      return refuse(res, 400, 'BAD_REQUEST', 'The body is not JSON.');
    }
    if (!parsed.success) {
      count('malformed');
      const where = parsed.error.issues[0]?.path.join('.') || 'body';
      return refuse(res, 400, 'BAD_REQUEST', `Not an address_activity delivery (${where}).`);
    }
    const d = parsed.data;
    const chainId = await options.chainOf(d.webhookId);
    if (chainId === undefined) {
      count('unknown-webhook');
      return refuse(res, 404, 'NOT_FOUND', 'No such webhook here.');
    }
    const declared = d.event.transaction.chainId;
    if (declared !== undefined && declared !== chainId) {
      count('malformed');
      return refuse(res, 400, 'BAD_REQUEST', 'The delivery names another chain than its webhook.');
    }
    const event = eventOfDelivery(chainId, d);
    const outcome = await options.bus.publishWebhook(
      event,
      d.messageId,
      options.head(chainId) ?? event.blockNumber,
    );
    count(outcome);
    const refused = STATUS[outcome];
    if (refused)
      return refuse(
        res,
        refused[0],
        refused[1],
        outcome === 'replayed'
          ? 'This message was received before.'
          : 'The block is older than the replay window.',
      );
    send(res, 200, { outcome });
  };
}
