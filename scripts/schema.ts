import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printGatewaySchema } from '../src/schema/index.js';

/** `print` writes schema/schema.graphql from the code-first schema; `check` fails when it is stale. */
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
} else {
  console.error('usage: tsx scripts/schema.ts print|check');
  process.exit(2);
}
