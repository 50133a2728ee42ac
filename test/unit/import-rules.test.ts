import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkImports } from '../../scripts/lint-imports.js';

/**
 * The layer rules (`npm run lint:imports`, .dependency-cruiser.cjs) catch a new upward import: a module
 * planted in src/cache/ that imports a Yoga plugin fails the check, and is named with the rule it breaks.
 */
describe('import rules', () => {
  it('fail on a planted upward import (cache → plugins)', async () => {
    const name = `planted-upward-${process.pid}.ts`;
    const file = fileURLToPath(new URL(`../../src/cache/${name}`, import.meta.url));
    writeFileSync(file, "export { useJit } from '../plugins/use-jit.js';\n");
    try {
      const report = await checkImports([`src/cache/${name}`]);
      expect(report.unexpected).toContain(
        `no-upward-cache: src/cache/${name} → src/plugins/use-jit.ts`,
      );
    } finally {
      rmSync(file, { force: true });
    }
  }, 60_000);

  it('pass the same module importing inward (cache → upstream)', async () => {
    const name = `planted-inward-${process.pid}.ts`;
    const file = fileURLToPath(new URL(`../../src/cache/${name}`, import.meta.url));
    writeFileSync(file, "export type { UpstreamRequest } from '../upstream/request.js';\n");
    try {
      expect((await checkImports([`src/cache/${name}`])).unexpected).toEqual([]);
    } finally {
      rmSync(file, { force: true });
    }
  }, 60_000);
});
