import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, findBreakingChanges } from 'graphql';
import { printGatewaySchema } from '../src/schema/index.js';

/**
 * `print` writes schema/schema.graphql from the code-first schema; `check` fails when it is stale;
 * `breaking <git rev>` lists graphql-js's breaking changes from the schema committed at that revision to
 * the code's, and fails when there is one.
 */
const file = fileURLToPath(new URL('../schema/schema.graphql', import.meta.url));
const mode = process.argv[2];
const sdl = printGatewaySchema();

if (mode === 'print') {
  writeFileSync(file, sdl);
  console.log(`schema: wrote ${file}`);
} else if (mode === 'check') {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== sdl) {
    console.error('schema/schema.graphql is stale: run `npm run schema:print` and commit it.');
    process.exit(1);
  }
  console.log('schema: schema/schema.graphql is current');
} else if (mode === 'breaking' && process.argv[3]) {
  const rev = process.argv[3];
  const before = execFileSync('git', ['show', `${rev}:schema/schema.graphql`], {
    encoding: 'utf8',
  });
  const changes = findBreakingChanges(buildSchema(before), buildSchema(sdl));
  for (const c of changes) console.error(`${c.type}: ${c.description}`);
  console.log(`schema: ${changes.length} breaking changes since ${rev}`);
  if (changes.length > 0) process.exit(1);
} else {
  console.error('usage: tsx scripts/schema.ts print|check|breaking <git rev>');
  process.exit(2);
}
