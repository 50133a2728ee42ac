import type { RunningSimulator } from '@avalanche-gateway/simulator';
import type { ExecutionResult } from 'graphql';
import { MemoryStore } from '../src/cache/store.js';
import { allowedVersions, type FaultVerdict, judgeUnderFault } from '../test/oracle/judge.js';
import { createTestGateway, type TestGateway } from '../test/support/gateway.js';
import { NO_STALE, ZERO_TTL } from '../test/support/reference.js';

/**
 * The simulator's world versions as the chaos rows judge answers against them (the cache oracle's judge,
 * test/oracle/judge.ts): each time the world moves on, a gateway that caches nothing answers every watched
 * query at the new version. A changing query is asked at every version; an immutable one once (its class
 * promises it never changes, so every version's answer is that one). A reference that failed (the rows
 * fault the upstream it reads too) is no reference: that version has none for the query.
 */
interface Watched {
  query: string;
  variables?: Record<string, unknown>;
  immutable: boolean;
}

export type Verdict = FaultVerdict | { kind: 'unjudged' };

export class ReferenceWorld {
  /** When each version began (epoch ms). */
  readonly starts: number[] = [Date.now()];
  readonly #refs = new Map<string, Map<number, ExecutionResult>>();
  readonly #watched = new Map<string, Watched>();
  readonly #gw: TestGateway;

  constructor(sim: RunningSimulator) {
    this.#gw = createTestGateway(sim, {
      env: { CIRCUIT_BREAKER_FAILURES: '0', UPSTREAM_TIMEOUT_MS: '30000', UPSTREAM_RETRIES: '0' },
      store: new MemoryStore(),
      ttlOverrides: ZERO_TTL,
      staleOverrides: NO_STALE,
    });
  }

  get version(): number {
    return this.starts.length - 1;
  }

  /** Judges `key`'s answers from now on; asks it at the current version. */
  async watch(key: string, w: Watched): Promise<void> {
    this.#watched.set(key, w);
    await this.#ask(key, w);
  }

  unwatch(key: string): void {
    this.#watched.delete(key);
  }

  /** Runs `move` (a world step), then asks every changing query at the new version. */
  async advance<T>(move: () => Promise<T>): Promise<T> {
    // Stamped before the step: an answer that saw the new version cannot have ended before it began.
    const at = Date.now();
    const r = await move();
    this.starts.push(at);
    for (const [key, w] of this.#watched) if (!w.immutable) await this.#ask(key, w);
    return r;
  }

  async #ask(key: string, w: Watched): Promise<void> {
    const version = this.version;
    for (let attempt = 0; attempt < 2; attempt++) {
      const r = await this.#gw.query(w.query, w.variables);
      if (!r.errors) {
        const m = this.#refs.get(key) ?? new Map<number, ExecutionResult>();
        this.#refs.set(key, m);
        m.set(version, r);
        return;
      }
    }
  }

  /**
   * An answer to `key` sent at `t0` and received at `t1`, whose class promises it lags the world by at most
   * `boundMs` (Infinity: immutable): judged against the references at the versions that allows.
   */
  judge(key: string, got: ExecutionResult, t0: number, t1: number, boundMs: number): Verdict {
    let current = this.version;
    while (current > 0 && this.starts[current]! > t1) current--;
    const byVersion = this.#refs.get(key);
    const versions = allowedVersions(this.starts, current, t0, boundMs);
    const candidates = versions
      .map((v) => byVersion?.get(v))
      .filter((r): r is ExecutionResult => r !== undefined);
    // An immutable answer: any version's reference is the one.
    const immutable = boundMs === Number.POSITIVE_INFINITY;
    if (immutable && candidates.length === 0 && byVersion) candidates.push(...byVersion.values());
    if (candidates.length === 0) return { kind: 'unjudged' };
    const verdict = judgeUnderFault(got, candidates);
    // Data none of the references has may be the data at an allowed version that has none (the
    // reference's own call failed during the fault): it cannot be judged, it is not wrong. (An error
    // without a code is wrong whatever the references.)
    const uncoded = (got.errors ?? []).some((e) => typeof e.extensions?.code !== 'string');
    if (
      verdict.kind === 'wrong' &&
      !uncoded &&
      !immutable &&
      versions.some((v) => !byVersion?.has(v))
    )
      return { kind: 'unjudged' };
    return verdict;
  }

  /**
   * What a wrong answer is told apart by: the versions `judge` allowed it and the data of their references
   * (short), for the row's failure line.
   */
  allowedOf(key: string, t0: number, t1: number, boundMs: number): string {
    let current = this.version;
    while (current > 0 && this.starts[current]! > t1) current--;
    const byVersion = this.#refs.get(key);
    const versions = allowedVersions(this.starts, current, t0, boundMs);
    const shown = versions
      .slice(0, 4)
      .map(
        (v) =>
          `v${v}=${byVersion?.has(v) ? JSON.stringify(byVersion.get(v)!.data).slice(0, 80) : 'none'}`,
      );
    return `allowed v${versions.at(-1)}–v${current} (${shown.join(', ')}${versions.length > 4 ? ', …' : ''})`;
  }

  close(): Promise<void> {
    return this.#gw.close();
  }
}
