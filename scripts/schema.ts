import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printGatewaySchema } from '../src/schema/index.js';
import { type Acknowledgement, compareSchemas, reportCompatibility } from './schema-compat.js';

/**
 * `print` writes schema/schema.graphql from the code-first schema; `check` fails when it is stale;
 * `breaking [git rev]` lists graphql-js's breaking and dangerous changes and the new deprecations from the
 * last release's schema (schema/baseline.graphql; or the schema committed at a revision) to the code's, and
 * fails on a breaking change that schema/breaking-acknowledged.json (a reviewed file) does not acknowledge;
 * `release` makes the code's schema the baseline and clears the acknowledgements.
 */
const file = fileURLToPath(new URL('../schema/schema.graphql', import.meta.url));
const baselineFile = fileURLToPath(new URL('../schema/baseline.graphql', import.meta.url));
const acknowledgedFile = fileURLToPath(
  new URL('../schema/breaking-acknowledged.json', import.meta.url),
);
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
} else if (mode === 'breaking') {
  // Against the last release's schema (schema/baseline.graphql), or a git revision's printed schema.
  const rev = process.argv[3];
  const before = rev
    ? execFileSync('git', ['show', `${rev}:schema/schema.graphql`], { encoding: 'utf8' })
    : readFileSync(baselineFile, 'utf8');
  const acknowledged = JSON.parse(readFileSync(acknowledgedFile, 'utf8')) as {
    acknowledged: Acknowledgement[];
  };
  const { ok, lines } = reportCompatibility(
    compareSchemas(before, sdl, acknowledged.acknowledged),
    rev ?? 'schema/baseline.graphql',
  );
  for (const l of lines) console.log(l);
  if (!ok) {
    console.error(
      'schema: a breaking change needs a deprecation instead, or an entry in schema/breaking-acknowledged.json (reviewed)',
    );
    process.exit(1);
  }
} else if (mode === 'release') {
  // A release: its schema becomes the baseline, and the breaks acknowledged against the old one are spent.
  writeFileSync(baselineFile, sdl);
  writeFileSync(acknowledgedFile, `${JSON.stringify({ acknowledged: [] }, null, 2)}\n`);
  console.log(`schema: wrote ${baselineFile}; acknowledgements cleared`);
} else {
  console.error('usage: tsx scripts/schema.ts print|check|breaking [git rev]|release');
  process.exit(2);
}
