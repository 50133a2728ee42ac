import type { ArgBuilder } from '@pothos/core';
import type { GatewayTypes } from './builder-types.js';

/**
 * Arguments declared as a table (`name: [kind, description]`), the counterpart of `exposed` for a
 * field's inputs. A kind ending in `!` is required; an enum argument is `[Enum, description]`, or
 * `[Enum, description, 'required']`. The resolver's `args` are typed from the table as Pothos types
 * them from `t.arg…` (an optional argument may be null or absent).
 */
type Holds = {
  String: string;
  Int: number;
  Boolean: boolean;
  BigDecimal: string;
  '[String]': string[];
  '[Float]': number[];
};
type Kind = keyof Holds | `${keyof Holds}!`;
type EnumLike = { $inferInput: unknown };
type ArgEntry = readonly [Kind, string] | readonly [EnumLike, string, 'required'?];

type ShapeOf<E> = E extends readonly [infer K, string, ...infer Rest]
  ? K extends `${infer B extends keyof Holds}!`
    ? Holds[B]
    : K extends keyof Holds
      ? Holds[K] | null | undefined
      : K extends EnumLike
        ? Rest extends ['required']
          ? K['$inferInput']
          : K['$inferInput'] | null | undefined
        : never
  : never;

const GRAPH_TYPE: Record<keyof Holds, unknown> = {
  String: 'String',
  Int: 'Int',
  Boolean: 'Boolean',
  BigDecimal: 'BigDecimal',
  '[String]': ['String'],
  '[Float]': ['Float'],
};

export function argTable<const Table extends Record<string, ArgEntry>>(
  arg: ArgBuilder<GatewayTypes>,
  table: Table,
): { [P in keyof Table]: PothosSchemaTypes.ArgumentRef<GatewayTypes, ShapeOf<Table[P]>> } {
  const args: Record<string, unknown> = {};
  for (const [name, [kind, description, req]] of Object.entries<ArgEntry>(table)) {
    const named = typeof kind === 'string';
    const required = named ? kind.endsWith('!') : req === 'required';
    const type = named ? GRAPH_TYPE[kind.replace(/!$/, '') as keyof Holds] : kind;
    // The table's type gives each argument its shape; Pothos checks the type at build time.
    args[name] = arg({ type, required, description } as never);
  }
  return args as never;
}

/** The `chainId` argument of a lookup on one EVM chain (read it with `parseChainId`, then `evmChainIdOf`). */
export const CHAIN_ID_ARG = [
  'String!',
  'EVM chain id (e.g. "43114") or blockchain id.',
] as const satisfies ArgEntry;

/** The `chainId` argument of a subscription to a chain the gateway follows live. */
export const LIVE_CHAIN_ID_ARG = [
  'String!',
  'EVM chain id (decimal), one the gateway follows live.',
] as const satisfies ArgEntry;

/** The `address` argument of a field about one EVM address (read it with `parseEvmAddress`). */
export const EVM_ADDRESS_ARG = [
  'String!',
  'EVM address: 0x followed by 40 hex digits, any case.',
] as const satisfies ArgEntry;
