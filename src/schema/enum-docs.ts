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

/** `AddValidatorTx` → `ADD_VALIDATOR_TX`, `mainnet` → `MAINNET`, `LinkedIn` → `LINKED_IN`. */
export const screamingCase = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();

type EnumValues = Record<string, { value: string; description: string }>;

/**
 * Enum values under the schema's convention (docs/schema-conventions.md): each value not in
 * SCREAMING_CASE gets its SCREAMING_CASE name beside it, for the same internal value, and stays as a
 * deprecated alias so no client breaks. Inputs accept both names. Outputs keep answering the old name
 * (graphql-js serialises a value to the last name declared for it) until the aliases are removed.
 */
export function conventionalValues<V extends EnumValues>(values: V): V {
  const out: Record<string, { value: string; description: string; deprecationReason?: string }> =
    {};
  for (const [name, v] of Object.entries(values)) {
    const upper = screamingCase(name);
    if (upper === name) {
      out[name] = v;
      continue;
    }
    out[upper] = v;
    out[name] = { ...v, deprecationReason: `Use \`${upper}\` (the same value).` };
  }
  // The added names carry the same internal values, so the enum's TypeScript type is unchanged.
  return out as V;
}
