import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../src/config-settings.js';
import { renderConfigDoc, settingDocs } from './config-doc.js';

/** `write` regenerates docs/configuration.md's table from src/config-settings.ts; `check` fails when it is stale. */
const path = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));
export const CONFIG_DOC = path('docs/configuration.md');

export function expectedConfigDoc(): { current: string; expected: string } {
  let current = '';
  try {
    current = readFileSync(CONFIG_DOC, 'utf8');
  } catch {
    // missing: generated from scratch
  }
  return { current, expected: renderConfigDoc(settingDocs(SETTINGS), current) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mode = process.argv[2] ?? 'write';
  const { current, expected } = expectedConfigDoc();
  if (mode === 'write') {
    writeFileSync(CONFIG_DOC, expected);
    console.log(`docs:config: wrote ${CONFIG_DOC}`);
  } else if (mode === 'check') {
    if (current !== expected) {
      console.error('docs/configuration.md is stale: run `npm run docs:config` and commit it.');
      process.exit(1);
    }
    console.log('docs:config: docs/configuration.md is current');
  } else {
    console.error('usage: tsx scripts/docs-config.ts write|check');
    process.exit(2);
  }
}
