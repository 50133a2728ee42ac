import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

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
