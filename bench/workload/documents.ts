import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, print } from 'graphql';
import type { Documents } from './driver.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Every operation of bench/workload/*.graphql by name, each printed alone (what a page sends). */
export function loadDocuments(): Documents {
  const out: Documents = {};
  for (const f of readdirSync(here).filter((n) => n.endsWith('.graphql'))) {
    for (const def of parse(readFileSync(join(here, f), 'utf8')).definitions) {
      if (def.kind !== Kind.OPERATION_DEFINITION || !def.name) continue;
      out[def.name.value] = print(def);
    }
  }
  return out;
}
