import type { GatewayContext } from '../context.js';
import type { GatewayTypes } from './builder-types.js';
import { isoOf } from './scalars.js';

/**
 * Fields that show a property of the parent as it is, declared as a table (`name: [kind, description]`,
 * or `name: ref(Type, description)` for an object or enum type) instead of one `t.expose…` block each. The kind says how the graph types the property and whether it
 * may be null; the table is checked against the parent's shape, so a kind that does not fit the
 * property's type (a nullable property as a non-null field, a number as a `String`) does not compile.
 */
type Holds = {
  String: string;
  'String?': string | null | undefined;
  Int: number;
  'Int?': number | null | undefined;
  Float: number;
  'Float?': number | null | undefined;
  Boolean: boolean;
  'Boolean?': boolean | null | undefined;
  BigDecimal: string;
  'BigDecimal?': string | null | undefined;
  Timestamp: number;
  'Timestamp?': number | null | undefined;
  '[String]': readonly string[];
  /** Unix seconds, and beside it `<name>Iso`: the same instant as an ISO 8601 UTC date-time. */
  'Timestamp+Iso': number;
  /** An EVM address as a String in lower-case hex, whatever case the upstream sent (docs/schema-conventions.md). */
  EvmAddress: string;
  'EvmAddress?': string | null | undefined;
};
type Kind = keyof Holds;

/** The kinds a property of type `V` may be exposed as (`[V]` so a union is not split apart). */
type KindsOf<V> = { [K in Kind]: [V] extends [Holds[K]] ? K : never }[Kind];

/**
 * An entry for a property shown as an object, interface, union or enum type (`ref(…)`). `accepts` is
 * never called: its parameter makes the table check that the property's values are ones the type takes.
 */
export interface RefEntry<T, N extends boolean = boolean> {
  readonly ref: object;
  readonly description: string;
  readonly nullable: N;
  readonly accepts: (value: T) => void;
}

/** A property shown as the type of `r`, never null. */
export const ref = <T>(typeRef: { $inferType: T }, description: string): RefEntry<T, false> => ({
  ref: typeRef,
  description,
  nullable: false,
  accepts: () => {},
});

/** A property shown as the type of `r`, null when the property is null or absent. */
export const refOrNull = <T>(
  typeRef: { $inferType: T },
  description: string,
): RefEntry<T, true> => ({
  ref: typeRef,
  description,
  nullable: true,
  accepts: () => {},
});

/** A list property shown as a list of the type of `r` (never null, nor its items). */
export const refList = <T>(
  typeRef: { $inferType: T },
  description: string,
): RefEntry<readonly T[], false> => ({
  ref: [typeRef],
  description,
  nullable: false,
  accepts: () => {},
});

/** What a property of type `V` may be declared as: a kind, or a type that takes its values. */
type Entry<V> =
  | readonly [KindsOf<V>, string]
  | RefEntry<NonNullable<V>, [V] extends [NonNullable<V>] ? boolean : true>;

export type ExposeTable<S> = {
  [K in keyof S & string]?: Entry<S[K]>;
};

const GRAPH_TYPE: Record<Kind, readonly [type: unknown, nullable: boolean]> = {
  String: ['String', false],
  'String?': ['String', true],
  Int: ['Int', false],
  'Int?': ['Int', true],
  Float: ['Float', false],
  'Float?': ['Float', true],
  Boolean: ['Boolean', false],
  'Boolean?': ['Boolean', true],
  BigDecimal: ['BigDecimal', false],
  'BigDecimal?': ['BigDecimal', true],
  Timestamp: ['Timestamp', false],
  'Timestamp?': ['Timestamp', true],
  '[String]': [['String'], false],
  'Timestamp+Iso': ['Timestamp', false],
  EvmAddress: ['String', false],
  'EvmAddress?': ['String', true],
};

/** The kinds whose value is shown in lower case (EVM addresses). */
const LOWER_CASE: ReadonlySet<Kind> = new Set<Kind>(['EvmAddress', 'EvmAddress?']);
const lowerCase = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

/** The graph type, nullability and description an entry declares. */
function graphTypeOf(entry: Entry<unknown>) {
  if (!Array.isArray(entry)) {
    const { ref: type, nullable, description } = entry as RefEntry<unknown>;
    return { type, nullable, description };
  }
  const [kind, description] = entry as readonly [Kind, string];
  const [type, nullable] = GRAPH_TYPE[kind];
  return { type, nullable, description };
}

const isoDescription = (name: string) => `\`${name}\` as an ISO 8601 UTC date-time.`;

/** The fields of `table`, in its order, to spread into a type's `fields`. */
export function exposed<
  S,
  K extends 'Object' | 'Interface',
  // A name the parent lacks is an error here too when it comes in through a spread row set.
  T extends ExposeTable<NoInfer<S>> & { readonly [Name in Exclude<keyof T, keyof S>]: never },
>(t: PothosSchemaTypes.FieldBuilder<GatewayTypes, S, K>, table: T) {
  const fields: Record<string, PothosSchemaTypes.FieldRef<GatewayTypes, unknown, K>> = {};
  for (const [name, entry] of Object.entries(table) as [string, Entry<unknown>][]) {
    // The table's type has checked `name` against the parent's shape and `kind` against its property.
    fields[name] =
      Array.isArray(entry) && LOWER_CASE.has(entry[0] as Kind)
        ? t.field({
            ...graphTypeOf(entry),
            resolve: (parent: S) => lowerCase((parent as Record<string, unknown>)[name]) ?? null,
          } as never)
        : t.expose(name as never, graphTypeOf(entry) as never);
    if (Array.isArray(entry) && entry[0] === 'Timestamp+Iso') {
      const iso = (parent: S) => isoOf((parent as Record<string, number>)[name] as number);
      fields[`${name}Iso`] = t.string({ description: isoDescription(name), resolve: iso } as never);
    }
  }
  return fields;
}

/** `next` of `value`, after it settles when it is a promise (a value at hand stays synchronous). */
const andThen = <A, B>(value: A | Promise<A>, next: (settled: A) => B): B | Promise<B> =>
  value instanceof Promise ? value.then(next) : next(value);

/** The table of a value that may be absent: each field is then null, so each kind must allow null. */
type OfTable<V> = [V] extends [NonNullable<V>]
  ? ExposeTable<V>
  : ExposeTable<{ [P in keyof NonNullable<V>]: NonNullable<V>[P] | null }>;

/**
 * Fields that show properties of a value the parent leads to (nested in it, or loaded), declared as an
 * `exposed` table over that value's shape; each field is null where `source` gives no value.
 */
export function exposedOf<S, R, K extends 'Object' | 'Interface'>(
  t: PothosSchemaTypes.FieldBuilder<GatewayTypes, S, K>,
  source: (parent: S, ctx: GatewayContext) => R,
  table: OfTable<Awaited<R>>,
) {
  const fields: Record<string, PothosSchemaTypes.FieldRef<GatewayTypes, unknown, K>> = {};
  for (const [name, entry] of Object.entries(table) as [string, Entry<unknown>][]) {
    const lower = Array.isArray(entry) && LOWER_CASE.has(entry[0] as Kind);
    const pick = (value: unknown) => {
      const v = (value as Record<string, unknown> | null)?.[name] ?? null;
      return lower ? lowerCase(v) : v;
    };
    const resolve = (parent: S, _args: unknown, ctx: GatewayContext) =>
      andThen(source(parent, ctx), pick);
    fields[name] = t.field({ ...graphTypeOf(entry), resolve } as never);
    if (Array.isArray(entry) && entry[0] === 'Timestamp+Iso') {
      const iso = (parent: S, args: unknown, ctx: GatewayContext) =>
        andThen(resolve(parent, args, ctx), (at) => isoOf(at as number));
      fields[`${name}Iso`] = t.string({ description: isoDescription(name), resolve: iso } as never);
    }
  }
  return fields;
}

/**
 * The metadata every fungible token carries (a chain's native token, an ERC-20, an ICM fee token):
 * entries to spread into an `exposed` table.
 */
export const TOKEN_METADATA = {
  name: ['String', 'Token name (e.g. "Avalanche").'],
  symbol: ['String', 'Token symbol (e.g. "AVAX").'],
  decimals: [
    'Int',
    'Decimals of the token: divide a raw amount (e.g. wei) by 10^decimals for whole tokens (18 for AVAX).',
  ],
  logoUri: ['String?', "URL of the token's logo; null when none."],
} as const;
