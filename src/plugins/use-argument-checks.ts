import {
  type DocumentNode,
  type FieldNode,
  GraphQLError,
  type GraphQLSchema,
  valueFromASTUntyped,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { recode } from '../errors.js';
import { type ArgumentCheck, argumentChecksOf } from '../schema/argument-checks.js';
import { perOperation } from '../schema/operation-memo.js';
import {
  fragmentsOf,
  pickOperation,
  type SelectionVisitor,
  walkSelections,
} from '../schema/selections.js';

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
        walk(args.schema, args.document, args.operationName),
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

/** The fields of the operation that have checks, each fragment walked once per type it is spread on. */
function walk(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): CheckedField[] {
  const out: CheckedField[] = [];
  const op = pickOperation(document, operationName);
  const root = op?.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  if (!op || !root) return out;
  const fragmentNamed = fragmentsOf(document);
  const seen = new Set<string>();
  const visitor: SelectionVisitor = {
    field: (node, on) => {
      const checks = argumentChecksOf(on, node.name.value);
      if (checks.length > 0) out.push({ node, checks });
      const child = node.selectionSet && namedTypeOf(schema, on, node.name.value);
      if (child) walkSelections(node.selectionSet, child, fragmentNamed, visitor);
    },
    enter: (fragment, on) => {
      const key = `${fragment.name.value}|${on}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    },
  };
  walkSelections(op.selectionSet, root.name, fragmentNamed, visitor);
  return out;
}

/** The name of the type a field of `typeName` returns, lists and non-null unwrapped. */
function namedTypeOf(schema: GraphQLSchema, typeName: string, field: string): string | undefined {
  const parent = schema.getType(typeName) as
    | { getFields?: () => Record<string, { type: unknown }> }
    | undefined;
  let t = parent?.getFields?.()[field]?.type as { ofType?: unknown; name?: string } | undefined;
  while (t?.ofType) t = t.ofType as typeof t;
  return t?.name;
}
