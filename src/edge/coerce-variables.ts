import { createRequire } from 'node:module';
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';

/**
 * An operation's variables as execution will see them: graphql-js' own `getVariableValues` applies each
 * definition's default and coerces (a single value given for a list becomes a list of one), so the cost
 * is priced on the sizes that will run, not on what the request body happened to say.
 * Loaded through `require`: the copy of graphql-js the schema was built with (its CJS build, which a plain
 * `import` reaches under Node); a bundler may hand this module the ESM copy, whose type checks refuse the
 * schema's types as "from another realm".
 */
const { getVariableValues } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

export type CoercedVariables =
  | { ok: true; values: Record<string, unknown> }
  | { ok: false; reason: 'invalid' | 'too-deep' };

export function coerceVariables(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  raw: Record<string, unknown> | null | undefined,
): CoercedVariables {
  try {
    const r = getVariableValues(schema, operation.variableDefinitions ?? [], raw ?? {}, {
      maxErrors: 1,
    });
    // Invalid values are execution's to refuse, naming them, before any resolver runs (no call is made).
    return r.coerced ? { ok: true, values: r.coerced } : { ok: false, reason: 'invalid' };
  } catch (e) {
    // Values nested deeper than the coercion's recursion can follow.
    if (e instanceof RangeError) return { ok: false, reason: 'too-deep' };
    throw e;
  }
}
