import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conventionFindingsInSdl } from '../../scripts/lint-schema.js';

/**
 * graphql-schema-linter over schema/schema.graphql with the rules in .graphql-schema-linterrc: the
 * description rules (every type, field, argument and enum value documented: it is what GraphiQL shows)
 * and the Relay rules (connection types, connection arguments, PageInfo). The only exclusions are the
 * Apollo Federation types the subgraph library defines (`_Any`, `_Entity`, `_Service`, `_entities`' argument).
 */
const ROOT = join(import.meta.dirname, '../..');
const LINTER = join(ROOT, 'node_modules/.bin/graphql-schema-linter');
const RULES = [
  'types-have-descriptions',
  'fields-have-descriptions',
  'arguments-have-descriptions',
  'enum-values-have-descriptions',
  'relay-connection-types-spec',
  'relay-connection-arguments-spec',
  'relay-page-info-spec',
];

interface LintError {
  message: string;
  rule: string;
}

describe('schema lint', () => {
  it('runs the description and Relay rules', () => {
    const config = JSON.parse(readFileSync(join(ROOT, '.graphql-schema-linterrc'), 'utf8')) as {
      rules: string[];
    };
    expect([...config.rules].sort()).toEqual([...RULES].sort());
  });

  it('finds 0 errors in schema/schema.graphql', () => {
    const r = spawnSync(LINTER, ['--format', 'json', 'schema/schema.graphql'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const { errors } = JSON.parse(r.stdout) as { errors: LintError[] };
    expect(errors.map((e) => `${e.rule}: ${e.message}`)).toEqual([]);
    expect(r.status).toBe(0);
  });

  it('reports an undocumented argument and enum value, and a missing PageInfo (the rules are live)', () => {
    const sdl = '"Root." type Query { "Doc." a(x: Int): E }\n"Doc." enum E { "Doc." A B }\n';
    const r = spawnSync(LINTER, ['--format', 'json', '--stdin'], {
      cwd: ROOT,
      encoding: 'utf8',
      input: sdl,
      timeout: 60_000,
    });
    const { errors } = JSON.parse(r.stdout) as { errors: LintError[] };
    expect(errors.map((e) => e.rule).sort()).toEqual([
      'arguments-have-descriptions',
      'enum-values-have-descriptions',
      'relay-page-info-spec',
    ]);
    expect(r.status).not.toBe(0);
  });
});

/**
 * The naming conventions (docs/schema-conventions.md, scripts/lint-schema.ts): SCREAMING_CASE enum
 * values, `block`/`startBlock`/`endBlock`/`owner`/`sourceBlockchainId` argument names, and no live
 * `last`/`before` on a forward-only list. An old name may stay only deprecated, naming its
 * replacement, which must exist beside it.
 */
describe('schema conventions', () => {
  const sdl = readFileSync(join(ROOT, 'schema/schema.graphql'), 'utf8');

  it('finds 0 violations in schema/schema.graphql', () => {
    expect(conventionFindingsInSdl(sdl)).toEqual([]);
  });

  it('npm run schema:lint runs them after graphql-schema-linter', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['schema:lint']).toContain('scripts/lint-schema.ts');
  });

  it('fails on a planted violation of each rule', () => {
    const planted = `"Root." type Query {
      "Doc." a(
        "Doc." atBlock: String
        "Doc." holder: String
        "Doc." last: Int
        "Doc." first: Int
      ): E
    }
    "Doc." enum E { "Doc." mainnet "Doc." DAY }`;
    expect(conventionFindingsInSdl(planted).sort()).toEqual([
      'argument-names: Query.a(atBlock:) should be `block` (deprecate the old name)',
      'argument-names: Query.a(holder:) should be `owner` (deprecate the old name)',
      'enum-values: E.mainnet is not SCREAMING_CASE',
      'forward-paging: Query.a(last:) should be `first` (deprecate the old name)',
    ]);
  });

  it('accepts an old name only deprecated, naming a replacement that exists', () => {
    const ok = `"Root." type Query {
      "Doc." a(
        "Doc." block: String
        "Doc." atBlock: String @deprecated(reason: "Use \`block\`.")
      ): E
    }
    "Doc." enum E { "Doc." MAINNET "Doc." mainnet @deprecated(reason: "Use \`MAINNET\`.") }`;
    expect(conventionFindingsInSdl(ok)).toEqual([]);
    // The replacement must exist: a deprecation pointing nowhere is still a violation.
    const dangling = ok.replace('"Doc." block: String', '').replace('"Doc." MAINNET ', '');
    expect(conventionFindingsInSdl(dangling).sort()).toEqual([
      'argument-names: Query.a(atBlock:) is deprecated without "Use `block`" beside it',
      'enum-values: E.mainnet is deprecated without naming its SCREAMING_CASE value',
    ]);
  });

  it('fails the command line on a violation (exit 1)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'schema-lint-')), 'planted.graphql');
    writeFileSync(file, '"Root." type Query { "Doc." a: E }\n"Doc." enum E { "Doc." fuji }\n');
    const r = spawnSync('npx', ['tsx', 'scripts/lint-schema.ts', file], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.stderr).toContain('enum-values: E.fuji is not SCREAMING_CASE');
    expect(r.status).toBe(1);
  });
});
