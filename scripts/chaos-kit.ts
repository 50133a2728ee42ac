import { readFileSync } from 'node:fs';
import type { RunningSimulator } from '../src/sim/index.js';
import { createTestGateway } from '../test/support/gateway.js';

/**
 * What every chaos row shares (scripts/chaos.ts): an open-loop load of the shipped example operations,
 * each answer judged as it arrives, and the row's result. Loopback only.
 *
 * The judge: an answer about a fixed block (immutable data) must equal the reference answer, given
 * before the fault by a gateway of its own with no shared cache; a chain-head answer must name a head
 * that was current within its class's promised staleness before the request started (`headBoundMs`: the
 * head class's TTL + stale-while-revalidate, or its stale-if-error window during an upstream fault).
 * Anything else is an error with a code (counted, allowed) or a wrong answer (never allowed).
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
}

const OPS = readFileSync('examples/operations/block.graphql', 'utf8');
const HEAD_Q = '{ chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }';

interface Sent {
  t0: number;
  t1: number;
  kind: 'block' | 'head';
  ok: boolean;
  codes: string[];
  wrong?: string;
}

/** Heads as the simulator made them, with when: a head answer is judged against this timeline. */
export class HeadTimeline {
  readonly #at: { n: number; t: number }[] = [];
  constructor(first: number) {
    this.#at.push({ n: first, t: Date.now() });
  }
  push(n: number): void {
    this.#at.push({ n, t: Date.now() });
  }
  get top(): number {
    return this.#at.at(-1)!.n;
  }
  /** Whether head `n` was current at some moment in [from, to]. */
  currentWithin(n: number, from: number, to: number): boolean {
    for (let i = 0; i < this.#at.length; i++) {
      const start = this.#at[i]!.t;
      const end = this.#at[i + 1]?.t ?? Number.POSITIVE_INFINITY;
      if (this.#at[i]!.n === n && start <= to && end >= from) return true;
    }
    return false;
  }
}

export async function advance(sim: RunningSimulator): Promise<number> {
  const r = await fetch(`${sim.url}/_sim/advance`, {
    method: 'POST',
    body: JSON.stringify({ chainId: '43114', blocks: 1, evolve: false }),
  });
  return ((await r.json()) as { head: { number: number } }).head.number;
}

/** Reference answers for the blocks the load asks about, from a gateway with no shared cache. */
export async function referenceBlocks(sim: RunningSimulator, numbers: number[]) {
  const gw = createTestGateway(sim);
  const ref = new Map<string, string>();
  for (const n of numbers) {
    const r = await gw.query(OPS, { chainId: '43114', id: String(n), first: 5 });
    if (r.errors) throw new Error(`reference block ${n}: ${JSON.stringify(r.errors)}`);
    ref.set(String(n), JSON.stringify(r.data));
  }
  await gw.close();
  return ref;
}

export interface Load {
  stop(): Promise<Sent[]>;
  sent: Sent[];
}

/**
 * `rate` requests a second on schedule whatever the answers take (open loop): 4 of 5 a fixed block's
 * example operation, 1 of 5 the chain's head.
 */
export function startLoad(
  url: string,
  rate: number,
  ref: Map<string, string>,
  heads: HeadTimeline,
  headBoundMs: () => number,
  headersOf: (i: number) => Record<string, string> = () => ({}),
): Load {
  const blocks = [...ref.keys()];
  const sent: Sent[] = [];
  const pending = new Set<Promise<void>>();
  let i = 0;
  const fire = () => {
    const kind = i % 5 === 4 ? 'head' : 'block';
    const id = blocks[i % blocks.length]!;
    i += 1;
    const body =
      kind === 'head'
        ? { query: HEAD_Q }
        : { query: OPS, variables: { chainId: '43114', id, first: 5 } };
    const s: Sent = { t0: Date.now(), t1: 0, kind, ok: false, codes: [] };
    const p = fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headersOf(i) },
      body: JSON.stringify(body),
    })
      .then(async (res) => {
        const j = (await res.json()) as {
          data?: any;
          errors?: { extensions?: { code?: string } }[];
        };
        s.codes = (j.errors ?? []).map((e) => e.extensions?.code ?? 'NO_CODE');
        if (res.status !== 200 && s.codes.length === 0) s.codes.push(`HTTP_${res.status}`);
        s.ok = s.codes.length === 0;
        if (!j.data) return;
        if (kind === 'block' && j.data.block !== null && JSON.stringify(j.data) !== ref.get(id))
          s.wrong = `block ${id} differs from the reference`;
        const n = j.data.chain?.blocks?.edges?.[0]?.node?.number;
        if (kind === 'head' && n !== undefined) {
          const from = s.t0 - headBoundMs();
          if (!heads.currentWithin(Number(n), from, Date.now()))
            s.wrong = `head ${n} was not current within ${headBoundMs()} ms before the request`;
        }
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
    notes: [],
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
