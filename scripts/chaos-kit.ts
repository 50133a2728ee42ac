import { readFileSync } from 'node:fs';
import type { RunningSimulator } from '@avalanche-gateway/simulator';
import type { ExecutionResult } from 'graphql';
import type { ReferenceWorld } from './chaos-world.js';

/**
 * What every chaos row shares (scripts/chaos.ts): an open-loop load of the shipped example operations,
 * and the row's result. Loopback only.
 *
 * The judge is the cache oracle's (test/oracle/judge.ts, through scripts/chaos-world.ts): every answer is
 * compared with the answers a gateway that caches nothing gave at the world versions its class allows (a
 * fixed block: any version, it is immutable; the chain's head: the versions current within `headBoundMs`
 * before the request started, the head class's promise, or its stale-if-error window during an upstream
 * fault). An answer equal to one, or made of their parts, is right; an error with its code (the data
 * beside it judged alike) is an error; anything else is a wrong answer (never allowed).
 */
export interface Row {
  fault: string;
  requests: number;
  errors: number;
  /** Error codes seen, with counts. */
  codes: Record<string, number>;
  wrong: number;
  extraUpstream: number;
  recoveryMs: number;
  command: string;
  /** What broke a must-hold; empty when the row passes. */
  failures: string[];
  notes: string[];
  /** Subscribers' lost, repeated or missing heads (a must-hold only where the row says so). */
  headProblems?: string[];
  /** Answers with no reference at an allowed version (not counted right or wrong). */
  unjudged?: number;
  /** When the fault began and ended (ms since the epoch; `--prometheus` places the alerts by them). */
  faultStart?: number;
  faultEnd?: number;
  /** When the row's load began and the row ended (its stage up; `--prometheus` reads them). */
  startedAt?: number;
  endedAt?: number;
}

const OPS = readFileSync('examples/operations/block.graphql', 'utf8');
const HEAD_Q = '{ chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }';
/** The chain's head as the load asks it: judged at every world version. */
export const HEAD_KEY = 'head';

/** Watches the load's queries: the head, and the example operation on each of `blocks` (immutable). */
export async function watchLoad(world: ReferenceWorld, blocks: number[]): Promise<string[]> {
  await world.watch(HEAD_KEY, { query: HEAD_Q, immutable: false });
  const ids = blocks.map(String);
  for (const id of ids)
    await world.watch(`block:${id}`, {
      query: OPS,
      variables: { chainId: '43114', id, first: 5 },
      immutable: true,
    });
  return ids;
}

interface Sent {
  t0: number;
  t1: number;
  key: string;
  /** The class's promise when it was sent (ms; Infinity: immutable). */
  boundMs: number;
  ok: boolean;
  codes: string[];
  result?: ExecutionResult;
  wrong?: string;
  unjudged?: boolean;
}

/** Heads as the simulator made them (the subscribers' judge reads the last). */
export class HeadTimeline {
  readonly #at: number[] = [];
  constructor(first: number) {
    this.#at.push(first);
  }
  push(n: number): void {
    this.#at.push(n);
  }
  get top(): number {
    return this.#at.at(-1)!;
  }
}

export async function advance(sim: RunningSimulator): Promise<number> {
  const r = await fetch(`${sim.url}/_sim/advance`, {
    method: 'POST',
    body: JSON.stringify({ chainId: '43114', blocks: 1, evolve: false }),
  });
  return ((await r.json()) as { head: { number: number } }).head.number;
}

export interface Load {
  stop(): Promise<Sent[]>;
  sent: Sent[];
}

/**
 * `rate` requests a second on schedule whatever the answers take (open loop): 4 of 5 a fixed block's
 * example operation, 1 of 5 the chain's head; each judged once the load stops.
 */
export function startLoad(
  url: string,
  rate: number,
  world: ReferenceWorld,
  blocks: string[],
  headBoundMs: () => number,
  headersOf: (i: number) => Record<string, string> = () => ({}),
): Load {
  const sent: Sent[] = [];
  const pending = new Set<Promise<void>>();
  let i = 0;
  const fire = () => {
    const head = i % 5 === 4;
    const id = blocks[i % blocks.length]!;
    i += 1;
    const body = head
      ? { query: HEAD_Q }
      : { query: OPS, variables: { chainId: '43114', id, first: 5 } };
    const s: Sent = {
      t0: Date.now(),
      t1: 0,
      key: head ? HEAD_KEY : `block:${id}`,
      boundMs: head ? headBoundMs() : Number.POSITIVE_INFINITY,
      ok: false,
      codes: [],
    };
    const p = fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headersOf(i) },
      body: JSON.stringify(body),
    })
      .then(async (res) => {
        const j = (await res.json()) as ExecutionResult;
        s.codes = (j.errors ?? []).map((e) => String(e.extensions?.code ?? 'NO_CODE'));
        if (res.status !== 200 && s.codes.length === 0) s.codes.push(`HTTP_${res.status}`);
        s.ok = s.codes.length === 0;
        s.result = j;
      })
      .catch((e: unknown) => {
        s.codes = [`NETWORK:${(e as { cause?: { code?: string } }).cause?.code ?? String(e)}`];
      })
      .finally(() => {
        s.t1 = Date.now();
        sent.push(s);
        pending.delete(p);
      });
    pending.add(p);
  };
  const timer = setInterval(fire, 1000 / rate);
  return {
    sent,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      for (const s of sent) {
        if (!s.result) continue;
        const v = world.judge(s.key, s.result, s.t0, s.t1, s.boundMs);
        if (v.kind === 'wrong')
          s.wrong = `${s.key}: ${v.why} (sent ${s.t0 - world.starts[0]!} ms in, answered in ${s.t1 - s.t0} ms): got ${JSON.stringify(s.result.data).slice(0, 120)}${s.result.extensions ? ` extensions ${JSON.stringify(s.result.extensions).slice(0, 200)}` : ''}; ${world.allowedOf(s.key, s.t0, s.t1, s.boundMs)}`;
        if (v.kind === 'unjudged') s.unjudged = true;
      }
      return sent;
    },
  };
}

/** A row's numbers from its requests; `faultEnd`: when the fault was over (recovery is counted from it). */
export function tally(
  fault: string,
  command: string,
  sent: Sent[],
  faultEnd: number,
  extraUpstream: number,
): Row {
  const codes: Record<string, number> = {};
  for (const s of sent) for (const c of s.codes) codes[c] = (codes[c] ?? 0) + 1;
  const failedAfter = sent.filter((s) => !s.ok && s.t1 > faultEnd).map((s) => s.t1);
  const wrong = sent.filter((s) => s.wrong);
  const firstError = sent.find((s) => !s.ok);
  return {
    fault,
    requests: sent.length,
    errors: sent.filter((s) => !s.ok).length,
    codes,
    wrong: wrong.length,
    extraUpstream,
    recoveryMs: failedAfter.length ? Math.max(...failedAfter) - faultEnd : 0,
    command,
    failures: wrong.slice(0, 3).map((s) => `wrong answer: ${s.wrong}`),
    notes: firstError
      ? [
          `first error (${firstError.key}, sent ${firstError.t0 - sent[0]!.t0} ms in): ${JSON.stringify(firstError.result?.errors?.[0] ?? firstError.codes).slice(0, 400)}`,
        ]
      : [],
    unjudged: sent.filter((s) => s.unjudged).length,
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once `check` is true (polled every 50 ms), or throws after `limitMs`. */
export async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  limitMs: number,
) {
  const end = Date.now() + limitMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`${what}: not within ${limitMs} ms`);
    await sleep(50);
  }
}
