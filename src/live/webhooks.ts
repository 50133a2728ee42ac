import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, type Registry } from 'prom-client';
import type { Config } from '../config.js';
import type { LineLevel } from '../telemetry/logger.js';
import type { HttpClient } from '../upstream/http.js';
import type { ActivityBus } from './activity-bus.js';
import type { HeadBus } from './bus.js';
import type { LiveFeed } from './feed.js';
import { createWebhookApi } from './webhook-api.js';
import { MemoryWebhookStore, RedisWebhookStore, WebhookRegistrar } from './webhook-registrar.js';
import { createWebhookReceiver } from './webhook-route.js';
import { createSecretReader } from './webhook-secret.js';

/** Where deliveries are received (the HTTP server sends this path here, past its path guard). */
export const WEBHOOK_PATH = '/webhooks/data-api';
/** How long the webhook ids are trusted before they are read again. */
const IDS_TTL_MS = 1_000;

export interface Webhooks {
  route: { path: string; handle(req: IncomingMessage, res: ServerResponse): Promise<void> };
  start(): void;
  stop(): Promise<void>;
}

export function createWebhooks(
  config: Config,
  options: {
    bus: ActivityBus;
    heads: HeadBus;
    feed: LiveFeed;
    registers: Registry[];
    log: (level: LineLevel, message: string) => void;
    warn: (e: Error) => void;
    /** The Data API's client: the operator's key, its breaker, pacing and compute units. */
    http: HttpClient;
  },
): Webhooks {
  const url = config.webhook.url!;
  const api = createWebhookApi(options.http);
  const store = config.redisUrl
    ? new RedisWebhookStore(config.redisUrl, config.redisCluster, options.warn)
    : new MemoryWebhookStore();
  const chains = config.liveChains.map((c) => c.chainId);
  const registrar = new WebhookRegistrar({
    chains,
    url,
    api,
    store,
    bus: options.bus,
    heads: options.heads,
    owner: randomUUID(),
    maxAddresses: config.webhook.maxRegistered,
    syncMs: config.webhook.syncMs,
    log: options.log,
  });
  const outcomes = new Counter({
    name: 'gateway_live_webhook_deliveries_total',
    help: 'Data API webhook deliveries received, by outcome (delivered, duplicate, replayed, stale, bad-signature, …).',
    labelNames: ['outcome'],
    registers: options.registers,
  });

  // WEBHOOK_SECRET set: nothing to read. Otherwise background reads at a bounded rate (webhook-secret.ts).
  const fixed = config.webhook.secret;
  const reader = fixed
    ? undefined
    : createSecretReader({
        read: () => api.sharedSecret(),
        onError: (e) => options.log('warn', `live: webhook shared secret: ${e.message}`),
      });

  let ids: { byId: Map<string, string>; at: number } | undefined;
  const chainOf = async (webhookId: string) => {
    if (!ids || Date.now() - ids.at > IDS_TTL_MS) {
      const byChain = await store.ids();
      ids = { byId: new Map([...byChain].map(([c, id]) => [id, c])), at: Date.now() };
    }
    const chainId = ids.byId.get(webhookId);
    return chainId !== undefined && chains.includes(chainId) ? chainId : undefined;
  };

  const handle = createWebhookReceiver({
    bus: options.bus,
    chainOf,
    secret: () => fixed ?? reader?.current(),
    onBadSignature: () => reader?.suspect(),
    head: (chainId) => options.feed.head(chainId)?.number,
    maxBodyBytes: config.maxBodyBytes,
    onOutcome: (outcome) => outcomes.inc({ outcome }),
  });
  return {
    route: { path: WEBHOOK_PATH, handle },
    start: () => {
      reader?.start();
      registrar.start();
    },
    stop: async () => {
      reader?.stop();
      await registrar.stop();
      await store.close();
    },
  };
}
