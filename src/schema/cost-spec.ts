import { createRequire } from 'node:module';
import SchemaBuilder, { BasePlugin, type SchemaTypes } from '@pothos/core';
import type {
  ConstDirectiveNode,
  GraphQLDirective as Directive,
  FieldDefinitionNode,
  GraphQLField,
  GraphQLSchema,
} from 'graphql';
import { COST_DECLARATIONS } from './cost-declarations.js';
import { COST_DIRECTIVE_NAMES, type CostDeclaration } from './cost-helpers.js';

/** A declaration's directives (`@cost`, `@listSize`), without the route its weight was priced from. */
const directivesOf = (d: CostDeclaration) =>
  Object.entries(d).filter(([name]) => COST_DIRECTIVE_NAMES.includes(name));

/**
 * The GraphQL cost directive specification (IBM's, as Apollo Router's and Hive Gateway's demand control
 * read it): `@cost(weight:)` on a field is what one resolution of it costs, here in the upstream's compute
 * units (CUs); `@listSize` says how many items a list holds, from a slicing argument (`first`, or the
 * length of a list argument), else `assumedSize`, and which child fields (`edges`, `nodes`) those items
 * are. Declarations live in one table (src/schema/cost-declarations.ts, a line per field); this plugin
 * puts each on its field, so the SDL, the subgraph SDL and the estimator (src/edge/cost.ts) read them.
 */
export const COST_SPEC_URL = 'https://specs.apollo.dev/cost/v0.1';

// The schema's own copy of graphql-js (see src/edge/coerce-variables.ts for why `require`).
const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');

/** The spec's two directive definitions, added to the schema. */
export const costDirectives = (): Directive[] => [
  new graphql.GraphQLDirective({
    name: 'cost',
    args: { weight: { type: new graphql.GraphQLNonNull(graphql.GraphQLInt) } },
    locations: [
      'ARGUMENT_DEFINITION',
      'ENUM',
      'FIELD_DEFINITION',
      'INPUT_FIELD_DEFINITION',
      'OBJECT',
      'SCALAR',
    ] as never,
  }),
  new graphql.GraphQLDirective({
    name: 'listSize',
    args: {
      assumedSize: { type: graphql.GraphQLInt },
      slicingArguments: {
        type: new graphql.GraphQLList(new graphql.GraphQLNonNull(graphql.GraphQLString)),
      },
      sizedFields: {
        type: new graphql.GraphQLList(new graphql.GraphQLNonNull(graphql.GraphQLString)),
      },
      requireOneSlicingArgument: { type: graphql.GraphQLBoolean, defaultValue: true },
    },
    locations: ['FIELD_DEFINITION'] as never,
  }),
];

/** The schema's `@link` to the cost spec, so composition carries the declarations into a supergraph. */
export const costSpecLink = {
  name: 'link',
  args: { url: COST_SPEC_URL, import: ['@cost', '@listSize'] },
};

/** Puts each field's declaration from the table into its Pothos config, where plugin-directives prints it. */
export class CostDeclarationsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(
    fieldConfig: Parameters<BasePlugin<Types>['onOutputFieldConfig']>[0],
  ) {
    const declared = COST_DECLARATIONS[`${fieldConfig.parentType}.${fieldConfig.name}`];
    if (!declared) return fieldConfig;
    const existing = (fieldConfig.extensions?.directives ?? []) as { name: string }[];
    const add = directivesOf(declared).map(([name, args]) => ({ name, args }));
    return {
      ...fieldConfig,
      extensions: {
        ...fieldConfig.extensions,
        directives: [...existing, ...add],
        ...(declared.load ? { costLoad: declared.load } : {}),
        ...(declared.carries ? { costCarries: declared.carries } : {}),
      },
    };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      costDeclarations: CostDeclarationsPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin('costDeclarations', CostDeclarationsPlugin);

/**
 * Declares a field that no Pothos config describes (`_entities`, added by the federation plugin) from
 * the table, on its AST node as plugin-directives does for the others.
 */
export function declareBuiltField(schema: GraphQLSchema, type: string, field: string): void {
  const f = (
    schema.getType(type) as
      | { getFields?: () => Record<string, GraphQLField<unknown, unknown>> }
      | undefined
  )?.getFields?.()[field];
  const declared = COST_DECLARATIONS[`${type}.${field}`];
  if (!f || !declared) return;
  const applied = directivesOf(declared)
    .map(
      ([name, args]) =>
        `@${name}(${Object.entries(args as Record<string, unknown>)
          .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
          .join(', ')})`,
    )
    .join(' ');
  const doc = graphql.parse(`type T { f: Int ${applied} }`);
  const directives = (
    doc.definitions[0] as unknown as { fields: { directives: ConstDirectiveNode[] }[] }
  ).fields[0]!.directives;
  f.astNode = {
    kind: graphql.Kind.FIELD_DEFINITION,
    name: { kind: graphql.Kind.NAME, value: field },
    type: { kind: graphql.Kind.NAMED_TYPE, name: { kind: graphql.Kind.NAME, value: 'Int' } },
    ...f.astNode,
    directives: [...(f.astNode?.directives ?? []), ...directives],
  } as FieldDefinitionNode;
}
