import { z } from 'zod';
import { UpstreamError } from '../upstream/errors.js';
import type { HttpClient } from '../upstream/http.js';

/**
 * The Data API's webhook operations the gateway uses (the spec's `Webhooks` tag): createWebhook
 * (POST /v1/webhooks, 201), listWebhooks (GET /v1/webhooks), addAddressesToWebhook and
 * removeAddressesFromWebhook (PATCH / DELETE /v1/webhooks/{id}/addresses, body `{addresses}`) and
 * getSharedSecret (GET /v1/webhooks:getSharedSecret). Registration is a background task of one replica:
 * its calls stay out of the cache and the client budgets, but go through the Data API's client like every
 * other call (breaker, pacing, the plan's compute units); the writes are not retried.
 */

export class WebhookApiError extends Error {
  override name = 'WebhookApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface WebhookApi {
  sharedSecret(): Promise<string>;
  /** Every webhook of the account (at most `maxPages` pages of 100). */
  list(maxPages?: number): Promise<WebhookInfo[]>;
  create(chainId: string, url: string, addresses: string[]): Promise<WebhookInfo>;
  addAddresses(id: string, addresses: string[]): Promise<void>;
  removeAddresses(id: string, addresses: string[]): Promise<void>;
}

const secretAnswer = z.object({ secret: z.string().min(1) });
/** A webhook as the Data API answers it (the fields every kind of webhook has; the rest is kept). */
const webhookAnswer = z.looseObject({
  id: z.string(),
  url: z.string(),
  chainId: z.string(),
  status: z.enum(['active', 'inactive']),
  eventType: z.string(),
  metadata: z.looseObject({ addresses: z.array(z.string()).optional() }).optional(),
});
export type WebhookInfo = z.output<typeof webhookAnswer>;
// The account may hold webhooks of other shapes: each is read on its own, and one that is not a
// webhook the gateway can read is left out rather than failing the list.
const listAnswer = z.looseObject({
  webhooks: z.array(z.unknown()),
  nextPageToken: z.string().nullish(),
});

/** The Data API's webhook operations over its HTTP client (the operator's key, its breaker and pacer). */
export function createWebhookApi(http: HttpClient): WebhookApi {
  // The registrar reads a status (404: the webhook is gone); any other failure is the upstream's.
  const asApiError = (what: string) => (e: unknown) => {
    if (e instanceof UpstreamError)
      throw new WebhookApiError(
        e.status ?? 502,
        `${what}: ${e.status ? `HTTP ${e.status}` : e.kind}`,
      );
    throw e;
  };
  const enc = encodeURIComponent;
  return {
    sharedSecret: async () =>
      (
        await http
          .getJson('/v1/webhooks:getSharedSecret', {}, secretAnswer)
          .catch(asApiError('getSharedSecret'))
      ).secret,
    list: async (maxPages = 10) => {
      const out: WebhookInfo[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < maxPages; page++) {
        const r = await http
          .getJson('/v1/webhooks', { pageSize: 100, pageToken }, listAnswer)
          .catch(asApiError('GET /v1/webhooks'));
        for (const raw of r.webhooks) {
          const w = webhookAnswer.safeParse(raw);
          if (w.success) out.push(w.data);
        }
        pageToken = r.nextPageToken || undefined;
        if (!pageToken) break;
      }
      return out;
    },
    create: async (chainId, url, addresses) =>
      http
        .sendJson(
          'POST',
          '/v1/webhooks',
          {
            eventType: 'address_activity',
            url,
            chainId,
            name: 'graphql-gateway',
            description: 'addressActivity subscriptions of the GraphQL gateway',
            metadata: { addresses },
          },
          webhookAnswer,
        )
        .catch(asApiError('POST /v1/webhooks')),
    addAddresses: async (id, addresses) =>
      void (await http
        .sendJson('PATCH', `/v1/webhooks/${enc(id)}/addresses`, { addresses }, z.unknown())
        .catch(asApiError('PATCH /v1/webhooks/:id/addresses'))),
    removeAddresses: async (id, addresses) =>
      void (await http
        .sendJson('DELETE', `/v1/webhooks/${enc(id)}/addresses`, { addresses }, z.unknown())
        .catch(asApiError('DELETE /v1/webhooks/:id/addresses'))),
  };
}
