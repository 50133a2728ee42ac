/**
 * Enum values with a description each (GraphiQL shows them), built from a list of values: the schema
 * lints every enum value for a description, and a `Record` over the list makes a missing one a type error.
 */
export function describedValues<const V extends string>(
  values: readonly V[],
  docs: { readonly [K in V]: string },
) {
  return Object.fromEntries(values.map((v) => [v, { value: v, description: docs[v] }])) as {
    [K in V]: { value: K; description: string };
  };
}
