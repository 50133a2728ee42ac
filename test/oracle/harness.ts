import { readFileSync } from 'node:fs';
import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import { Rng } from '@avalanche-gateway/simulator/world/prng.js';
import { buildSchema } from 'graphql';
import { keys as cacheKeys } from '../../src/cache/keys.js';
import { SNAPSHOT_TTL_MS } from '../../src/cache/page-snapshots.js';
import type { CacheClass } from '../../src/cache/policy.js';
import { RedisStore } from '../../src/cache/redis-store.js';
import { type CacheEntry, type CacheStore, MemoryStore } from '../../src/cache/store.js';
import { TieredStore } from '../../src/cache/tiered-store.js';
import { NO_DERIVATIONS } from '../../src/upstream/derivations.js';
import { createTestGateway, type TestGateway } from '../support/gateway.js';
import { NO_STALE, ZERO_TTL } from '../support/reference.js';
import { visiblyTouched } from '../support/touched.js';
import {
  type Answer,
  allowedVersions,
  composesByAddress,
  hasErrors,
  matches,
  normalize,
} from './judge.js';
import {
  DERIVATION_PLANTS,
  PLANTS,
  type PlantName,
  TOUCH_ENV_PLANTS,
  TOUCH_PLANTS,
} from './plants.js';
import {
  argValues,
  generatedSteps,
  harvestIds,
  nodeSteps,
  operationSteps,
  type Step,
} from './workload.js';
import { extraSteps, worldIds } from './workload-extra.js';

export { composes } from './judge.js';
// Every planted defect, for the oracle's command (scripts/oracle.ts).
export * from './plants.js';

/**
 * The differential cache oracle. One simulator (spec-varied, its world advanced between rounds),
 * two gateways over it: `cached` with every cache on (LRU + Redis + whole-response cache, TTLs
 * shortened so rounds cross them) and `reference` with none (every class TTL 0, no response cache;
 * requests sent one at a time, so nothing is coalesced either). Each round the world moves to a new
 * version; the reference answers every step under every credential at that version, and the cached
 * gateway answers the same steps (before and after the reference pass, the three credentials of a
 * step concurrently).
 *
 * A cached answer is correct when it equals (data, and errors by code and path) the reference
 * answer for the same step and credential at some world version the cache policy allows: one that
 * was current within STALENESS_BOUND_MS before the request started (the longest TTL + stale-while-
 * revalidate window of any changing class below). Immutable classes keep their 7 days: what they
 * hold must never change, so any version's answer is the same. Everything else is a divergence.
 * Credentials: the operator's key (configured on both gateways), a caller's own key
 * (`x-glacier-api-key`) and a revoked key (the simulator answers it 401). An answer must be the
 * credential's own reference, except shared successful public data: a complete answer without
 * errors may equal what another credential obtained successfully. An error (a 401, a 429) or a
 * partial answer reaching another credential, in either direction, is a divergence.
 */

export const CREDENTIALS = {
  operator: {},
  caller: { 'x-glacier-api-key': 'oracle-caller-key' },
  revoked: { 'x-glacier-api-key': 'oracle-revoked-key' },
} as const satisfies Record<string, Record<string, string>>;
export type Credential = keyof typeof CREDENTIALS;

/** TTLs of the cached gateway (ms): short, so that rounds cross them. Immutable keeps its default. */
export const CACHED_TTL: Partial<Record<CacheClass, number>> = {
  head: 200,
  tokenPage: 400,
  slow: 400,
  notFound: 200,
};
export const CACHED_STALE: Partial<Record<CacheClass, { swr: number; ifError: number }>> = {
  head: { swr: 200, ifError: 0 },
  tokenPage: { swr: 0, ifError: 0 },
  slow: { swr: 200, ifError: 0 },
};
/** Longest a changing answer may lag the world: slow TTL + swr, plus slack for an in-flight refresh. */
export const STALENESS_BOUND_MS = 600 + 400;
/** A round lasts at least this long, so answers cached in round r are past the bound by round r + 2. */
const MIN_ROUND_MS = STALENESS_BOUND_MS + 100;

/** Both gateways' upstream settings: no circuit breaker, a long timeout. */
const PATIENT = { CIRCUIT_BREAKER_FAILURES: '0', UPSTREAM_TIMEOUT_MS: '30000' };

/** Steps per group (see OracleOptions.groupSize): a pass of 25 steps lasts about a TTL. */
export const GROUP_SIZE = 25;
/** How far a group's order turns each round (so each step is among the last read in some rounds). */
const ROTATE = 7;

export interface OracleOptions {
  /** World seed, variation seed and workload seed. */
  seed: string;
  /** World versions after the first. */
  rounds: number;
  /** Redis URL (a database of its own: it is flushed by the caller). */
  redisUrl: string;
  /** Spec variation on (SIM_VARY = seed). @default true */
  vary?: boolean;
  /** Use at most this many steps (a seeded sample). @default all */
  maxSteps?: number;
  /** Only these steps (by name). @default all */
  onlySteps?: string[];
  /**
   * Steps run together, each group its own `rounds` world versions (the world moves on from group to
   * group). A short pass keeps what the cached gateway stored in one version within its TTL when the
   * next version's pass reads it, so the cache is read across versions. @default GROUP_SIZE
   */
  groupSize?: number;
  plant?: PlantName;
  /**
   * The cached gateway follows the C-Chain's heads (LIVE_WS: its head-class answers are versioned by the
   * head and kept between heads); each round's cached pass starts once the new head reached it, so a
   * head delivered, then the same read, must show the new version. @default false
   */
  live?: boolean;
  /**
   * Live, with freshness by change (LIVE_ADDRESS_FRESHNESS=touch, a window of `TOUCH_WINDOW_BLOCKS`) and
   * a simulator that disagrees with what blocks show: contracts pay plain addresses no block names
   * (`invisible-payouts`), a token rebases with no logs (`silent-token`), and the Data API indexes
   * `INDEX_LAG_BLOCKS` behind the node. An answer that read an address's entries may then also be any
   * allowed-by-change version: one less than the window old, after which no block the Data API had
   * indexed visibly touched any address the step has read. @default false
   */
  touch?: boolean;
  log?: (line: string) => void;
}

/** The touch window of the cached gateway in `touch` runs (blocks; the world moves 2 a round). */
export const TOUCH_WINDOW_BLOCKS = 8;

/**
 * The simulated Data API's indexing lag in `touch` runs (blocks): the gateway's default
 * DATA_API_INDEX_LAG_BLOCKS, which the cached gateway keeps (the plant `lag-ignored` sets it to 0).
 */
export const INDEX_LAG_BLOCKS = 3;

/** Address-scoped data keys of the followed chain (the entries freshness by change keeps). */
const ADDRESS_KEY = /GET \/v1\/chains\/43114\/addresses\/(0x[0-9a-fA-F]{40})[/:]/;

export interface Divergence {
  seed: string;
  round: number;
  pass: 'before-reference' | 'after-reference';
  step: string;
  page: 1 | 2;
  credential: Credential;
  query: string;
  variables: Record<string, unknown>;
  got: unknown;
  /** Reference answers at the versions the policy allowed, newest first. */
  expected: { version: number; answer: unknown }[];
  /** Cache keys read while the request ran (the step's three credentials run together). */
  keys: string[];
}

export interface OracleResult {
  seed: string;
  /** Cached answers judged against the reference. */
  queries: number;
  /** Cached answers with no reference at an allowed version (e.g. a second page the reference never had). */
  unjudged: number;
  /**
   * Second pages accepted only as the reference's answer to their own cursor (their page 1 was an older
   * allowed version's, so its cursor was not the one the reference's own page 1 made).
   */
  ownCursor: number;
  /** Answers judged at a version only freshness by change allows (`touch` runs). */
  byChange: number;
  /** World versions gone through (including the first). */
  versions: number;
  steps: number;
  skippedOperations: string[];
  divergences: Divergence[];
  ms: number;
}

/** Records the keys read, with their time, so a divergence can name the cache keys involved. */
class RecordingStore implements CacheStore {
  readonly kind: CacheStore['kind'];
  readonly reads: { at: number; keys: readonly string[] }[] = [];
  constructor(private readonly inner: CacheStore) {
    this.kind = inner.kind;
  }
  getMany(keys: readonly string[]) {
    this.reads.push({ at: performance.now(), keys });
    return this.inner.getMany(keys);
  }
  setMany(entries: readonly CacheEntry[]) {
    return this.inner.setMany(entries);
  }
  has(key: string) {
    return this.inner.has(key);
  }
  health() {
    return this.inner.health();
  }
  ready(t?: number) {
    return this.inner.ready(t);
  }
  close() {
    return this.inner.close();
  }
  keysBetween(from: number, to: number): string[] {
    return [
      ...new Set(this.reads.filter((r) => r.at >= from && r.at <= to).flatMap((r) => r.keys)),
    ];
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runOracle(o: OracleOptions): Promise<OracleResult> {
  const t0 = performance.now();
  const log = o.log ?? (() => {});
  const sim: RunningSimulator = await startSimulator({
    port: 0,
    seed: o.seed,
    vary: o.vary === false ? undefined : o.seed,
    apiKeys: { revoked: [CREDENTIALS.revoked['x-glacier-api-key']] },
    ...(o.touch
      ? {
          disagree: ['invisible-payouts', 'silent-token'] as const,
          indexLagBlocks: INDEX_LAG_BLOCKS,
        }
      : {}),
  });
  const live = o.live || o.touch;
  const env = { DATA_API_KEY: 'oracle-operator-key', UPSTREAM_RETRIES: '0' };
  const recorder = new RecordingStore(
    new TieredStore(
      new MemoryStore(),
      new RedisStore({ url: o.redisUrl, commandTimeoutMs: 2_000 }),
      60_000,
    ),
  );
  const cached: TestGateway = createTestGateway(sim, {
    // Neither breaker nor a short timeout: a call slowed by a loaded machine (the simulator shares this
    // process) is no cache defect, and an open breaker would fail every step after it.
    env: {
      ...env,
      ...PATIENT,
      RESPONSE_CACHE_MAX_TTL_MS: '60000',
      ...(live ? { LIVE_WS: `43114=${sim.wsUrl}` } : {}),
      // `live` alone judges the head's freshness (every head entry versioned by the head); `touch`, the
      // default freshness by change, with its own judge.
      ...(o.touch
        ? {
            LIVE_ADDRESS_FRESHNESS: 'touch',
            LIVE_TOUCH_WINDOW_BLOCKS: String(TOUCH_WINDOW_BLOCKS),
            ...(o.plant && o.plant in TOUCH_ENV_PLANTS
              ? TOUCH_ENV_PLANTS[o.plant as keyof typeof TOUCH_ENV_PLANTS]
              : {}),
          }
        : { LIVE_ADDRESS_FRESHNESS: 'head' }),
    },
    store: recorder,
    ttlOverrides: CACHED_TTL,
    staleOverrides: CACHED_STALE,
    wrapPolicy: o.plant && o.plant in PLANTS ? PLANTS[o.plant as keyof typeof PLANTS] : undefined,
    wrapTouches:
      o.plant && o.plant in TOUCH_PLANTS
        ? TOUCH_PLANTS[o.plant as keyof typeof TOUCH_PLANTS]
        : undefined,
    derivations:
      o.plant && o.plant in DERIVATION_PLANTS
        ? DERIVATION_PLANTS[o.plant as keyof typeof DERIVATION_PLANTS]()
        : undefined,
  });
  // The reference is the truth, not a resilient server: no circuit breaker (on a loaded machine a few
  // slow calls would open it, and every retry below would then fail fast) and a longer timeout.
  const referenceStore = new MemoryStore();
  const reference: TestGateway = createTestGateway(sim, {
    env: { ...env, ...PATIENT },
    store: referenceStore,
    // The upstream's own answers: nothing derived from list items (src/upstream/derivations.ts).
    derivations: NO_DERIVATIONS,
    ttlOverrides: ZERO_TTL,
    staleOverrides: NO_STALE,
  });
  await cached.ready();

  const result: OracleResult = {
    seed: o.seed,
    queries: 0,
    unjudged: 0,
    ownCursor: 0,
    byChange: 0,
    versions: 1,
    steps: 0,
    skippedOperations: [],
    divergences: [],
    ms: 0,
  };
  try {
    // From the printed SDL (schema:check keeps it current), so the workload's graphql module owns every type.
    const schema = buildSchema(
      readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'),
    );
    const rng = new Rng(`oracle|${o.seed}`);
    const args = argValues(sim.world.fixtures, {
      selfNodeId: sim.world.selfNodeId,
      seed: o.seed,
      ids: worldIds(sim.world),
    });

    // Harvest global ids from the generated queries' reference answers, then build the whole workload.
    const gen = generatedSteps(schema, args);
    const ids = new Set<string>();
    // (A run restricted to named steps skips the harvest: its steps are named, not sampled.)
    if (!o.onlySteps)
      for (const s of gen) harvestIds((await reference.query(s.query, s.variables)).data, ids);
    const idList = [...ids].sort();
    const nodeIds = Array.from({ length: Math.min(8, idList.length) }, () => rng.pick(idList));
    const ops = operationSteps(schema, args, () => idList, rng);
    result.skippedOperations = ops.skipped;
    let steps: Step[] = [
      ...ops.steps,
      ...gen,
      ...extraSteps(schema, args, sim.world),
      ...nodeSteps(schema, nodeIds),
    ];
    if (o.onlySteps) steps = steps.filter((s) => o.onlySteps!.includes(s.name));
    if (o.maxSteps !== undefined && steps.length > o.maxSteps) {
      const shuffled = steps
        .map((s) => ({ s, k: rng.next() }))
        .sort((a, b) => a.k - b.k)
        .map((x) => x.s);
      steps = shuffled.slice(0, o.maxSteps);
    }
    result.steps = steps.length;
    const groupSize = Math.max(1, o.groupSize ?? GROUP_SIZE);
    const groups: Step[][] = [];
    for (let i = 0; i < steps.length; i += groupSize) groups.push(steps.slice(i, i + groupSize));
    log(
      `oracle ${o.seed}: ${steps.length} steps in ${groups.length} groups (${ops.skipped.length} operations skipped: no value for a required variable), ${o.rounds} rounds each`,
    );

    // refs: `${step}|${page}|${credential}` → version → answer
    const refs = new Map<string, Map<number, Answer>>();
    const versionStart: number[] = [performance.now()];
    let version = 0;
    // Touch runs: the followed chain's head at each version, the addresses its blocks visibly touched
    // on the way to it as the Data API sees them (the blocks it indexed since the last version, the lag
    // behind the node's), and the address entries each step has read (a whole-response hit reads none).
    const lag = o.touch ? INDEX_LAG_BLOCKS : 0;
    const headAt: number[] = [sim.world.chain('43114')!.head().number];
    const touchedAt: Set<string>[] = [new Set()];
    const stepAddresses = new Map<string, Set<string>>();
    /** Versions an answer that read these addresses' entries may be at, by freshness by change. */
    const allowedByChange = (addresses: ReadonlySet<string>): number[] => {
      const out: number[] = [];
      for (let v = version - 1; v >= 0; v--) {
        if (headAt[version]! - headAt[v]! >= TOUCH_WINDOW_BLOCKS) break;
        if ([...addresses].some((a) => touchedAt[v + 1]!.has(a))) break;
        out.push(v);
      }
      return out;
    };
    const creds = Object.keys(CREDENTIALS) as Credential[];

    // The reference runs without retries: on a loaded machine one upstream call can outlive its timeout.
    // An answer that could not reach the upstream is no reference: ask again (a fault the run injects on
    // purpose persists across the retries, so it is still recorded as such).
    const askReference = async (
      query: string,
      variables: Record<string, unknown> | undefined,
      headers: Record<string, string>,
    ) => {
      let r = await reference.query(query, variables, headers);
      for (
        let n = 0;
        n < 2 && r.errors?.some((e) => e.extensions?.code === 'UPSTREAM_UNAVAILABLE');
        n++
      )
        r = await reference.query(query, variables, headers);
      return r;
    };
    const referencePass = async (steps: readonly Step[]) => {
      for (const step of steps) {
        for (const cred of creds) {
          const p1 = normalize(
            await askReference(step.query, step.variables, { ...CREDENTIALS[cred] }),
          );
          record(`${step.name}|1|${cred}`, p1);
          if (step.pages && p1.cursor)
            record(
              `${step.name}|2|${cred}`,
              normalize(
                await askReference(
                  step.query,
                  { ...step.variables, after: p1.cursor },
                  { ...CREDENTIALS[cred] },
                ),
              ),
            );
        }
      }
    };
    const record = (key: string, a: Answer) => {
      let m = refs.get(key);
      if (!m) {
        m = new Map();
        refs.set(key, m);
      }
      m.set(version, a);
    };

    /**
     * The reference's answer to the very request the cached gateway answered (its own cursor) at the
     * current version. A cached page 1 may be an older allowed version's, so its cursor may name another
     * list (logs of an older head) or another item (a live list's position) than the reference's own
     * page 1 did: only the same request's answer says what page 2 should be. A head cursor's snapshot
     * lives in the cached gateway's store; the reference is handed a copy of it.
     */
    const askSameRequest = async (
      query: string,
      vars: Record<string, unknown>,
      cred: Credential,
    ) => {
      const snapshot = headSnapshotOf(vars.after);
      if (snapshot) {
        const key = cacheKeys.pageSnapshot(snapshot);
        const [page] = await recorder.getMany([key]);
        if (page !== undefined)
          await referenceStore.setMany([{ key, value: page, ttlMs: SNAPSHOT_TTL_MS }]);
      }
      return normalize(await askReference(query, vars, { ...CREDENTIALS[cred] }));
    };

    const judge = async (
      step: Step,
      page: 1 | 2,
      cred: Credential,
      vars: Record<string, unknown>,
      got: Answer,
      started: number,
      ended: number,
      round: number,
      pass: Divergence['pass'],
    ) => {
      const byVersion = refs.get(`${step.name}|${page}|${cred}`);
      const addresses = stepAddresses.get(step.name);
      const byTime = allowedVersions(versionStart, version, started, STALENESS_BOUND_MS);
      const allowed = [
        ...new Set([...byTime, ...(o.touch && addresses?.size ? allowedByChange(addresses) : [])]),
      ];
      const candidates = allowed.filter((v) => byVersion?.has(v));
      if (candidates.length === 0) {
        result.unjudged++;
        return;
      }
      result.queries++;
      if (
        matches(
          got,
          candidates.map((v) => byVersion!.get(v)!),
        )
      ) {
        // Counted apart: answers only freshness by change allows (kept past a head no block touched them at).
        if (
          candidates.length > byTime.length &&
          !matches(
            got,
            candidates.filter((v) => byTime.includes(v)).map((v) => byVersion!.get(v)!),
          )
        )
          result.byChange++;
        return;
      }
      // A step that read several addresses: each one's own data may be at the versions its own touches
      // allow (one address kept while another, touched, was read again), the rest at the step's.
      if (
        o.touch &&
        addresses?.size &&
        composesByAddress(
          got.value,
          candidates.map((v) => byVersion!.get(v)!.value),
          addresses,
          (address) =>
            [...new Set([...byTime, ...allowedByChange(new Set([address]))])]
              .filter((v) => byVersion!.has(v))
              .map((v) => byVersion!.get(v)!.value),
        )
      ) {
        result.byChange++;
        return;
      }
      if (page === 2) {
        const same = await askSameRequest(step.query, vars, cred);
        if (matches(got, [same, ...candidates.map((v) => byVersion!.get(v)!)])) {
          result.ownCursor++;
          return;
        }
      }
      // Shared successful public data: an answer without errors may be what another credential
      // obtained successfully (never an error, and never a partial answer, crosses credentials).
      if (!hasErrors(got.value)) {
        for (const other of creds) {
          if (other === cred) continue;
          const theirs = refs.get(`${step.name}|${page}|${other}`);
          if (
            allowed.some(
              (v) => theirs?.get(v)?.norm === got.norm && !hasErrors(theirs.get(v)!.value),
            )
          )
            return;
        }
      }
      result.divergences.push({
        seed: o.seed,
        round,
        pass,
        step: step.name,
        page,
        credential: cred,
        query: step.query,
        variables: vars,
        got: got.value,
        expected: candidates.map((v) => ({ version: v, answer: byVersion!.get(v)!.value })),
        keys: recorder.keysBetween(started, ended),
      });
    };

    /** Runs every step on the cached gateway; returns the judgments to make once the reference has answered at this version. */
    const cachedPass = async (
      steps: readonly Step[],
      round: number,
      pass: Divergence['pass'],
    ): Promise<(() => Promise<void>)[]> => {
      const pending: (() => Promise<void>)[] = [];
      for (const step of steps) {
        const started = performance.now();
        const page1 = await Promise.all(
          creds.map(async (cred) =>
            normalize(await cached.query(step.query, step.variables, { ...CREDENTIALS[cred] })),
          ),
        );
        const page2 = await Promise.all(
          creds.map(async (cred, i) => {
            const c = page1[i]!.cursor;
            if (!step.pages || !c) return undefined;
            const vars = { ...step.variables, after: c };
            return {
              vars,
              a: normalize(await cached.query(step.query, vars, { ...CREDENTIALS[cred] })),
            };
          }),
        );
        const ended = performance.now();
        if (o.touch)
          for (const key of recorder.keysBetween(started, ended)) {
            const a = ADDRESS_KEY.exec(key)?.[1]?.toLowerCase();
            if (!a) continue;
            const set = stepAddresses.get(step.name) ?? new Set<string>();
            set.add(a);
            stepAddresses.set(step.name, set);
          }
        creds.forEach((cred, i) => {
          pending.push(() =>
            judge(step, 1, cred, step.variables, page1[i]!, started, ended, round, pass),
          );
          const p2 = page2[i];
          if (p2)
            pending.push(() => judge(step, 2, cred, p2.vars, p2.a, started, ended, round, pass));
        });
      }
      return pending;
    };

    for (const [g, group] of groups.entries()) {
      // A later group starts at the version the one before ended at (its round 0: no advance). Each round
      // turns the group's order, and the pass after an advance reads the last round's order backwards:
      // the steps the last pass read last are read again first, within their TTL, across the new version.
      let previous: Step[] = group;
      for (let round = 0; round <= o.rounds; round++) {
        let pending: (() => Promise<void>)[] = [];
        const roundStart = performance.now();
        const shift = (round * ROTATE) % group.length;
        const order = [...group.slice(shift), ...group.slice(0, shift)];
        if (round > 0) {
          const before = sim.world.chain('43114')!.head().number;
          await advanceWorld(sim);
          if (live) await headReached(sim, cached);
          version++;
          headAt.push(sim.world.chain('43114')!.head().number);
          touchedAt.push(visiblyTouched(sim, before - lag, headAt[version]! - lag));
          versionStart.push(performance.now());
          result.versions++;
          pending = await cachedPass([...previous].reverse(), round, 'before-reference');
        }
        await referencePass(order);
        for (const j of pending) await j();
        // The round lasts at least MIN_ROUND_MS, waited here so that nothing stands between this round's
        // last reads and the next round's first.
        const left = MIN_ROUND_MS - (performance.now() - roundStart);
        if (left > 0 && round < o.rounds) await sleep(left);
        for (const j of await cachedPass(order, round, 'after-reference')) await j();
        previous = order;
        log(
          `  group ${g + 1}/${groups.length} round ${round}: version ${version}, ${result.queries} judged, ${result.divergences.length} divergences`,
        );
      }
    }
  } finally {
    await cached.close();
    await reference.close();
    await sim.close();
  }
  result.ms = Math.round(performance.now() - t0);
  return result;
}

/** The snapshot a head cursor resumes from (its payload is readable; only its signature is secret). */
function headSnapshotOf(cursor: unknown): string | undefined {
  if (typeof cursor !== 'string') return undefined;
  try {
    const c = JSON.parse(Buffer.from(cursor.split('.')[0]!, 'base64url').toString('utf8'));
    return c?.kind === 'head' && typeof c.snapshot === 'string' ? c.snapshot : undefined;
  } catch {
    return undefined;
  }
}

/** One world step: new blocks on every indexed chain (and whatever else the simulator moves on advance). */
async function advanceWorld(sim: RunningSimulator): Promise<void> {
  for (const c of sim.world.chains) {
    const res = await fetch(`${sim.url}/_sim/advance`, {
      method: 'POST',
      body: JSON.stringify({ chainId: c.chainId, blocks: 2 }),
    });
    if (!res.ok) throw new Error(`advance ${c.chainId}: ${res.status} ${await res.text()}`);
  }
}

/** Until the cached gateway's live feed holds the simulator's C-Chain head (at most 10 s). */
async function headReached(sim: RunningSimulator, gw: TestGateway): Promise<void> {
  const want = String(sim.world.chain('43114')!.head().number);
  for (let i = 0; i < 500 && gw.live?.head('43114')?.number !== want; i++) await sleep(20);
  if (gw.live?.head('43114')?.number !== want)
    throw new Error(`the cached gateway's live feed never saw head ${want}`);
}

/** A divergence as text: the query, both answers and the cache keys. */
export function formatDivergence(d: Divergence, max = 1_500): string {
  const cut = (v: unknown) => {
    const s = JSON.stringify(v);
    return s.length > max ? `${s.slice(0, max)}…` : s;
  };
  return [
    `DIVERGENCE seed=${d.seed} round=${d.round} (${d.pass}) step=${d.step} page=${d.page} credential=${d.credential}`,
    ...d.expected
      .slice(0, 1)
      .map(
        (e) =>
          `  first difference from reference@v${e.version}: ${firstDifference(d.got, e.answer)}`,
      ),
    `  query: ${d.query.replace(/\s+/g, ' ').slice(0, 400)}`,
    `  variables: ${JSON.stringify(d.variables)}`,
    `  cached: ${cut(d.got)}`,
    ...d.expected.slice(0, 2).map((e) => `  reference@v${e.version}: ${cut(e.answer)}`),
    `  cache keys read: ${d.keys.slice(0, 20).join(' ')}${d.keys.length > 20 ? ` (+${d.keys.length - 20})` : ''}`,
  ].join('\n');
}

/** Where two JSON values first differ: `path: a ≠ b`. */
export function firstDifference(a: unknown, b: unknown, path = ''): string {
  if (JSON.stringify(a) === JSON.stringify(b)) return '(none)';
  if (
    a &&
    b &&
    typeof a === 'object' &&
    typeof b === 'object' &&
    Array.isArray(a) === Array.isArray(b)
  ) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const x = (a as Record<string, unknown>)[k];
      const y = (b as Record<string, unknown>)[k];
      if (JSON.stringify(x) !== JSON.stringify(y)) return firstDifference(x, y, `${path}.${k}`);
    }
  }
  const cut = (v: unknown) => (JSON.stringify(v) ?? 'undefined').slice(0, 300);
  return `${path || '.'}: cached ${cut(a)} ≠ reference ${cut(b)}`;
}
