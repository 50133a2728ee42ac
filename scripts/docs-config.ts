import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configSchema } from '../src/config.js';
import { ACCEPTS } from '../src/config-accepts.js';
import { renderConfigDoc, settingDocs } from './config-doc.js';

/** `write` regenerates docs/configuration.md's table from src/config.ts; `check` fails when it is stale. */
const path = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));
export const CONFIG_DOC = path('docs/configuration.md');

export function expectedConfigDoc(): { current: string; expected: string } {
  let current = '';
  try {
    current = readFileSync(CONFIG_DOC, 'utf8');
  } catch {
    // missing: generated from scratch
  }
  const settings = settingDocs({
    schema: configSchema,
    accepts: ACCEPTS,
    configFile: path('src/config.ts'),
    docFiles: [path('src/config-shape.ts'), path('src/telemetry/tracing.ts')],
  });
  return { current, expected: renderConfigDoc(settings, current) };
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
