import { readFileSync, writeFileSync } from 'node:fs';
import { buildPersistedManifest, MANIFEST_PATH } from '../src/edge/persisted.js';

/** `print`: writes schema/persisted-operations.json from schema/operations/ and examples/operations/ (also run by `npm run codegen`); `check`: fails when it is stale. */
const text = `${JSON.stringify(buildPersistedManifest(), null, 2)}\n`;
if (process.argv[2] === 'check') {
  if (readFileSync(MANIFEST_PATH, 'utf8') !== text) {
    console.error(`${MANIFEST_PATH} is stale: run npm run persisted:print`);
    process.exit(1);
  }
} else {
  writeFileSync(MANIFEST_PATH, text);
  console.log(`wrote ${MANIFEST_PATH} (${Object.keys(JSON.parse(text)).length} operations)`);
}
