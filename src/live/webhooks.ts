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

/** Where deliveries are received (the HTTP server sends this path here, past its path guard). */
export const WEBHOOK_PATH = '/webhooks/data-api';
/** How long the shared secret and the webhook ids are trusted before they are read again. */
const SECRET_TTL_MS = 60_000;
const IDS_TTL_MS = 1_000;
/** At most one secret re-read this often after bad signatures (a rotation is picked up; a flood is not). */
const BAD_SIGNATURE_REREAD_MS = 10_000;

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

  let secret: { value: string; at: number } | undefined;
  let reading: Promise<void> | undefined;
  let lastReread = 0;
  const reread = () => {
    reading ??= api
      .sharedSecret()
      .then((value) => {
        secret = { value, at: Date.now() };
      })
      .catch((e: Error) => options.log('warn', `live: webhook shared secret: ${e.message}`))
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  const currentSecret = async () => {
    if (config.webhook.secret) return config.webhook.secret;
    if (!secret) await reread();
    else if (Date.now() - secret.at > SECRET_TTL_MS) void reread();
    return secret?.value;
  };

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
    secret: currentSecret,
    onBadSignature: () => {
      if (config.webhook.secret || Date.now() - lastReread < BAD_SIGNATURE_REREAD_MS) return;
      lastReread = Date.now();
      void reread();
    },
    head: (chainId) => options.feed.head(chainId)?.number,
    maxBodyBytes: config.maxBodyBytes,
    onOutcome: (outcome) => outcomes.inc({ outcome }),
  });
  return {
    route: { path: WEBHOOK_PATH, handle },
    start: () => {
      if (!config.webhook.secret) void reread();
      registrar.start();
    },
    stop: async () => {
      await registrar.stop();
      await store.close();
    },
  };
}
