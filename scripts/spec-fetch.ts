import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FETCHED_SPEC_DIR } from '../src/spec/spec-dir.js';

/**
 * `npm run spec:fetch`: downloads the upstreams' published OpenAPI specs into SPEC_DIR (default
 * spec/upstream/, which src/spec/spec-dir.ts reads when no shared checkout is beside the repository).
 * By default the versions the project was built against, from Ava Labs' builders-hub repository at a
 * pinned commit (the live specs with deprecated operations removed); `--live` takes the APIs' own
 * `api-json` instead, which still lists deprecated operations. The node's JSON-RPC examples are not
 * published as files: the tests that need them skip without them (fail in CI).
 */
const BUILDERS_HUB = 'https://raw.githubusercontent.com/ava-labs/builders-hub';
export const PINNED_SOURCES: Record<string, string> = {
  'data-api.openapi.json': `${BUILDERS_HUB}/d9e88bfde9306b6887b394eea27e3230f11543d9/public/openapi/glacier.json`,
  'metrics-api.openapi.json': `${BUILDERS_HUB}/d9e88bfde9306b6887b394eea27e3230f11543d9/public/openapi/popsicle.json`,
  'extra/metrics-api.2025-09.openapi.yaml': `${BUILDERS_HUB}/df5825c511df043e9797e09bd8eb760287e01346/constants/metrics.yaml`,
};
export const LIVE_SOURCES: Record<string, string> = {
  'data-api.openapi.json': 'https://glacier-api.avax.network/api-json',
  'metrics-api.openapi.json': 'https://popsicle-api.avax.network/api-json',
};

/** Downloads every source into `dir` (each file written whole or not at all); returns the paths written. */
export async function fetchSpecs(
  dir: string,
  sources: Record<string, string> = PINNED_SOURCES,
): Promise<string[]> {
  const written: string[] = [];
  for (const [file, url] of Object.entries(sources)) {
    const res = await fetch(url, { signal: AbortSignal.timeout(60_000) });
    if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
    const text = await res.text();
    if (file.endsWith('.json')) {
      const spec = JSON.parse(text) as { openapi?: unknown; paths?: unknown };
      if (!spec.openapi || !spec.paths) throw new Error(`${url}: not an OpenAPI document`);
    }
    const path = join(dir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.part`, text);
    renameSync(`${path}.part`, path);
    written.push(path);
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.env.SPEC_DIR || FETCHED_SPEC_DIR;
  const sources = process.argv.includes('--live') ? LIVE_SOURCES : PINNED_SOURCES;
  try {
    for (const path of await fetchSpecs(dir, sources)) console.log(`spec:fetch: wrote ${path}`);
  } catch (err) {
    console.error(`spec:fetch: ${(err as Error).message}`);
    process.exit(1);
  }
}
