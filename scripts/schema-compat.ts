import {
  type BreakingChange,
  buildSchema,
  type DangerousChange,
  findBreakingChanges,
  findDangerousChanges,
  type GraphQLSchema,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from 'graphql';

/**
 * The schema's compatibility with a baseline (the last release's printed schema, `schema/baseline.graphql`):
 * graphql-js's breaking and dangerous changes, the deprecations added since, and which breaking changes a
 * reviewed file acknowledges (`schema/breaking-acknowledged.json`). A breaking change nobody acknowledged
 * fails the check; an acknowledgement that matches nothing any more is reported, so the file stays true.
 */
export interface Acknowledgement {
  /** graphql-js's change type, e.g. FIELD_REMOVED. */
  type: string;
  /** Its description, exactly as printed, e.g. "Query.foo was removed." */
  description: string;
  /** Why the break is accepted, and who agreed (the review). */
  reason: string;
}

export interface Compatibility {
  breaking: BreakingChange[];
  unacknowledged: BreakingChange[];
  /** Acknowledgements that match no breaking change of this comparison. */
  unused: Acknowledgement[];
  dangerous: DangerousChange[];
  /** `Type.field` (or `Type.field(arg)`) deprecated now and not in the baseline. */
  deprecations: string[];
}

export function compareSchemas(
  baselineSdl: string,
  currentSdl: string,
  acknowledged: readonly Acknowledgement[] = [],
): Compatibility {
  const before = buildSchema(baselineSdl);
  const after = buildSchema(currentSdl);
  const breaking = findBreakingChanges(before, after);
  const acked = (c: BreakingChange) =>
    acknowledged.some((a) => a.type === c.type && a.description === c.description);
  const unacknowledged = breaking.filter((c) => !acked(c));
  const unused = acknowledged.filter(
    (a) => !breaking.some((c) => a.type === c.type && a.description === c.description),
  );
  const was = new Set(deprecationsOf(before));
  return {
    breaking,
    unacknowledged,
    unused,
    dangerous: findDangerousChanges(before, after),
    deprecations: deprecationsOf(after).filter((d) => !was.has(d)),
  };
}

/** Every deprecated field, argument, input field and enum value, with its reason. */
function deprecationsOf(schema: GraphQLSchema): string[] {
  const out: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))
      for (const f of Object.values(type.getFields())) {
        if (f.deprecationReason) out.push(`${type.name}.${f.name}: ${f.deprecationReason}`);
        for (const a of 'args' in f ? f.args : [])
          if (a.deprecationReason)
            out.push(`${type.name}.${f.name}(${a.name}): ${a.deprecationReason}`);
      }
    else if ('getValues' in type)
      for (const v of type.getValues())
        if (v.deprecationReason) out.push(`${type.name}.${v.name}: ${v.deprecationReason}`);
  }
  return out.sort();
}

/** The report's lines, and whether the check passes. */
export function reportCompatibility(
  c: Compatibility,
  against: string,
): { ok: boolean; lines: string[] } {
  const lines: string[] = [];
  for (const b of c.breaking)
    lines.push(
      `${c.unacknowledged.includes(b) ? 'BREAKING' : 'acknowledged'} ${b.type}: ${b.description}`,
    );
  for (const d of c.dangerous) lines.push(`dangerous ${d.type}: ${d.description}`);
  for (const d of c.deprecations) lines.push(`deprecated ${d}`);
  for (const u of c.unused)
    lines.push(`stale acknowledgement (matches no change; remove it): ${u.type}: ${u.description}`);
  lines.push(
    `schema: ${c.unacknowledged.length} breaking changes not acknowledged (${c.breaking.length} in all), ${c.dangerous.length} dangerous, ${c.deprecations.length} new deprecations, since ${against}`,
  );
  return { ok: c.unacknowledged.length === 0, lines };
}
