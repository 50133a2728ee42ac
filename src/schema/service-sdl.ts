import {
  type DefinitionNode,
  type DocumentNode,
  type GraphQLSchema,
  parse,
  print,
  visit,
} from 'graphql';
import type { GatewayContext } from '../context.js';

/**
 * A field only the admin token may use (the node admin API, issuing transactions): Pothos `extensions` on
 * the field. In production `_service { sdl }` leaves these out unless the request carries the admin token,
 * so the SDL a router (or anyone) reads names no admin surface; a supergraph router composes the rest as
 * before, and admin operations go to the gateway itself.
 */
export const ADMIN_ONLY = { adminOnly: true } as const;

/** `Type.field` of every field marked ADMIN_ONLY. */
function adminFields(schema: GraphQLSchema): Set<string> {
  const out = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    const fields = (type as { getFields?: () => Record<string, { extensions?: unknown }> })
      .getFields;
    if (typeof fields !== 'function' || type.name.startsWith('__')) continue;
    for (const [name, field] of Object.entries(fields.call(type)))
      if ((field.extensions as { adminOnly?: unknown } | undefined)?.adminOnly === true)
        out.add(`${type.name}.${name}`);
  }
  return out;
}

const definedName = (d: DefinitionNode): string | undefined =>
  'name' in d && d.name ? d.name.value : undefined;

/** Every type name a piece of the document refers to. */
function referenced(node: DefinitionNode | DocumentNode): Set<string> {
  const out = new Set<string>();
  visit(node, {
    NamedType(n) {
      out.add(n.name.value);
    },
  });
  return out;
}

/**
 * The SDL without the admin fields, and without the types only they reach (their payloads, arguments and
 * enums): the types the remaining definitions still refer to, transitively, are kept.
 */
export function withoutAdminFields(sdl: string, hidden: ReadonlySet<string>): string {
  const doc = parse(sdl);
  const dropped = new Set<string>();
  const kept = visit(doc, {
    FieldDefinition: {
      enter(field, _key, _parent, _path, ancestors) {
        const owner = ancestors.at(-1) as { name?: { value: string } } | undefined;
        if (!owner?.name || !hidden.has(`${owner.name.value}.${field.name.value}`)) return;
        for (const t of referenced(field as unknown as DefinitionNode)) dropped.add(t);
        return null;
      },
    },
  });
  // Candidates: the types the hidden fields referred to. One is kept when something kept reaches it.
  const byName = new Map<string, DefinitionNode[]>();
  for (const d of kept.definitions) {
    const name = definedName(d);
    if (name) byName.set(name, [...(byName.get(name) ?? []), d]);
  }
  const reachable = new Set<string>();
  const queue: DefinitionNode[] = kept.definitions.filter((d) => {
    const name = definedName(d);
    return name === undefined || !dropped.has(name);
  });
  while (queue.length > 0) {
    const d = queue.pop()!;
    for (const t of referenced(d)) {
      if (reachable.has(t)) continue;
      reachable.add(t);
      if (dropped.has(t)) queue.push(...(byName.get(t) ?? []));
    }
  }
  const definitions = kept.definitions.filter((d) => {
    const name = definedName(d);
    return name === undefined || !dropped.has(name) || reachable.has(name);
  });
  return print({ ...kept, definitions });
}

/**
 * `_service { sdl }` as production serves it: whole in development or with the admin token
 * (`ctx.fullServiceSdl`), else without the admin fields (computed once).
 */
export function guardServiceField(schema: GraphQLSchema): GraphQLSchema {
  const field = schema.getQueryType()?.getFields()._service;
  if (!field?.resolve) return schema;
  const hidden = adminFields(schema);
  const resolveFull = field.resolve;
  let publicSdl: string | undefined;
  field.resolve = (source, args, ctx: GatewayContext, info) => {
    const full = resolveFull(source, args, ctx, info) as { sdl: string };
    if (ctx.fullServiceSdl) return full;
    publicSdl ??= withoutAdminFields(full.sdl, hidden);
    return { sdl: publicSdl };
  };
  return schema;
}
