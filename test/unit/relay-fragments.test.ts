import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Relay users: `relay-compiler --validate` checks the fragments in examples/relay/src against
 * schema/schema.graphql (Node refetch, connections for pagination) and that their committed artifacts are
 * current. A fragment that asks for a field the schema lacks must fail the same check.
 */
const ROOT = join(import.meta.dirname, '../..');
const RELAY = join(ROOT, 'node_modules/.bin/relay-compiler');
const run = (cwd: string, ...args: string[]) =>
  spawnSync(RELAY, args, { cwd, encoding: 'utf8', timeout: 60_000 });

describe('Relay fragments', () => {
  it('compile against the printed schema with their artifacts up to date', () => {
    const r = run(join(ROOT, 'examples/relay'), '--validate');
    expect({ status: r.status, out: r.status === 0 ? '' : `${r.stdout}${r.stderr}` }).toEqual({
      status: 0,
      out: '',
    });
  });

  it('a fragment on a field the schema lacks fails the check', () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-'));
    try {
      cpSync(join(ROOT, 'examples/relay/src'), join(dir, 'src'), { recursive: true });
      writeFileSync(
        join(dir, 'relay.config.json'),
        JSON.stringify({
          src: './src',
          schema: join(ROOT, 'schema/schema.graphql'),
          language: 'typescript',
          eagerEsModules: true,
        }),
      );
      const file = join(dir, 'src/fragments.ts');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          '    number\n    hash\n    timestamp',
          '    number\n    hash\n    noSuchField',
        ),
      );
      const r = run(dir);
      expect(r.status).not.toBe(0);
      expect(`${r.stdout}${r.stderr}`).toMatch(/noSuchField/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
