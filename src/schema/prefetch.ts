import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';

/**
 * Cold-path prefetch: a child field whose upstream call derives from its parent's arguments (not from
 * its parent's answer) can start that call as soon as the parent resolves its arguments, instead of
 * waiting for the parent's own upstream answer. This finds such a child in the parent's selection
 * (through fragments and inline fragments, @defer included) and returns its fields' arguments.
 */
export function selectedChildArgs(
  info: GraphQLResolveInfo,
  child: string,
): Record<string, unknown>[] {
  return selectedChildFields(info, child).map((f) => argsOf(f, info.variableValues));
}

/** Every selection of the field `child` in the current field's selection, fragments followed. */
export function selectedChildFields(info: GraphQLResolveInfo, child: string): FieldNode[] {
  const out: FieldNode[] = [];
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode | undefined) => {
    for (const s of set?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        if (s.name.value === child) out.push(s);
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        walk(s.selectionSet);
      } else if (!seen.has(s.name.value)) {
        seen.add(s.name.value);
        walk(info.fragments[s.name.value]?.selectionSet);
      }
    }
  };
  for (const f of info.fieldNodes) walk(f.selectionSet);
  return out;
}

/** Literal and variable argument values of a field (what the prefetch needs to tell a first page). */
function argsOf(field: FieldNode, variables: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const a of field.arguments ?? []) {
    const v = a.value;
    if (v.kind === Kind.VARIABLE) args[a.name.value] = variables[v.name.value];
    else if (v.kind === Kind.NULL) args[a.name.value] = null;
    else if ('value' in v) args[a.name.value] = v.value;
    else args[a.name.value] = true; // a list or object: present, not inspected
  }
  return args;
}
