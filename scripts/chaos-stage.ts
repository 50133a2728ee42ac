import { readFileSync } from 'node:fs';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { type Replica, startHaproxy, startReplica } from '../test/support/replicas.js';
import {
  judgeHeads,
  type ResumingSubscriber,
  resumingSse,
  resumingWs,
} from '../test/support/resumable-clients.js';
import { startTestSimulator } from '../test/support/sim.js';
import { advance, HeadTimeline, sleep, until } from './chaos-kit.js';
import { ReferenceWorld } from './chaos-world.js';

/**
 * The set-up every chaos row runs on: the simulator, three gateway processes over one Redis (or a
 * cluster) behind HAProxy, heads landing every `blockMs`, and resuming newBlocks subscribers.
 */
export const DRAIN_MS = 2_000;

/** What `--prometheus` adds to every stage: its replicas' settings (METRICS_TOKEN), and their URLs. */
export const stageHooks: {
  env?: Record<string, string>;
  started?: (urls: string[]) => void;
  /** Awaited once the stage is up (`--prometheus`: until no alert is pending or firing). */
  ready?: () => Promise<void>;
} = {};

export interface Stage {
  sim: RunningSimulator;
  replicas: Replica[];
  lb: { url: string; stop(): Promise<void> };
  heads: HeadTimeline;
  /** The world's versions and the reference answers the load is judged against. */
  world: ReferenceWorld;
  env: Record<string, string>;
  /** SIGTERM replica i, wait for its exit, start it again on its port, wait until it is ready. */
  restart(i: number): Promise<{ exitCode: number | null; downMs: number }>;
  subscribe(n: number): Promise<ResumingSubscriber[]>;
  /** Heads land every `blockMs` until the returned stop is called. */
  ticking(blockMs: number): () => Promise<void>;
  /**
   * Before a row: no fault left over from the last one. The simulator's faults cleared, its websocket
   * followed, and every replica's `/health` `ok` (its cache reachable, every circuit breaker closed).
   * Returns what it waited for (undefined when nothing).
   */
  settle(limitMs?: number): Promise<string | undefined>;
  /** Every subscriber has the last head; what each missed or got twice from its first head on. */
  judgeSubscribers(subs: ResumingSubscriber[], limitMs?: number): Promise<string[]>;
  stop(): Promise<void>;
}

interface Health {
  status: string;
  openBreakers?: { upstream: string; route: string }[];
}

/**
 * The latest blocks of the Fuji C-Chain: the load's head route (`/v1/chains/:id/blocks`) at a key the
 * load never reads (its chain is not followed live: the entry lasts the class's 2 s), where the load's own
 * head page may be fresh in the shared tier from another replica and so never reach the upstream here.
 */
const PROBE_HEAD = '{ chain(id: "43113") { blocks(first: 1) { edges { node { number } } } } }';
const PROBE_BLOCK = readFileSync('examples/operations/block.graphql', 'utf8');

/** The load's two operations at keys the load does not read: they reach the routes its calls do. */
function probe(url: string, top: number): Promise<unknown>[] {
  const post = (body: unknown) =>
    fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.arrayBuffer());
  const id = String(top - 100 - Math.floor(Math.random() * 10_000));
  return [
    post({ query: PROBE_HEAD }),
    post({ query: PROBE_BLOCK, variables: { chainId: '43114', id, first: 5 } }),
  ];
}

/** The headers /metrics wants when the stage's replicas have a METRICS_TOKEN. */
export const metricsAuth = (env: Record<string, string>): RequestInit =>
  env.METRICS_TOKEN ? { headers: { authorization: `Bearer ${env.METRICS_TOKEN}` } } : {};

export async function startStage(o: {
  redisUrl: string;
  cluster?: boolean;
  env?: Record<string, string>;
  /** The gateway process's entry (a planted one: scripts/chaos-planted-server.ts). */
  entry?: string;
}): Promise<Stage> {
  const sim = await startTestSimulator();
  const env: Record<string, string> = {
    DATA_API_URL: sim.dataApiUrl,
    METRICS_API_URL: sim.metricsApiUrl,
    NODE_RPC_URL: sim.nodeUrl,
    REDIS_URL: o.redisUrl,
    REDIS_CLUSTER: o.cluster ? 'true' : 'false',
    LIVE_WS: `43114=${sim.wsUrl}`,
    LIVE_LOCK_TTL_MS: '1000',
    CLIENT_CU_PER_MINUTE: '0',
    // Every test client is one address: it may hold all the sockets the run opens.
    WS_MAX_PER_CLIENT: '10000',
    REDIS_COMMAND_TIMEOUT_MS: '1000',
    SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    SHUTDOWN_GRACE_MS: '10000',
    LOG_LEVEL: 'warn',
    ...stageHooks.env,
    ...o.env,
  };
  const start = (port?: number) => startReplica(env, 120_000, port, o.entry);
  const replicas = await Promise.all([start(), start(), start()]);
  stageHooks.started?.(replicas.map((r) => r.url));
  const lb = await startHaproxy(replicas);
  await until('one upstream websocket', () => sim.socketStats().subscriptions === 1, 20_000);
  const world = new ReferenceWorld(sim);
  const heads = new HeadTimeline(await world.advance(() => advance(sim)));
  const subscribersOn = async (r: Replica) => {
    const text = await (await fetch(`${r.url}/metrics`, metricsAuth(env))).text();
    return Number(/^gateway_live_subscribers (\d+)/m.exec(text)?.[1] ?? 0);
  };
  await stageHooks.ready?.();
  const stage: Stage = {
    sim,
    replicas,
    lb,
    heads,
    world,
    env,
    async restart(i) {
      const old = replicas[i]!;
      const t0 = Date.now();
      await old.kill('SIGTERM');
      const exitCode = old.child.exitCode;
      replicas[i] = await start(old.port);
      // HAProxy checks every 500 ms and takes a server back after one good check.
      await sleep(1_000);
      return { exitCode, downMs: Date.now() - t0 };
    },
    async subscribe(n) {
      // Each subscriber its own client (a forwarded address HAProxy passes on), as its users are.
      const subs = Array.from({ length: n }, (_, k) => {
        const xff = { 'x-forwarded-for': `10.2.${k >> 8}.${k & 255}` };
        return k % 2 === 0
          ? resumingSse(lb.url, '43114', 200, xff)
          : resumingWs(lb.url, '43114', 200, xff);
      });
      try {
        await until(
          `${n} subscribers`,
          async () =>
            (await Promise.all(replicas.map(subscribersOn))).reduce((a, b) => a + b, 0) >= n,
          60_000,
        );
      } catch (e) {
        const failed = subs.find((s) => s.errors.length > 0);
        throw new Error(
          `${String(e)}; e.g. ${failed ? JSON.stringify(failed.errors[0]).slice(0, 300) : 'no subscriber error'}`,
        );
      }
      return subs;
    },
    ticking(blockMs) {
      let on = true;
      const loop = (async () => {
        while (on) {
          heads.push(await world.advance(() => advance(sim)));
          await sleep(blockMs);
        }
      })();
      return async () => {
        on = false;
        await loop;
      };
    },
    async settle(limitMs = 40_000) {
      sim.clearFaults();
      const t0 = Date.now();
      await until(
        'the upstream websocket followed',
        () => sim.socketStats().subscriptions === 1,
        20_000,
      );
      // An open breaker closes only on a call after its cooldown (its half-open trial): a replica that
      // reports one is sent the load's own operations at keys nothing has cached (a head page of another
      // size, an older block: the same upstream routes), failing fast until the cooldown ends, then the
      // trial closes it. Sent to each replica directly, a round every 250 ms.
      const seen = new Set<string>();
      let probes = 0;
      let last: unknown[] = [];
      try {
        await until(
          'every replica healthy (/health ok: cache ok, every breaker closed)',
          async () => {
            const health = await Promise.all(
              replicas.map(async (r) => (await (await fetch(`${r.url}/health`)).json()) as Health),
            );
            last = health;
            const sick = replicas.filter((_, i) => health[i]!.status !== 'ok');
            for (const h of health)
              for (const b of h.openBreakers ?? []) seen.add(`${b.upstream} ${b.route}`);
            if (sick.length === 0) return true;
            await Promise.all(
              replicas.map((r, i) => {
                if (!health[i]!.openBreakers?.length) return undefined;
                probes += 2;
                return Promise.all(probe(r.url, heads.top)).catch(() => undefined);
              }),
            );
            await sleep(250);
            return false;
          },
          limitMs,
        );
      } catch (e) {
        throw new Error(`${String(e)}: ${JSON.stringify(last).slice(0, 400)}`);
      }
      const waited = Date.now() - t0;
      return seen.size || waited > 1_000
        ? `started from closed breakers: waited ${waited} ms${seen.size ? ` for ${[...seen].join(', ')} (${probes} probe requests)` : ''}`
        : undefined;
    },
    async judgeSubscribers(subs, limitMs = 20_000) {
      const top = String(heads.top);
      const problems: string[] = [];
      try {
        await until(
          'every subscriber has the last head',
          () => subs.every((s) => s.numbers.at(-1) === top),
          limitMs,
        );
      } catch (e) {
        const behind = subs.filter((s) => s.numbers.at(-1) !== top);
        problems.push(
          `${behind.length} subscribers lack head ${top} (e.g. ${behind[0]?.kind} at ${behind[0]?.numbers.at(-1)}): ${String(e)}`,
        );
      }
      let missing = 0;
      let repeated = 0;
      for (const s of subs) {
        if (s.numbers.length === 0) continue;
        const j = judgeHeads(s.numbers, BigInt(s.numbers[0]!), BigInt(s.numbers.at(-1)!));
        missing += j.missing.length;
        repeated += j.repeated.length;
        if ((j.missing.length || j.repeated.length || j.outOfOrder) && problems.length < 4)
          problems.push(
            `${s.kind} subscriber: missing ${j.missing.slice(0, 5).join(',')} repeated ${j.repeated.slice(0, 5).join(',')}`,
          );
      }
      if (missing || repeated) problems.push(`heads lost ${missing}, repeated ${repeated} in all`);
      const errs = subs.filter((s) => s.errors.length > 0);
      if (errs.length)
        problems.push(
          `${errs.length} subscribers got errors: ${JSON.stringify(errs[0]!.errors[0]).slice(0, 300)}`,
        );
      return problems;
    },
    async stop() {
      await lb.stop();
      await Promise.all(replicas.map((r) => r.kill('SIGKILL')));
      await world.close();
      await sim.close();
    },
  };
  return stage;
}
