import { existsSync, readFileSync } from 'node:fs';
import { resolveSpecDir } from '../../src/spec/spec-dir.js';

/**
 * The upstreams' specs for the tests: `SPEC_DIR` when set, else the shared reference checkout beside the
 * repository, else what `npm run spec:fetch` downloaded (src/spec/spec-dir.ts). Without them the contract
 * suite skips with what to run, except in CI (`CI=true`), where a missing spec fails.
 */
export const SPEC_DIR = resolveSpecDir(process.env.SPEC_DIR);
export const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

/** The published specs (`npm run spec:fetch` downloads them); the node examples exist only in the shared checkout. */
export const PUBLISHED_SPECS = ['data-api.openapi.json', 'metrics-api.openapi.json'] as const;
export const NODE_EXAMPLES = 'examples/node/';

export const specPath = (rel: string) => `${SPEC_DIR}${rel}`;
export const hasSpec = (rel: string) => existsSync(specPath(rel));
export const havePublishedSpecs = () => PUBLISHED_SPECS.every(hasSpec);

export const MISSING_SPECS = `the upstream specs are not in ${SPEC_DIR}: run \`npm run spec:fetch\` (downloads the published Data and Metrics API specs) or set SPEC_DIR to a folder holding them`;

/** A spec file's text; a clear error naming what to run when it is missing. */
export function readSpec(rel: string): string {
  if (!hasSpec(rel)) throw new Error(`${rel} not found: ${MISSING_SPECS}`);
  return readFileSync(specPath(rel), 'utf8');
}

export const readSpecJson = <T = any>(rel: string): T => JSON.parse(readSpec(rel)) as T;
