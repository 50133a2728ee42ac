import { connectRedis, type RedisClient } from '../cache/redis-connect.js';
import type { ActivityBlock, ActivityEvent } from './activity.js';
import type { ActivityBus, WebhookDedupe, WebhookOutcome } from './activity-bus-types.js';
import {
  admit,
  type Claim,
  type ClaimVerdict,
  interleave,
  type ShareLimits,
} from './follow-shares.js';

export type { ActivityBus, WebhookDedupe, WebhookOutcome } from './activity-bus-types.js';

export const DEFAULT_ACTIVITY_LOG = 1_024;

import {
  COMMIT_CLAIM,
  PUBLISH,
  PUBLISH_WEBHOOK,
  READ_CLAIMS,
  RENEW_CLAIMS,
} from './activity-bus-scripts.js';

const slot = (chainId: string) => `gw:live:{${chainId}}:act`;
export const activityChannel = (url: string): string =>
  `gw:live:activity:db${Number(new URL(url).pathname.slice(1)) || 0}`;

/** Redis's flat HGETALL reply as pairs. */
const pairs = (flat: string[]): [string, string][] => {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
};

export class RedisActivityBus implements ActivityBus {
  readonly #cmd: RedisClient;
  readonly #sub: RedisClient;
  readonly #listeners: ((b: ActivityBlock) => void)[] = [];
  readonly #channel: string;
  readonly #dropChannel: string;
  readonly #dropListeners: ((chainId: string, ids: readonly string[]) => void)[] = [];
  readonly #logSize: number;

  #droppedMessage(message: string): void {
    try {
      const m = JSON.parse(message) as { chainId?: unknown; ids?: unknown };
      if (typeof m.chainId !== 'string' || !Array.isArray(m.ids)) return;
      const ids = m.ids.filter((i): i is string => typeof i === 'string');
      for (const l of this.#dropListeners) l(m.chainId, ids);
    } catch {}
  }

  constructor(
    url: string,
    cluster: boolean,
    onError: (e: Error) => void,
    logSize = DEFAULT_ACTIVITY_LOG,
    readonly dedupe: WebhookDedupe = { window: 0, cap: 0 },
  ) {
    const opts = {
      maxRetriesPerRequest: 1,
      commandTimeout: 2_000,
      retryStrategy: (n: number) => Math.min(n * 100, 2_000),
    };
    this.#logSize = logSize;
    this.#channel = activityChannel(url);
    this.#dropChannel = `${this.#channel}:dropped`;
    this.#cmd = connectRedis(url, { cluster, options: opts });
    this.#sub = connectRedis(url, { cluster, options: opts });
    this.#cmd.on('error', onError);
    this.#sub.on('error', onError);
    void this.#sub.subscribe(this.#channel, this.#dropChannel).catch(onError);
    this.#sub.on('message', (channel: string, message: string) => {
      if (channel === this.#dropChannel) return this.#droppedMessage(message);
      const b = parse(message);
      if (b) for (const l of this.#listeners) l(b);
    });
  }

  async publish(b: ActivityBlock): Promise<boolean> {
    const s = slot(b.chainId);
    const { window, cap } = this.dedupe;
    const r = await this.#cmd.eval(
      PUBLISH,
      4,
      `${s}:n`,
      `${s}:log`,
      `${s}:seen`,
      `${s}:floor`,
      b.number,
      JSON.stringify(b),
      this.#channel,
      String(this.#logSize),
      String(window),
      String(cap),
      ...(window > 0 ? b.events.map((e) => e.txHash) : []),
    );
    return r === 1;
  }

  async publishWebhook(e: ActivityEvent, messageId: string, head: string) {
    const s = slot(e.chainId);
    const block: ActivityBlock = {
      chainId: e.chainId,
      number: e.blockNumber,
      head,
      events: [e],
      webhook: true,
    };
    return (await this.#cmd.eval(
      PUBLISH_WEBHOOK,
      4,
      `${s}:n`,
      `${s}:seen`,
      `${s}:msgs`,
      `${s}:floor`,
      e.blockNumber,
      e.txHash,
      messageId,
      String(Math.max(1, this.dedupe.window)),
      String(Math.max(1, this.dedupe.cap)),
      this.#channel,
      JSON.stringify(block),
    )) as WebhookOutcome;
  }

  async cursor(chainId: string): Promise<bigint | undefined> {
    const n = await this.#cmd.get(`${slot(chainId)}:n`);
    return n ? BigInt(n) : undefined;
  }

  async since(chainId: string, after: bigint) {
    const raw = await this.#cmd.lrange(`${slot(chainId)}:log`, 0, this.#logSize - 1);
    return ordered(
      raw.map(parse).filter((b): b is ActivityBlock => b !== undefined),
      after,
    );
  }

  onBlock(listener: (b: ActivityBlock) => void): void {
    this.#listeners.push(listener);
  }

  async follow(chainId: string, addresses: readonly string[], untilMs: number): Promise<void> {
    if (addresses.length === 0) return;
    const args = addresses.flatMap((a) => [untilMs, a]);
    // GT adds new members and only ever lengthens an interest, never shortens another replica's.
    await this.#cmd.zadd(`${slot(chainId)}:follow`, 'GT', ...args);
  }

  async followed(chainId: string, nowMs: number, max: number): Promise<string[]> {
    const key = `${slot(chainId)}:follow`;
    await this.#cmd.zremrangebyscore(key, '-inf', `(${nowMs}`);
    const [{ held, addresses }, rest] = await Promise.all([
      this.#claims(chainId, nowMs, true),
      this.#cmd.zrevrangebyscore(key, '+inf', nowMs, 'LIMIT', 0, max),
    ]);
    const byClient = new Map<string, string[]>();
    for (const c of held.sort((a, b) => a.seq - b.seq))
      byClient.set(c.client, [...(byClient.get(c.client) ?? []), ...(addresses.get(c.id) ?? [])]);
    return [...new Set([...interleave(byClient), ...rest])].slice(0, max);
  }

  #claimKeys(chainId: string): string[] {
    const s = slot(chainId);
    return [`${s}:claims`, `${s}:cmeta`, `${s}:caddr`, `${s}:cver`];
  }

  async #claims(chainId: string, nowMs: number, withAddresses: boolean) {
    const [ver, meta, addrs] = (await this.#cmd.eval(
      READ_CLAIMS,
      4,
      ...this.#claimKeys(chainId),
      String(nowMs),
      withAddresses ? '1' : '0',
    )) as [string, string[], string[]];
    const held: Claim[] = [];
    for (const [id, raw] of pairs(meta)) {
      try {
        const m = JSON.parse(raw) as { c: string; n: number; s: number };
        held.push({ id, client: m.c, count: m.n, seq: m.s });
      } catch {}
    }
    const addresses = new Map(pairs(addrs).map(([id, list]) => [id, list ? list.split(',') : []]));
    return { ver, held, addresses };
  }

  async claim(
    chainId: string,
    want: { id: string; client: string; addresses: readonly string[] },
    untilMs: number,
    limits: ShareLimits,
  ): Promise<ClaimVerdict> {
    const count = want.addresses.length;
    // Decided here on the state read, applied only if nothing changed since (else read and decide again).
    for (let attempt = 0; attempt < 8; attempt++) {
      const { ver, held } = await this.#claims(chainId, Date.now(), false);
      const verdict = admit(held, { id: want.id, client: want.client, count }, limits);
      if (!verdict.ok) return verdict;
      const applied = await this.#cmd.eval(
        COMMIT_CLAIM,
        4,
        ...this.#claimKeys(chainId),
        ver,
        String(untilMs),
        want.id,
        want.client,
        String(count),
        want.addresses.join(','),
        ...verdict.evict,
      );
      if (applied !== 1) continue;
      if (verdict.evict.length > 0)
        await this.#cmd.publish(this.#dropChannel, JSON.stringify({ chainId, ids: verdict.evict }));
      return verdict;
    }
    throw new Error(`activity: claims on chain ${chainId} kept changing; try again`);
  }

  async renew(chainId: string, ids: readonly string[], untilMs: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const [claims] = this.#claimKeys(chainId);
    return (await this.#cmd.eval(
      RENEW_CLAIMS,
      1,
      claims!,
      String(Date.now()),
      String(untilMs),
      ...ids,
    )) as string[];
  }

  async release(chainId: string, id: string): Promise<void> {
    const [claims, meta, addrs, ver] = this.#claimKeys(chainId);
    await this.#cmd.multi().zrem(claims!, id).hdel(meta!, id).hdel(addrs!, id).incr(ver!).exec();
  }

  onDropped(listener: (chainId: string, ids: readonly string[]) => void): void {
    this.#dropListeners.push(listener);
  }

  async close(): Promise<void> {
    this.#sub.disconnect();
    this.#cmd.disconnect();
  }
}

export function ordered(all: ActivityBlock[], after: bigint) {
  const sorted = all.sort((a, b) => (BigInt(a.number) < BigInt(b.number) ? -1 : 1));
  const oldest = sorted[0] ? BigInt(sorted[0].number) : undefined;
  return { blocks: sorted.filter((b) => BigInt(b.number) > after), oldest };
}

function parse(raw: string | null | undefined): ActivityBlock | undefined {
  if (!raw) return undefined;
  try {
    const b = JSON.parse(raw) as ActivityBlock;
    return typeof b.number === 'string' && typeof b.chainId === 'string' && Array.isArray(b.events)
      ? b
      : undefined;
  } catch {
    return undefined;
  }
}
