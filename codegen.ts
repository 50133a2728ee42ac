import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed operations: the schema is code-first (printed to schema/schema.graphql), the documents that tests,
 * and benchmarks send live in schema/operations/*.graphql, the examples' in examples/operations/, and their
 * types are generated here.
 */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  // ESM with NodeNext resolution: generated relative imports need their `.js` extension.
  emitLegacyCommonJSImports: false,
  generates: {
    'test/__generated__/': {
      documents: ['schema/operations/**/*.graphql'],
      preset: 'client',
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { BigDecimal: 'string', Timestamp: 'number' },
      },
      presetConfig: { fragmentMasking: false },
    },
    // The typed-client examples (examples/client.ts) have their own documents and generated types.
    'examples/__generated__/': {
      documents: ['examples/operations/**/*.graphql'],
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
