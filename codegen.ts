import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed operations: the schema is code-first (printed to schema/schema.graphql), the documents that tests,
 * examples and benchmarks send live in schema/operations/*.graphql, and their types are generated here.
 */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['schema/operations/**/*.graphql'],
  // ESM with NodeNext resolution: generated relative imports need their `.js` extension.
  emitLegacyCommonJSImports: false,
  generates: {
    'test/__generated__/': {
      preset: 'client',
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { BigDecimal: 'string', Timestamp: 'number' },
      },
      presetConfig: { fragmentMasking: false },
    },
  },
};

export default config;
