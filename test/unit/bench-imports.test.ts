import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The benchmark's server (bench/serve.mjs) loads the gateway's modules by path at run time, out of the
 * type checker's sight: each path must name a module that exists, or every bench dies at start-up (as it
 * did once src/http-server.ts moved to src/http/server.ts).
 */
describe('bench/serve.mjs', () => {
  it('imports only gateway modules that exist', () => {
    const text = readFileSync(new URL('../../bench/serve.mjs', import.meta.url), 'utf8');
    const paths = [...text.matchAll(/import\(`\$\{from\}\/([^`]+)\.js`\)/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(3);
    const missing = paths.filter((p) => !existsSync(new URL(`../../src/${p}.ts`, import.meta.url)));
    expect(missing).toEqual([]);
  });
});
