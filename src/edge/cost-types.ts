import type { GraphQLField, GraphQLNamedType, GraphQLObjectType, GraphQLType } from 'graphql';

/** The schema-type helpers of the cost estimate (src/edge/cost.ts). */
/** A slicing argument's size: a number (capped), or a list argument's length. */
export function sizeOf(value: unknown, cap: number): number | undefined {
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0)
    return Math.min(value, cap);
  return undefined;
}

/*
 * Type tests by shape and constructor name, never `instanceof`: the schema and this module may hold different
 * copies of graphql-js (its ESM and CJS builds), whose own predicates then throw "from another realm".
 */
export const kindOf = (t: unknown) => (t as { constructor?: { name?: string } }).constructor?.name;
export function listDepth(t: GraphQLType): number {
  let depth = 0;
  let cur = t as GraphQLType & { ofType?: GraphQLType };
  while (cur.ofType) {
    if (kindOf(cur) === 'GraphQLList') depth++;
    cur = cur.ofType as typeof cur;
  }
  return depth;
}
/** The list-typed arguments of a list field (their length sizes it). */
export const listArguments = (f: GraphQLField<unknown, unknown>): string[] =>
  listDepth(f.type) > 0 ? f.args.filter((a) => listDepth(a.type) > 0).map((a) => a.name) : [];
export function namedOf(t: GraphQLType): GraphQLNamedType {
  let cur = t as GraphQLType & { ofType?: GraphQLType };
  while (cur.ofType) cur = cur.ofType as typeof cur;
  return cur as GraphQLNamedType;
}
export const fieldsOf = (t: unknown) =>
  typeof (t as { getFields?: unknown }).getFields === 'function' &&
  kindOf(t) !== 'GraphQLInputObjectType'
    ? (t as GraphQLObjectType).getFields()
    : undefined;
