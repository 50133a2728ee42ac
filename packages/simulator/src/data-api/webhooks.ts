import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { EvmBlock, EvmTx, World } from '../world/index.js';
import { Created, type Ctx } from './ctx.js';
import { badRequest, notFound } from './errors.js';
import type { Route } from './router.js';
import { payloads } from './webhook-payloads.js';

/**
 * The Data API's webhooks (the spec's `Webhooks` operations, its `address_activity` event and its
 * `x-speakeasy-webhooks` signature: `x-signature`, base64 HMAC-SHA256 of the body under the account's
 * shared secret). One account: one secret, every webhook. When blocks land (`/_sim/advance`) each active
 * webhook gets one delivery per transaction that touches one of its addresses, posted to its URL.
 * The spec documents no retry policy; the simulator retries a failed delivery RETRIES times, waiting
 * RETRY_MS × 4^n, and logs every outcome (`deliveries()`, `GET /_sim/webhooks`).
 */
export interface SimWebhook {
  id: string;
  url: string;
  chainId: string;
  status: 'active' | 'inactive';
  createdAt: number;
  name: string;
  description: string;
  eventType: 'address_activity';
  includeInternalTxs: boolean;
  includeLogs: boolean;
  addresses: Set<string>;
}

export interface SimDelivery {
  webhookId: string;
  messageId: string;
  txHash: string;
  blockNumber: number;
  attempts: number;
  /** The receiver's last status (0: no answer). */
  status: number;
}

const RETRIES = 3;
const RETRY_MS = 250;
const MAX_LOG = 2_000;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export class SimWebhooks {
  secret = randomBytes(24).toString('base64url');
  readonly hooks = new Map<string, SimWebhook>();
  readonly #log: SimDelivery[] = [];

  constructor(private readonly world: World) {}

  deliveries(): SimDelivery[] {
    return [...this.#log];
  }

  /** Delivers the blocks' matching transactions to every active webhook of the chain; resolves when all are answered. */
  async deliverBlocks(chainId: string, blocks: readonly EvmBlock[]): Promise<SimDelivery[]> {
    const chain = this.world.chain(chainId);
    if (!chain) return [];
    const sends: Promise<SimDelivery>[] = [];
    for (const hook of this.hooks.values()) {
      if (hook.status !== 'active' || hook.chainId !== String(chain.info.chainId)) continue;
      for (const block of blocks)
        for (const [tx, body] of payloads(chain, block, hook))
          sends.push(this.#send(hook, tx, body));
    }
    return Promise.all(sends);
  }

  /** Posts one signed delivery (the body exactly as signed), retrying on a non-2xx answer or no answer. */
  async #send(hook: SimWebhook, tx: EvmTx, body: Record<string, unknown>): Promise<SimDelivery> {
    const text = JSON.stringify(body);
    const signature = createHmac('sha256', this.secret).update(text).digest('base64');
    const d: SimDelivery = {
      webhookId: hook.id,
      messageId: String(body.messageId),
      txHash: tx.hash,
      blockNumber: tx.blockNumber,
      attempts: 0,
      status: 0,
    };
    this.#log.push(d);
    if (this.#log.length > MAX_LOG) this.#log.shift();
    for (let n = 0; n <= RETRIES; n++) {
      if (n > 0) await new Promise((r) => setTimeout(r, RETRY_MS * 4 ** (n - 1)));
      d.attempts++;
      try {
        const res = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-signature': signature },
          body: text,
          signal: AbortSignal.timeout(5_000),
        });
        await res.arrayBuffer();
        d.status = res.status;
        // A 4xx other than 429 is the receiver's final word (a bad signature will not get better).
        if (res.ok || (res.status >= 400 && res.status < 500 && res.status !== 429)) break;
      } catch {
        d.status = 0;
      }
    }
    return d;
  }

  routes(): Route<Ctx>[] {
    const find = (ctx: Ctx) => {
      const h = this.hooks.get(ctx.params.id!);
      if (!h) throw notFound(`Webhook ${ctx.params.id} not found`);
      return h;
    };
    return [
      {
        method: 'POST',
        template: '/v1/webhooks',
        handler: (ctx) => {
          const b = jsonBody(ctx);
          const errors: string[] = [];
          if (b.eventType !== 'address_activity')
            errors.push('eventType must be address_activity (the only event the simulator serves)');
          if (typeof b.url !== 'string' || !/^https?:\/\/\S+$/.test(b.url))
            errors.push('url must be a URL address');
          if (typeof b.chainId !== 'string' || !ctx.world.chain(b.chainId))
            errors.push('chainId must be a supported EVM chain id');
          const meta = b.metadata as { addresses?: unknown } | undefined;
          const addresses = addressList(meta?.addresses, errors, 'metadata.addresses');
          if (errors.length) throw badRequest(...errors);
          const hook: SimWebhook = {
            id: randomUUID(),
            url: b.url as string,
            chainId: b.chainId as string,
            status: 'active',
            createdAt: Math.floor(Date.now() / 1000),
            name: typeof b.name === 'string' ? b.name : '',
            description: typeof b.description === 'string' ? b.description : '',
            eventType: 'address_activity',
            includeInternalTxs: b.includeInternalTxs === true,
            includeLogs: b.includeLogs === true,
            addresses: new Set(addresses),
          };
          this.hooks.set(hook.id, hook);
          return new Created(shape(hook));
        },
      },
      {
        method: 'GET',
        template: '/v1/webhooks',
        handler: (ctx) => {
          const size = ctx.pageSize(1, 100, 10);
          const status = ctx.enumOf('status', ['active', 'inactive'] as const);
          const offset = offsetOf(ctx);
          ctx.check();
          const all = [...this.hooks.values()].filter((h) => !status || h.status === status);
          const page = all.slice(offset, offset + size);
          return {
            webhooks: page.map(shape),
            ...(offset + size < all.length ? { nextPageToken: String(offset + size) } : {}),
          };
        },
      },
      { method: 'GET', template: '/v1/webhooks/:id', handler: (ctx) => shape(find(ctx)) },
      {
        method: 'DELETE',
        template: '/v1/webhooks/:id',
        handler: (ctx) => {
          const h = find(ctx);
          h.status = 'inactive';
          return shape(h);
        },
      },
      {
        method: 'PATCH',
        template: '/v1/webhooks/:id',
        handler: (ctx) => {
          const h = find(ctx);
          const b = jsonBody(ctx);
          if (b.status !== undefined && b.status !== 'active' && b.status !== 'inactive')
            throw badRequest('status must be one of the following values: active, inactive');
          if (b.url !== undefined && (typeof b.url !== 'string' || !/^https?:\/\/\S+$/.test(b.url)))
            throw badRequest('url must be a URL address');
          if (typeof b.name === 'string') h.name = b.name;
          if (typeof b.description === 'string') h.description = b.description;
          if (typeof b.url === 'string') h.url = b.url;
          if (b.status === 'active' || b.status === 'inactive') h.status = b.status;
          if (typeof b.includeInternalTxs === 'boolean')
            h.includeInternalTxs = b.includeInternalTxs;
          if (typeof b.includeLogs === 'boolean') h.includeLogs = b.includeLogs;
          return shape(h);
        },
      },
      ...(['PATCH', 'DELETE'] as const).map((method) => ({
        method,
        template: '/v1/webhooks/:id/addresses',
        handler: (ctx: Ctx) => {
          const h = find(ctx);
          const errors: string[] = [];
          const list = addressList(jsonBody(ctx).addresses, errors, 'addresses');
          if (errors.length) throw badRequest(...errors);
          for (const a of list) method === 'PATCH' ? h.addresses.add(a) : h.addresses.delete(a);
          return shape(h);
        },
      })),
      {
        method: 'GET',
        template: '/v1/webhooks/:id/addresses',
        handler: (ctx) => {
          const h = find(ctx);
          const size = ctx.pageSize(1, 100, 10);
          const offset = offsetOf(ctx);
          ctx.check();
          const all = [...h.addresses];
          return {
            addresses: all.slice(offset, offset + size),
            totalAddresses: all.length,
            ...(offset + size < all.length ? { nextPageToken: String(offset + size) } : {}),
          };
        },
      },
      {
        method: 'POST',
        template: '/v1/webhooks:generateOrRotateSharedSecret',
        handler: () => {
          this.secret = randomBytes(24).toString('base64url');
          return new Created({ secret: this.secret });
        },
      },
      {
        method: 'GET',
        template: '/v1/webhooks:getSharedSecret',
        handler: () => ({ secret: this.secret }),
      },
    ];
  }
}

function jsonBody(ctx: Ctx): Record<string, unknown> {
  let b: unknown;
  try {
    b = ctx.req.rawBody.trim() === '' ? {} : JSON.parse(ctx.req.rawBody);
  } catch (err) {
    throw badRequest(`Invalid JSON body: ${(err as Error).message}`);
  }
  if (typeof b !== 'object' || b === null || Array.isArray(b))
    throw badRequest('The request body must be a JSON object');
  return b as Record<string, unknown>;
}

function addressList(v: unknown, errors: string[], name: string): string[] {
  if (!Array.isArray(v) || v.some((a) => typeof a !== 'string' || !ADDRESS.test(a))) {
    errors.push(`each value in ${name} must be an Ethereum address`);
    return [];
  }
  return v.map((a: string) => a.toLowerCase());
}

function offsetOf(ctx: Ctx): number {
  const t = ctx.q('pageToken');
  if (t === undefined) return 0;
  if (!/^\d{1,9}$/.test(t)) throw badRequest('Invalid page token');
  return Number(t);
}

function shape(h: SimWebhook) {
  const { addresses, ...rest } = h;
  return { ...rest, metadata: { addresses: [...addresses] } };
}
