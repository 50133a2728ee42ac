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

  /** A module planted at `path` with `text`; the check's unexpected violations for it. */
  const planted = async (path: string, text: string) => {
    const file = fileURLToPath(new URL(`../../${path}`, import.meta.url));
    writeFileSync(file, text);
    try {
      return (await checkImports([path])).unexpected;
    } finally {
      rmSync(file, { force: true });
    }
  };

  it('fail on a loop at the door: an entry stage naming the composition above it (http → gateway)', async () => {
    const path = `src/http/planted-loop-${process.pid}.ts`;
    expect(await planted(path, "export type { Gateway } from '../gateway.js';\n")).toContain(
      `no-upward-http: ${path} → src/gateway.ts`,
    );
  }, 60_000);

  it('fail on the gateway importing the simulator package, by name or by path', async () => {
    const path = `src/upstream/planted-sim-${process.pid}.ts`;
    const byName = await planted(
      path,
      "export { startSimulator } from '@avalanche-gateway/simulator';\n",
    );
    expect(byName.some((v) => v.startsWith(`sim-apart: ${path} → `))).toBe(true);
    const byPath = await planted(
      path,
      "export { simCu } from '../../packages/simulator/src/prices.js';\n",
    );
    expect(byPath).toContain(`sim-apart: ${path} → packages/simulator/src/prices.ts`);
  }, 60_000);

  it('fail on the simulator importing the gateway', async () => {
    const path = `packages/simulator/src/planted-gw-${process.pid}.ts`;
    expect(
      await planted(path, "export { cuPrice } from '../../../src/upstream/compute-units.js';\n"),
    ).toContain(`sim-imports: ${path} → src/upstream/compute-units.ts`);
  }, 60_000);
});
