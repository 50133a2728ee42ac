import { existsSync, readFileSync } from 'node:fs';
import { resolveSpecDir } from '../spec.js';
import { hashString, Rng } from '../world/prng.js';
import { NodeVarier } from './node-variation.js';
import { edge, type Schema } from './spec-edges.js';

/**
 * `SIM_VARY=<seed>`: every Data / Metrics API answer becomes another spec-valid variant of itself,
 * derived at start from the real OpenAPI specs (`*.openapi.json` in SPEC_DIR, read in place;
 * nothing is hand-kept, so a spec change shows up here):
 *
 * - an optional property may be left out, a `nullable` one may be `null`;
 * - an enum (other than a union's discriminator) may take any of its values;
 * - integers and numeric strings may sit at their edges (0, the spec's minimum/maximum, 2^53 + 2,
 *   uint64 max) where the spec does not bound them;
 * - nested lists may be empty; a union's member follows the world (its discriminator is kept).
 *
 * What the gateway relies on for identity is never touched: ids, hashes, block numbers, addresses,
 * timestamps, heights, indexes, nonces, page tokens and discriminators. Each property's variant is a
 * function of (seed, the object's identity fields, the property, its value), never of time, call count
 * or route: the same upstream content always gets the same variant (a cached answer and a fresh one
 * are comparable), and the same entity varies the same way on every route that returns it.
 */

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
}

/** Property names the gateway treats as identity or paging state: kept as they are. */
const IDENTITY =
  /^(id|ids|.*Ids?|.*ID|.*[hH]ash(es)?|.*[nN]umber|.*[aA]ddress(es)?|.*[tT]oken|.*[tT]imestamp.*|.*[hH]eight|.*[iI]ndex|nonce|.*Nonce|network|chainName|status|txStatus)$/;
/**
 * Quantities that are unbounded on chain (uint64 / uint256 amounts, weights, balances, gas, fees):
 * these go past 2^53 and to uint64 max. Counts, decimals, type codes and percentages keep to 0 and
 * the spec's own bounds (a spec with no maximum on `decimals` does not make 2^53 decimals realistic).
 */
const AMOUNT =
  /amount|balance|weight|stake|staked|reward|fee|fees|value|supply|gas|price|burned|capacity|spent/i;
/** Ratios named like amounts (`stakePercentage`): not unbounded quantities. */
const RATIO = /percent|ratio/i;
/** How often one property is varied (per object, per property). */
const P_ABSENT = 0.2;
const P_EDGE = 0.25;
const P_EMPTY_LIST = 0.2;

interface RouteEntry {
  method: string;
  segments: string[];
  responses: Record<string, Schema | undefined>;
}

const normSegments = (path: string) =>
  path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith(':') || /^\{[^}]+\}$/.test(s) ? '*' : s));

/** One spec (one upstream): route lookup and the variant walk. */
export class SpecVarier {
  readonly #spec: OpenApi;
  readonly #routes: RouteEntry[] = [];
  readonly #seed: string;
  /** Routes answered with a variant since start (for reports and tests). */
  readonly variedRoutes = new Set<string>();

  constructor(spec: OpenApi, seed: string) {
    this.#spec = spec;
    this.#seed = seed;
    for (const [path, ops] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op || typeof op !== 'object' || !op.responses) continue;
        const responses: Record<string, Schema | undefined> = {};
        for (const [status, r] of Object.entries(op.responses))
          responses[status] = r.content?.['application/json']?.schema;
        this.#routes.push({
          method: method.toUpperCase(),
          segments: normSegments(path),
          responses,
        });
      }
    }
  }

  /** The response schema of a simulator route template (`GET /v1/chains/:chainId/blocks`) and status, if the spec has one. */
  schemaFor(route: string, status: number): Schema | undefined {
    const sp = route.indexOf(' ');
    const method = route.slice(0, sp);
    const segs = normSegments(route.slice(sp + 1));
    const entry = this.#routes.find(
      (r) =>
        r.method === method &&
        r.segments.length === segs.length &&
        r.segments.every((s, i) => s === segs[i]),
    );
    return entry?.responses[String(status)] ?? entry?.responses['2XX'];
  }

  /** A spec-valid variant of `body` (a fresh value; `body` is not modified), or `body` when the route has no schema. */
  vary(route: string, status: number, body: unknown): unknown {
    const schema = this.schemaFor(route, status);
    if (!schema || body === undefined) return body;
    this.variedRoutes.add(route);
    return this.#walk(schema, structuredClone(body), undefined, 0);
  }

  #deref(schema: Schema, name?: string): { s: Schema; name?: string } {
    let s = schema;
    let n = name;
    for (let i = 0; i < 20 && typeof s.$ref === 'string'; i++) {
      n = (s.$ref as string).split('/').pop();
      s = this.#spec.components?.schemas?.[n!] ?? {};
    }
    return { s, name: n };
  }

  /** allOf flattened into one schema (properties and required merged); nullable kept. */
  #flatten(schema: Schema, name?: string): { s: Schema; name?: string } {
    const d = this.#deref(schema, name);
    const all = d.s.allOf as Schema[] | undefined;
    if (!all) return d;
    const parts = all.map((p) => this.#flatten(p));
    const props: Record<string, Schema> = {};
    const required = new Set<string>();
    let merged: Schema = {};
    for (const p of [...parts.map((x) => x.s), d.s]) {
      merged = { ...merged, ...p };
      Object.assign(props, p.properties ?? {});
      for (const r of (p.required as string[] | undefined) ?? []) required.add(r);
    }
    delete merged.allOf;
    if (Object.keys(props).length > 0) merged.properties = props;
    if (required.size > 0) merged.required = [...required];
    return {
      s: merged,
      name: parts.length === 1 && !d.s.properties ? (parts[0]!.name ?? d.name) : d.name,
    };
  }

  /** The union member a value belongs to: the discriminator's mapping, else the first whose required props and single-value enums fit. */
  #member(s: Schema, value: unknown): Schema | undefined {
    const members = (s.oneOf ?? s.anyOf) as Schema[];
    const disc = s.discriminator as
      | { propertyName: string; mapping?: Record<string, string> }
      | undefined;
    if (disc && value && typeof value === 'object') {
      const ref = disc.mapping?.[String((value as Record<string, unknown>)[disc.propertyName])];
      if (ref) return { $ref: ref };
    }
    return members.find((m) => this.#fits(m, value));
  }

  #fits(schema: Schema, value: unknown): boolean {
    const { s } = this.#flatten(schema);
    if (s.oneOf || s.anyOf) return this.#member(s, value) !== undefined;
    const type = s.type as string | undefined;
    if (value === null) return s.nullable === true;
    if (Array.isArray(value)) return type === 'array';
    if (typeof value === 'object') {
      if (type !== undefined && type !== 'object') return false;
      const o = value as Record<string, unknown>;
      if (!((s.required as string[] | undefined) ?? []).every((k) => k in o)) return false;
      for (const [k, p] of Object.entries((s.properties as Record<string, Schema>) ?? {})) {
        const ps = this.#flatten(p).s;
        const e = ps.enum as unknown[] | undefined;
        if (e && k in o && !e.includes(o[k])) return false;
        // A list tells members apart by its items (the UTXO answers' oneOf: P-Chain UTXOs or the X/C shape).
        const v = o[k];
        if (Array.isArray(v) && v.length > 0 && ps.items && !this.#fits(ps.items as Schema, v[0]))
          return false;
      }
      return true;
    }
    if (typeof value === 'string') return type === undefined || type === 'string';
    if (typeof value === 'number') return type === 'number' || type === 'integer';
    if (typeof value === 'boolean') return type === 'boolean';
    return true;
  }

  #walk(schema: Schema, value: unknown, name: string | undefined, depth: number): unknown {
    if (value === null || typeof value !== 'object') return value;
    const f = this.#flatten(schema, name);
    let s = f.s;
    if (s.oneOf || s.anyOf) {
      const m = this.#member(s, value);
      if (!m) return value;
      const mf = this.#flatten(m);
      s = mf.s;
      const disc = (f.s.discriminator as { propertyName: string } | undefined)?.propertyName;
      if (disc) s = { ...s, 'x-discriminator': disc };
    }
    if (Array.isArray(value)) {
      const items = s.items as Schema | undefined;
      return items ? value.map((v) => this.#walk(items, v, undefined, depth + 1)) : value;
    }
    const obj = value as Record<string, unknown>;
    const props = (s.properties as Record<string, Schema> | undefined) ?? {};
    const required = new Set((s.required as string[] | undefined) ?? []);
    const disc = s['x-discriminator'] as string | undefined;
    // Keyed by the object's identity (its id/hash/number fields), the property and that property's own
    // value: the same entity varies the same way on every route that returns it, and a property varies
    // anew when the world changes its value.
    const identity = Object.keys(obj)
      .filter(
        (k) =>
          IDENTITY.test(k) &&
          k !== 'nextPageToken' &&
          (typeof obj[k] !== 'object' || obj[k] === null),
      )
      .sort()
      .map((k) => `${k}=${String(obj[k])}`)
      .join('&');
    for (const key of Object.keys(obj)) {
      const propSchema = props[key];
      if (!propSchema) continue;
      const rng = new Rng(
        `${this.#seed}|${identity}|${key}|${hashString(JSON.stringify(obj[key]) ?? '')}`,
      );
      const r = rng.next();
      const pick = rng.next();
      if (IDENTITY.test(key) || key === disc) {
        obj[key] = this.#walk(propSchema, obj[key], undefined, depth + 1);
        continue;
      }
      const p = this.#flatten(propSchema).s;
      if (r < P_ABSENT) {
        if (!required.has(key)) {
          delete obj[key];
          continue;
        }
        if (p.nullable === true || propSchema.nullable === true) {
          obj[key] = null;
          continue;
        }
      }
      const v = obj[key];
      if (Array.isArray(v)) {
        // Nested lists may be empty; a response's own list (depth 0) keeps the world's items.
        const min = (p.minItems as number | undefined) ?? 0;
        if (depth > 0 && min === 0 && r >= P_ABSENT && r < P_ABSENT + P_EMPTY_LIST) obj[key] = [];
        else obj[key] = this.#walk(propSchema, v, undefined, depth + 1);
        continue;
      }
      if (v !== null && typeof v === 'object') {
        obj[key] = this.#walk(propSchema, v, undefined, depth + 1);
        continue;
      }
      if (r < 1 - P_EDGE) continue;
      obj[key] = edge(p, v, pick, AMOUNT.test(key) && !RATIO.test(key));
    }
    return obj;
  }
}

export interface SpecVariation {
  seed: string;
  dataApi: SpecVarier;
  metricsApi: SpecVarier;
  /** The node's JSON-RPC answers (no spec: rules after avalanchego / geth, see node-variation.ts). */
  node: NodeVarier;
}

/** Reads both specs from `specDir` (src/spec/spec-dir.ts); throws a clear error when they are missing. */
export function loadSpecVariation(seed: string, specDir = resolveSpecDir()): SpecVariation {
  const read = (file: string): OpenApi => {
    const path = `${specDir.replace(/\/?$/, '/')}${file}`;
    if (!existsSync(path))
      throw new Error(
        `SIM_VARY needs the OpenAPI specs: ${path} not found (run \`npm run spec:fetch\` or set SPEC_DIR)`,
      );
    return JSON.parse(readFileSync(path, 'utf8')) as OpenApi;
  };
  return {
    seed,
    dataApi: new SpecVarier(read('data-api.openapi.json'), `${seed}|data`),
    metricsApi: new SpecVarier(read('metrics-api.openapi.json'), `${seed}|metrics`),
    node: new NodeVarier(`${seed}|node`),
  };
}
