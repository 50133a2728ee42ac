import { type FieldNode, type GraphQLResolveInfo, Kind } from 'graphql';
import { type SelectionVisitor, walkSelections } from './selections.js';

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

/** Every selection of the field `child` in the current field's selection, fragments followed once each. */
export function selectedChildFields(info: GraphQLResolveInfo, child: string): FieldNode[] {
  const out: FieldNode[] = [];
  const seen = new Set<string>();
  const fragmentNamed = (name: string) => info.fragments[name];
  const visitor: SelectionVisitor = {
    field: (node) => {
      if (node.name.value === child) out.push(node);
    },
    enter: (fragment) => {
      if (seen.has(fragment.name.value)) return false;
      seen.add(fragment.name.value);
      return true;
    },
  };
  for (const f of info.fieldNodes) walkSelections(f.selectionSet, '', fragmentNamed, visitor);
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
