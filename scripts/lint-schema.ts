import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  buildSchema,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLSchema,
  isEnumType,
  isInterfaceType,
  isObjectType,
} from 'graphql';

/**
 * The schema's naming conventions (docs/schema-conventions.md), checked over the printed SDL. A name
 * the conventions replace may stay only deprecated, with a reason naming its replacement ("Use `x`"),
 * which must exist beside it: that is how a rename ships without breaking a client. Run by
 * `npm run schema:lint` (after graphql-schema-linter) and by test/unit/schema-lint.test.ts.
 */

/** Argument names the conventions replace, with the name to use instead. */
export const ARGUMENT_RENAMES: Readonly<Record<string, string>> = {
  atBlock: 'block',
  blockNumber: 'block',
  blockTag: 'block',
  fromBlock: 'startBlock',
  toBlock: 'endBlock',
  holder: 'owner',
  srcBlockchainId: 'sourceBlockchainId',
  destBlockchainId: 'destinationBlockchainId',
};

/** Relay's backward-paging arguments and the forward ones that replace them. */
const BACKWARD: Readonly<Record<string, string>> = { last: 'first', before: 'after' };

/** Connection fields (`Type.field`) that page backwards for real; none does yet. */
export const BACKWARD_PAGING: ReadonlySet<string> = new Set<string>();

const SCREAMING = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** The name a deprecation reason points to: "Use `x`" (backticks optional). */
export function replacementIn(reason: string | null | undefined): string | undefined {
  return reason ? /\bUse `?([A-Za-z_][A-Za-z0-9_]*)`?/.exec(reason)?.[1] : undefined;
}

function argumentFindings(where: string, field: GraphQLField<unknown, unknown>): string[] {
  const out: string[] = [];
  const names = new Set(field.args.map((a) => a.name));
  const check = (a: GraphQLArgument, rule: string, wanted: string) => {
    const use = replacementIn(a.deprecationReason);
    if (a.deprecationReason == null)
      out.push(`${rule}: ${where}(${a.name}:) should be \`${wanted}\` (deprecate the old name)`);
    else if (use !== wanted || !names.has(wanted))
      out.push(`${rule}: ${where}(${a.name}:) is deprecated without "Use \`${wanted}\`" beside it`);
  };
  for (const a of field.args) {
    const renamed = ARGUMENT_RENAMES[a.name];
    if (renamed !== undefined) check(a, 'argument-names', renamed);
    const forward = BACKWARD[a.name];
    if (forward !== undefined && !BACKWARD_PAGING.has(where)) check(a, 'forward-paging', forward);
  }
  return out;
}

/** Every violation of the conventions in `schema`, one line each (empty when it conforms). */
export function conventionFindings(schema: GraphQLSchema): string[] {
  const out: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isEnumType(type)) {
      const values = new Set(type.getValues().map((v) => v.name));
      for (const v of type.getValues()) {
        if (SCREAMING.test(v.name)) continue;
        const use = replacementIn(v.deprecationReason);
        if (v.deprecationReason == null)
          out.push(`enum-values: ${type.name}.${v.name} is not SCREAMING_CASE`);
        else if (use === undefined || !values.has(use) || !SCREAMING.test(use))
          out.push(
            `enum-values: ${type.name}.${v.name} is deprecated without naming its SCREAMING_CASE value`,
          );
      }
    }
    if (isObjectType(type) || isInterfaceType(type))
      for (const f of Object.values(type.getFields()))
        out.push(...argumentFindings(`${type.name}.${f.name}`, f));
  }
  return out;
}

export const conventionFindingsInSdl = (sdl: string) => conventionFindings(buildSchema(sdl));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file =
    process.argv[2] ?? fileURLToPath(new URL('../schema/schema.graphql', import.meta.url));
  const findings = conventionFindingsInSdl(readFileSync(file, 'utf8'));
  for (const f of findings) console.error(f);
  console.log(`schema conventions: ${findings.length} violations in ${file}`);
  if (findings.length > 0) process.exit(1);
}
