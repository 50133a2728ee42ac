import type { ConstDirectiveNode, GraphQLField, GraphQLNamedType, GraphQLSchema } from 'graphql';
import { valueFromASTUntyped } from 'graphql';

/** What the schema declares of a field with the cost directive spec (src/schema/cost-spec.ts). */
export interface Declared {
  weight: number;
  slicing?: string[];
  assumedSize?: number;
  sized?: string[];
  /** Its weight is a load of its parent's, paid once per parent and shared by siblings naming it. */
  load?: string;
  /** Loads the field's items come with: their fields naming one cost nothing (`extensions.costCarries`). */
  carries?: readonly string[];
}

const kindOf = (t: unknown) => (t as { constructor?: { name?: string } }).constructor?.name;

/** A field's declaration, read from its `@cost` / `@listSize` directives (memoised per field). */
const declarations = new WeakMap<object, Declared | null>();
export function declaredOf(field: GraphQLField<unknown, unknown>): Declared | undefined {
  let d = declarations.get(field);
  if (d === undefined) {
    const directives = field.astNode?.directives ?? [];
    const cost = directives.find((x) => x.name.value === 'cost');
    const list = directives.find((x) => x.name.value === 'listSize');
    d =
      cost || list
        ? {
            weight: Number(argOf(cost, 'weight') ?? 0) || 0,
            slicing: argOf(list, 'slicingArguments') as string[] | undefined,
            assumedSize: argOf(list, 'assumedSize') as number | undefined,
            sized: argOf(list, 'sizedFields') as string[] | undefined,
            load: loadOf(field),
            carries: carriesOf(field),
          }
        : null;
    declarations.set(field, d);
  }
  return d ?? undefined;
}
/**
 * An interface's field declares nothing (federation forbids `@cost` on interfaces): it is priced as its
 * dearest implementation declares it, so a selection on the interface costs what any member may.
 */
const byImplementations = new WeakMap<object, Map<string, Declared | null>>();
export function declaredByImplementations(
  schema: GraphQLSchema,
  parent: GraphQLNamedType,
  name: string,
): Declared | undefined {
  if (kindOf(parent) !== 'GraphQLInterfaceType') return undefined;
  let known = byImplementations.get(parent);
  if (!known) {
    known = new Map();
    byImplementations.set(parent, known);
  }
  let d = known.get(name);
  if (d === undefined) {
    d = null;
    for (const o of schema.getPossibleTypes(parent as never)) {
      const f = o.getFields()[name];
      const c = f && declaredOf(f);
      if (c && (!d || c.weight > d.weight)) d = c;
    }
    known.set(name, d);
  }
  return d ?? undefined;
}
function argOf(directive: ConstDirectiveNode | undefined, name: string): unknown {
  const a = directive?.arguments?.find((x) => x.name.value === name);
  return a ? valueFromASTUntyped(a.value) : undefined;
}

/** The loads a field's items come with (`extensions.costCarries`, src/schema/cost-spec.ts). */
function carriesOf(field: GraphQLField<unknown, unknown>): readonly string[] | undefined {
  const c = (field.extensions as { costCarries?: unknown } | undefined)?.costCarries;
  return Array.isArray(c) && c.every((x) => typeof x === 'string') ? c : undefined;
}

/** The parent's load a field's weight stands for (`extensions.costLoad`, src/schema/cost-spec.ts). */
function loadOf(field: GraphQLField<unknown, unknown>): string | undefined {
  const load = (field.extensions as { costLoad?: unknown } | undefined)?.costLoad;
  return typeof load === 'string' ? load : undefined;
}
