import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed operations: the schema is code-first (printed to schema/schema.graphql); the documents that tests
 * and benchmarks send live in schema/operations/*.graphql, the typed-client examples' in
 * examples/operations/, and each set gets its own generated types here (the client preset, the same settings).
 */
const clientPreset = (documents: string) => ({
  documents: [documents],
  preset: 'client' as const,
  config: {
    useTypeImports: true,
    enumsAsTypes: true,
    scalars: { BigDecimal: 'string', Timestamp: 'number' },
  },
  presetConfig: { fragmentMasking: false },
});

const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  // ESM with NodeNext resolution: generated relative imports need their `.js` extension.
  emitLegacyCommonJSImports: false,
  generates: {
    'test/__generated__/': clientPreset('schema/operations/**/*.graphql'),
    'examples/__generated__/': clientPreset('examples/operations/**/*.graphql'),
  },
};

export default config;
