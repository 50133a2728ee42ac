import { simCu } from './prices.js';
import type { SimFault, SimStats } from './types.js';
import { Rng } from './world/prng.js';

/**
 * The simulator's control state: call counts since the last reset and injected faults.
 * Faults are tried in the order they were added; each one that fires adds its latency, and the
 * first firing one with a terminal effect (reset, malformed body, status) decides the answer.
 */

export class CallStats {
  private total = 0;
  private byRoute = new Map<string, number>();
  private byRpcMethod = new Map<string, number>();
  private nodeCu = 0;
  private dataCu = 0;
  private metricsCu = 0;
  private cuByRoute = new Map<string, number>();
  private charge(key: string, cu: number): void {
    this.cuByRoute.set(key, (this.cuByRoute.get(key) ?? 0) + cu);
  }

  count(routeKey: string, rpcKeys: readonly string[] = []): void {
    this.total++;
    this.byRoute.set(routeKey, (this.byRoute.get(routeKey) ?? 0) + 1);
    // What each upstream charged, at the simulator's own price table (src/prices.ts).
    const space = routeKey.indexOf(' ');
    const upstream = routeKey.slice(0, space);
    if (upstream === 'data-api' || upstream === 'metrics-api') {
      const cu = simCu(upstream === 'data-api' ? 'data' : 'metrics', routeKey.slice(space + 1));
      if (upstream === 'data-api') this.dataCu += cu;
      else this.metricsCu += cu;
      this.charge(routeKey, cu);
    }
    for (const k of rpcKeys) {
      this.byRpcMethod.set(k, (this.byRpcMethod.get(k) ?? 0) + 1);
      const cu = simCu('rpc', k.slice(k.lastIndexOf(' ') + 1));
      this.nodeCu += cu;
      this.charge(`node ${k}`, cu);
    }
  }

  snapshot(): SimStats {
    return {
      total: this.total,
      byRoute: Object.fromEntries(this.byRoute),
      byRpcMethod: Object.fromEntries(this.byRpcMethod),
      nodeCu: this.nodeCu,
      dataCu: this.dataCu,
      metricsCu: this.metricsCu,
      cuByRoute: Object.fromEntries(this.cuByRoute),
    };
  }

  reset(): void {
    this.total = 0;
    this.byRoute.clear();
    this.byRpcMethod.clear();
    this.nodeCu = 0;
    this.dataCu = 0;
    this.metricsCu = 0;
    this.cuByRoute.clear();
  }
}

/** What the faults decided for one request. */
export interface FaultDecision {
  latencyMs: number;
  /** Terminal effect; undefined = answer normally (after the latency). */
  effect?:
    | { kind: 'reset' }
    | { kind: 'malformed' }
    | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> };
}

interface ActiveFault {
  fault: SimFault;
  remaining: number;
  rng: Rng;
}

export class FaultSet {
  private faults: ActiveFault[] = [];
  private added = 0;

  /** Validates and adds faults; throws an Error with a readable message when one is invalid. */
  add(input: SimFault | SimFault[]): number {
    const list = Array.isArray(input) ? input : [input];
    for (const f of list) validateFault(f);
    for (const f of list) {
      // Each fault rolls its own seeded dice, so a rate-based run is reproducible.
      this.faults.push({
        fault: f,
        remaining: f.count ?? Number.POSITIVE_INFINITY,
        rng: new Rng(`fault|${this.added++}`),
      });
    }
    return this.faults.length;
  }

  clear(): void {
    this.faults = [];
  }

  list(): SimFault[] {
    return this.faults.map((a) => ({
      ...a.fault,
      ...(Number.isFinite(a.remaining) ? { count: a.remaining } : {}),
    }));
  }

  get size(): number {
    return this.faults.length;
  }

  /** Decides the faults for a request whose key is `${upstream} ${route}`. */
  decide(routeKey: string): FaultDecision {
    const out: FaultDecision = { latencyMs: 0 };
    if (this.faults.length === 0) return out;
    for (const a of this.faults) {
      const f = a.fault;
      if (a.remaining <= 0) continue;
      if (f.route !== undefined && !routeKey.startsWith(f.route)) continue;
      const terminal = f.reset || f.malformed || f.status !== undefined;
      if (terminal && out.effect) continue;
      if (f.rate !== undefined && f.rate < 1 && a.rng.next() >= f.rate) continue;
      a.remaining--;
      out.latencyMs += f.latencyMs ?? 0;
      if (f.reset) out.effect = { kind: 'reset' };
      else if (f.malformed) out.effect = { kind: 'malformed' };
      else if (f.status !== undefined)
        out.effect = { kind: 'status', status: f.status, body: f.body, headers: f.headers };
    }
    this.faults = this.faults.filter((a) => a.remaining > 0);
    return out;
  }
}

function validateFault(f: SimFault): void {
  if (typeof f !== 'object' || f === null || Array.isArray(f))
    throw new Error('a fault must be an object');
  if (f.route !== undefined && typeof f.route !== 'string')
    throw new Error(
      'fault.route must be a string (a prefix of "<upstream> <METHOD> <route template>")',
    );
  if (f.status !== undefined && (!Number.isInteger(f.status) || f.status < 100 || f.status > 599))
    throw new Error('fault.status must be an HTTP status 100..599');
  if (f.latencyMs !== undefined && (typeof f.latencyMs !== 'number' || f.latencyMs < 0))
    throw new Error('fault.latencyMs must be a number >= 0');
  if (f.count !== undefined && (!Number.isInteger(f.count) || f.count < 1))
    throw new Error('fault.count must be an integer >= 1');
  if (f.rate !== undefined && (typeof f.rate !== 'number' || f.rate < 0 || f.rate > 1))
    throw new Error('fault.rate must be a number in 0..1');
  if (!f.reset && !f.malformed && f.status === undefined && !f.latencyMs)
    throw new Error('a fault needs one of: status, reset, malformed, latencyMs');
}
