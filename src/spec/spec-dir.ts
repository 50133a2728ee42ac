import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the upstreams' published specs are read (the simulator's spec variation, the contract suite):
 * `SPEC_DIR` when set; else the shared reference checkout beside the repository, when there is one;
 * else the folder `npm run spec:fetch` downloads them into.
 */
export const SHARED_SPEC_DIR = fileURLToPath(new URL('../../../shared/upstream/', import.meta.url));
export const FETCHED_SPEC_DIR = fileURLToPath(new URL('../../spec/upstream/', import.meta.url));

/** The spec folder, with a trailing slash, from the configured value (`SPEC_DIR`) if any. */
export function resolveSpecDir(configured?: string): string {
  if (configured) return `${resolve(configured)}/`;
  return existsSync(SHARED_SPEC_DIR) ? SHARED_SPEC_DIR : FETCHED_SPEC_DIR;
}
