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
import { recode } from '../errors.js';
import { type ArgumentCheck, argumentChecksOf } from '../schema/argument-checks.js';
import { perOperation } from '../schema/operation-memo.js';

/**
 * Runs the registered argument checks (src/schema/argument-checks.ts) over the whole operation
 * before it executes: a bad filter deep in a query is refused (BAD_USER_INPUT, HTTP 400) before any
 * upstream call, even where reaching its parent would cost one. Walks selections by type name only
 * (no `instanceof`: the schema may come from another copy of graphql-js, see src/edge/cost.ts).
 */
export function useArgumentChecks(): Plugin {
  // The fields an operation's checks apply to are found once per parsed document (most have none,
  // and then a request pays one map lookup). The plugin serves one schema.
  const checkedFieldsOf = perOperation<CheckedField[]>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const fields = checkedFieldsOf(args.document, args.operationName, () =>
        walk(args.schema, args.document.definitions, args.operationName),
      );
      if (fields.length === 0) return;
      const error = firstFailure(fields, (args.variableValues ?? {}) as Record<string, unknown>);
      if (error)
        setResultAndStopExecution({
          errors: [recode(error, { http: { status: 400 } })],
        });
    },
  };
}

/** A field of the operation that has checks, with them (in the walk's depth-first order). */
interface CheckedField {
  node: FieldNode;
  checks: readonly ArgumentCheck[];
}

/** The first check that refuses its field's arguments (variables substituted), in walk order. */
function firstFailure(
  fields: readonly CheckedField[],
  variables: Record<string, unknown>,
): GraphQLError | undefined {
  for (const { node, checks } of fields) {
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
  }
  return undefined;
}

type Definitions = DocumentNode['definitions'];

function walk(
  schema: GraphQLSchema,
  definitions: Definitions,
  operationName: string | null | undefined,
): CheckedField[] {
  const out: CheckedField[] = [];
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
  if (!op) return out;
  const root = op.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!root) return out;
  const seen = new Set<string>();

  const visit = (typeName: string, set: SelectionSetNode): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const checks = argumentChecksOf(typeName, sel.name.value);
        if (checks.length > 0) out.push({ node: sel, checks });
        if (sel.selectionSet) descend(typeName, sel);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        visit(sel.typeCondition?.name.value ?? typeName, sel.selectionSet);
      } else {
        const f = fragments.get(sel.name.value);
        const key = `${sel.name.value}|${typeName}`;
        if (!f || seen.has(key)) continue;
        seen.add(key);
        visit(f.typeCondition.name.value, f.selectionSet);
      }
    }
  };

  const descend = (typeName: string, node: FieldNode): void => {
    const parent = schema.getType(typeName) as
      | { getFields?: () => Record<string, { type: unknown }> }
      | undefined;
    const def = parent?.getFields?.()[node.name.value];
    if (!def) return;
    let t = def.type as { ofType?: unknown; name?: string };
    while (t.ofType) t = t.ofType as typeof t;
    if (t.name) visit(t.name, node.selectionSet!);
  };

  visit(root.name, op.selectionSet);
  return out;
}
