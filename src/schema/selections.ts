import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * The one walk over a query's selections, shared by the cost estimate (src/edge/cost.ts), the argument
 * checks (src/plugins/use-argument-checks.ts) and the prefetch (src/schema/prefetch.ts). It goes through
 * one selection set, inline fragments and named fragments flattened; the caller descends into a field's
 * own selection, since each one carries something different down (sizes, a type, nothing).
 */
export interface SelectionVisitor {
  /** A field, selected on the type named `on`. */
  field(node: FieldNode, on: string): void;
  /** A named fragment spread on `on`: false skips it (seen already, or a cycle). Entered when absent. */
  enter?(fragment: FragmentDefinitionNode, on: string): boolean;
  /** Called after an entered fragment's selections. */
  leave?(fragment: FragmentDefinitionNode, on: string): void;
}

export type FragmentLookup = (name: string) => FragmentDefinitionNode | undefined;

export function walkSelections(
  set: SelectionSetNode | undefined,
  on: string,
  fragmentNamed: FragmentLookup,
  visitor: SelectionVisitor,
): void {
  for (const sel of set?.selections ?? []) {
    if (sel.kind === Kind.FIELD) visitor.field(sel, on);
    else if (sel.kind === Kind.INLINE_FRAGMENT)
      walkSelections(sel.selectionSet, sel.typeCondition?.name.value ?? on, fragmentNamed, visitor);
    else {
      const fragment = fragmentNamed(sel.name.value);
      if (!fragment || (visitor.enter && !visitor.enter(fragment, on))) continue;
      walkSelections(
        fragment.selectionSet,
        fragment.typeCondition.name.value,
        fragmentNamed,
        visitor,
      );
      visitor.leave?.(fragment, on);
    }
  }
}

/** A document's fragments by name. */
export function fragmentsOf(document: Pick<DocumentNode, 'definitions'>): FragmentLookup {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return (name) => fragments.get(name);
}

/** The operation a request runs: the named one, or the only one (graphql-js's rule). */
export function pickOperation(
  document: Pick<DocumentNode, 'definitions'>,
  operationName: string | null | undefined,
): OperationDefinitionNode | undefined {
  const ops = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operationName) return ops.find((op) => op.name?.value === operationName);
  return ops.length === 1 ? ops[0] : undefined;
}
