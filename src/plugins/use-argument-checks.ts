import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromASTUntyped,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { argumentChecksOf } from '../schema/argument-checks.js';

/**
 * Runs the registered argument checks (src/schema/argument-checks.ts) over the whole operation
 * before it executes: a bad filter deep in a query is refused (BAD_USER_INPUT, HTTP 400) before any
 * upstream call, even where reaching its parent would cost one. Walks selections by type name only
 * (no `instanceof`: the schema may come from another copy of graphql-js, see src/edge/cost.ts).
 */
export function useArgumentChecks(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = firstFailure(
        args.schema,
        args.document.definitions,
        args.operationName,
        (args.variableValues ?? {}) as Record<string, unknown>,
      );
      if (error)
        setResultAndStopExecution({
          errors: [
            new GraphQLError(error.message, {
              extensions: { ...error.extensions, http: { status: 400 } },
            }),
          ],
        });
    },
  };
}

type Definitions = DocumentNode['definitions'];

function firstFailure(
  schema: GraphQLSchema,
  definitions: Definitions,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
): GraphQLError | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const ops = definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const op = operationName
    ? ops.find((o) => o.name?.value === operationName)
    : ops.length === 1
      ? ops[0]
      : undefined;
  if (!op) return undefined;
  const root = op.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return undefined;
  const seen = new Set<string>();

  const visit = (typeName: string, set: SelectionSetNode): GraphQLError | undefined => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const e =
          checkField(typeName, sel) ?? (sel.selectionSet ? descend(typeName, sel) : undefined);
        if (e) return e;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const e = visit(sel.typeCondition?.name.value ?? typeName, sel.selectionSet);
        if (e) return e;
      } else {
        const f = fragments.get(sel.name.value);
        const key = `${sel.name.value}|${typeName}`;
        if (!f || seen.has(key)) continue;
        seen.add(key);
        const e = visit(f.typeCondition.name.value, f.selectionSet);
        if (e) return e;
      }
    }
    return undefined;
  };

  const checkField = (typeName: string, node: FieldNode): GraphQLError | undefined => {
    const checks = argumentChecksOf(typeName, node.name.value);
    if (checks.length === 0) return undefined;
    const values: Record<string, unknown> = {};
    for (const a of node.arguments ?? []) {
      try {
        values[a.name.value] = valueFromASTUntyped(a.value, variables);
      } catch {
        // an unknown variable: validation reports it
      }
    }
    try {
      for (const check of checks) check(values);
    } catch (e) {
      if (e instanceof GraphQLError) return e;
      throw e;
    }
    return undefined;
  };

  const descend = (typeName: string, node: FieldNode): GraphQLError | undefined => {
    const parent = schema.getType(typeName) as
      | { getFields?: () => Record<string, { type: unknown }> }
      | undefined;
    const def = parent?.getFields?.()[node.name.value];
    if (!def) return undefined;
    let t = def.type as { ofType?: unknown; name?: string };
    while (t.ofType) t = t.ofType as typeof t;
    return t.name ? visit(t.name, node.selectionSet!) : undefined;
  };

  return visit(root.name, op.selectionSet);
}
