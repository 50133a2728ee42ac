import type { ConstDirectiveNode, GraphQLSchema } from 'graphql';
import { print } from 'graphql';
import { COST_DIRECTIVE_NAMES } from './cost-helpers.js';

/**
 * graphql-js' `printSchema` leaves out directives applied to fields; this adds the cost spec's
 * (`@cost`, `@listSize`) after each declared field's definition, where the spec's readers expect them.
 * It walks the printed SDL type by type, field by field, outside descriptions.
 */
export function withCostDirectives(sdl: string, schema: GraphQLSchema): string {
  const lines = sdl.split('\n');
  let fields: Record<string, { astNode?: { directives?: readonly ConstDirectiveNode[] } | null }> =
    {};
  let inDescription = false;
  let pending: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const quotes = (line.match(/"""/g) ?? []).length;
    if (inDescription || quotes > 0) {
      if (quotes % 2 === 1) inDescription = !inDescription;
      continue;
    }
    const head = /^(?:type|interface|extend type) (\w+)/.exec(line);
    if (head) {
      const t = schema.getType(head[1]!) as { getFields?: () => typeof fields } | undefined;
      fields = t?.getFields?.() ?? {};
      continue;
    }
    const field = /^ {2}(\w+)[(:]/.exec(line);
    const name = field?.[1] ?? (pending && /^ {2}\): /.test(line) ? pending : undefined);
    if (field && line.endsWith('(')) {
      pending = field[1];
      continue;
    }
    if (!name) continue;
    pending = undefined;
    const applied = (fields[name]?.astNode?.directives ?? []).filter((d) =>
      COST_DIRECTIVE_NAMES.includes(d.name.value),
    );
    if (applied.length > 0) lines[i] = `${line} ${applied.map((d) => print(d)).join(' ')}`;
  }
  return lines.join('\n');
}
