/**
 * The Data API's webhook operations the gateway uses (the spec's `Webhooks` tag): createWebhook
 * (POST /v1/webhooks, 201), listWebhooks (GET /v1/webhooks), addAddressesToWebhook and
 * removeAddressesFromWebhook (PATCH / DELETE /v1/webhooks/{id}/addresses, body `{addresses}`) and
 * getSharedSecret (GET /v1/webhooks:getSharedSecret). Registration is a background task of one replica:
 * these calls stay out of the cache, the request budgets and the breakers.
 */
export interface WebhookInfo {
  id: string;
  url: string;
  chainId: string;
  status: 'active' | 'inactive';
  eventType: string;
  metadata?: { addresses?: string[] };
}

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

export function createWebhookApi(options: {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}): WebhookApi {
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.apiKey) headers['x-glacier-api-key'] = options.apiKey;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await res.text();
    if (!res.ok)
      throw new WebhookApiError(res.status, `${method} ${path.split('?')[0]}: HTTP ${res.status}`);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new WebhookApiError(502, `${method} ${path.split('?')[0]}: not JSON`);
    }
  };
  const info = (raw: unknown): WebhookInfo => {
    const w = raw as WebhookInfo;
    if (typeof w?.id !== 'string' || typeof w.chainId !== 'string')
      throw new WebhookApiError(502, 'a webhook without id or chainId');
    return w;
  };
  const enc = encodeURIComponent;
  return {
    sharedSecret: async () => {
      const r = (await call('GET', '/v1/webhooks:getSharedSecret')) as { secret?: unknown };
      if (typeof r?.secret !== 'string' || r.secret === '')
        throw new WebhookApiError(502, 'getSharedSecret: no secret');
      return r.secret;
    },
    list: async (maxPages = 10) => {
      const out: WebhookInfo[] = [];
      let token: string | undefined;
      for (let page = 0; page < maxPages; page++) {
        const q = `?pageSize=100${token ? `&pageToken=${enc(token)}` : ''}`;
        const r = (await call('GET', `/v1/webhooks${q}`)) as {
          webhooks?: unknown[];
          nextPageToken?: string;
        };
        for (const w of r?.webhooks ?? []) out.push(info(w));
        token = r?.nextPageToken || undefined;
        if (!token) break;
      }
      return out;
    },
    create: async (chainId, url, addresses) =>
      info(
        await call('POST', '/v1/webhooks', {
          eventType: 'address_activity',
          url,
          chainId,
          name: 'graphql-gateway',
          description: 'addressActivity subscriptions of the GraphQL gateway',
          metadata: { addresses },
        }),
      ),
    addAddresses: async (id, addresses) =>
      void (await call('PATCH', `/v1/webhooks/${enc(id)}/addresses`, { addresses })),
    removeAddresses: async (id, addresses) =>
      void (await call('DELETE', `/v1/webhooks/${enc(id)}/addresses`, { addresses })),
  };
}
