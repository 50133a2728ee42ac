import type { SimRequest, SimUpstreamOptions } from '../types.js';
import type { EvmChainData, PrimaryNetworkData, World } from '../world/index.js';
import { badRequest, notFound } from './errors.js';
import type { PageTokens } from './page-tokens.js';

/**
 * What a route handler works with: the world, its request, query validation that collects every
 * failure (answered together as one 400, like NestJS's ValidationPipe) and page-token plumbing.
 */
export class Ctx {
  readonly errors: string[] = [];

  constructor(
    readonly world: World,
    readonly req: SimRequest,
    readonly params: Record<string, string>,
    /** The route template, e.g. `GET /v1/chains/:chainId/blocks`. */
    readonly route: string,
    private readonly tokens: PageTokens,
    readonly opts: SimUpstreamOptions,
  ) {}

  /** A query value; empty strings count as absent. */
  q(name: string): string | undefined {
    const v = this.req.query.get(name);
    return v === null || v === '' ? undefined : v;
  }

  pageSize(min = 1, max = 100, def = 10): number {
    const raw = this.q('pageSize');
    if (raw === undefined) return def;
    if (!/^-?\d+$/.test(raw)) {
      this.errors.push('pageSize must be an integer number');
      return def;
    }
    const n = Number(raw);
    if (n < min) this.errors.push(`pageSize must not be less than ${min}`);
    if (n > max) this.errors.push(`pageSize must not be greater than ${max}`);
    return n;
  }

  int(name: string, o: { min?: number; max?: number } = {}): number | undefined {
    const raw = this.q(name);
    if (raw === undefined) return undefined;
    if (!/^-?\d+$/.test(raw)) {
      this.errors.push(`${name} must be an integer number`);
      return undefined;
    }
    const n = Number(raw);
    if (o.min !== undefined && n < o.min)
      this.errors.push(`${name} must not be less than ${o.min}`);
    if (o.max !== undefined && n > o.max)
      this.errors.push(`${name} must not be greater than ${o.max}`);
    return n;
  }

  enumOf<T extends string>(
    name: string,
    values: readonly T[],
    value = this.q(name),
  ): T | undefined {
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) {
      this.errors.push(`${name} must be one of the following values: ${values.join(', ')}`);
      return undefined;
    }
    return value as T;
  }

  bool(name: string): boolean | undefined {
    const raw = this.q(name);
    if (raw === undefined) return undefined;
    if (raw !== 'true' && raw !== 'false') {
      this.errors.push(`${name} must be a boolean value`);
      return undefined;
    }
    return raw === 'true';
  }

  /** Repeated (`a=1&a=2`) or comma-separated values. */
  list(name: string): string[] {
    return this.req.query
      .getAll(name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
  }

  /**
   * The query may name only these parameters (the route's own, as the spec lists them), each at most once:
   * an unknown name is refused like NestJS's `forbidNonWhitelisted` ("property x should not exist"), a
   * repeated one like a string property given an array. So a client that names or serialises a filter
   * otherwise than the spec says gets a 400, not a silently unfiltered list.
   */
  allowOnly(names: readonly string[]): void {
    const seen = new Set<string>();
    for (const name of this.req.query.keys()) {
      if (seen.has(name)) continue;
      seen.add(name);
      if (!names.includes(name)) this.errors.push(`property ${name} should not exist`);
      else if (this.req.query.getAll(name).length > 1) this.errors.push(`${name} must be a string`);
    }
  }

  /** A number query parameter within [min, max] (JSON numbers: decimals allowed). */
  num(name: string, o: { min: number; max: number }): number | undefined {
    const raw = this.q(name);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!/^-?\d+(\.\d+)?$/.test(raw) || !Number.isFinite(n)) {
      this.errors.push(`${name} must be a number conforming to the specified constraints`);
      return undefined;
    }
    if (n < o.min) this.errors.push(`${name} must not be less than ${o.min}`);
    if (n > o.max) this.errors.push(`${name} must not be greater than ${o.max}`);
    return n;
  }

  /** `allowOnly` for a route's declared names, as arguments. */
  only(...names: string[]): void {
    this.allowOnly(names);
  }

  /** Throws the collected validation failures as one 400. */
  check(): void {
    if (this.errors.length > 0) throw badRequest(...this.errors);
  }

  /** The EVM chain of `:chainId` (decimal chain id or blockchain id); 404 when not indexed. */
  chain(): EvmChainData {
    const id = this.params.chainId!;
    const c = this.world.chain(id);
    if (!c)
      throw notFound(
        `Chain ${id} not found. Use the /v1/chains endpoint to list supported chains.`,
      );
    return c;
  }

  /** A 0x EVM address from the path; 400 in the real wording when malformed. */
  evmAddress(name = 'address'): string {
    const a = this.params[name]!;
    if (!/^0x[0-9a-fA-F]{40}$/.test(a)) throw badRequest('Invalid address format');
    return a;
  }

  /** `:network` (mainnet, fuji, testnet). */
  network(value = this.params.network): PrimaryNetworkData {
    const name = this.enumOf('network', ['mainnet', 'fuji', 'testnet'] as const, value);
    this.check();
    return this.world.network(name!)!;
  }

  private binding(filterParams: readonly string[]): string {
    const parts = filterParams.map((p) => `${p}=${this.req.query.getAll(p).join(',')}`);
    return `${this.route}|${this.req.path}|${parts.join('&')}`;
  }

  /** The cursor behind `pageToken`, checked against this query; undefined on a first page. */
  cursor<K>(filterParams: readonly string[]): K | undefined {
    const token = this.q('pageToken');
    return token === undefined
      ? undefined
      : this.tokens.resume<K>(token, this.binding(filterParams));
  }

  /** `{nextPageToken}` to spread into a list answer (empty when there is no next page). */
  nextPage<K>(filterParams: readonly string[], next: K | undefined): { nextPageToken?: string } {
    return next === undefined
      ? {}
      : { nextPageToken: this.tokens.issue(this.binding(filterParams), next) };
  }
}

/** A non-200 success (the signature aggregator answers 201). */
export class Created {
  readonly status = 201;
  constructor(readonly body: unknown) {}
}
