import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import {
  applyHeapGrowth,
  COMPOSE_HEAP_LIMIT_MB,
  checkHeapLimit,
  HEAP_HEADROOM_MB,
  HIGH_GROWTH_FROM_MB,
} from '../../src/heap-limit.js';

const MiB = 1_048_576;

describe('the heap limit', () => {
  it('accepts a cache that fits with its headroom, and refuses one that does not, naming the flag to set', () => {
    // What V8 reports for --max-old-space-size=384 (the old generation plus the young one).
    const limit384 = 432 * MiB;
    expect(() => checkHeapLimit(128 * MiB, limit384)).not.toThrow();
    expect(() => checkHeapLimit((432 - HEAP_HEADROOM_MB) * MiB, limit384)).not.toThrow();
    expect(() => checkHeapLimit((433 - HEAP_HEADROOM_MB) * MiB, limit384)).toThrow(ConfigError);
    expect(() => checkHeapLimit(1024 * MiB, limit384)).toThrow(
      `NODE_OPTIONS=--max-old-space-size=${1024 + HEAP_HEADROOM_MB}`,
    );
    // Node's own default on a large machine holds a large cache.
    expect(() => checkHeapLimit(1024 * MiB, 4144 * MiB)).not.toThrow();
  });

  it('the default cache budget fits the limit docker-compose.yml sets', () => {
    expect(134_217_728 / MiB + HEAP_HEADROOM_MB).toBeLessThanOrEqual(COMPOSE_HEAP_LIMIT_MB);
    if (existsSync('docker-compose.yml'))
      expect(readFileSync('docker-compose.yml', 'utf8')).toContain(
        `NODE_OPTIONS: "--max-old-space-size=${COMPOSE_HEAP_LIMIT_MB}"`,
      );
  });

  it("npm start leaves the limit to NODE_OPTIONS (a flag of its own would override the operator's), and its build ignores it", () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      scripts: { start: string; prestart: string };
    };
    expect(pkg.scripts.start).not.toContain('max-old-space-size');
    expect(pkg.scripts.prestart).toMatch(/^NODE_OPTIONS= /);
    expect(readFileSync('Dockerfile', 'utf8')).not.toMatch(/--max-old-space-size=\d/);
  });
});

/**
 * A workload that promotes garbage steadily (a ring of 1000 arrays, each alive long enough to reach the
 * old generation, over a live set of 60 MB), run in a child process with HEAP_GROWTH_PERCENT applied as
 * the entry applies it: it prints how many full collections ran and the largest heap it reached.
 */
const GROWTH_SCRIPT = `
import { PerformanceObserver, constants } from 'node:perf_hooks';
const { applyHeapGrowth } = await import('./src/heap-limit.ts');
const applied = applyHeapGrowth(Number(process.env.GROWTH));
let majors = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
}).observe({ entryTypes: ['gc'] });
const live = [];
for (let i = 0; i < 60; i++) live.push(Array.from({ length: 10_000 }, (_, k) => ({ k, i })));
const ring = new Array(1000);
let peak = 0;
for (let i = 0; i < 8000; i++) {
  ring[i % 1000] = Array.from({ length: 1000 }, (_, k) => ({ k, i }));
  if (i % 100 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
}
await new Promise((r) => setTimeout(r, 50));
console.log(JSON.stringify({ applied, majors, peakMb: peak / 1e6, live: live.length }));
`;

function underGrowth(percent: number): { applied: boolean; majors: number; peakMb: number } {
  const out = execFileSync(
    process.execPath,
    [
      '--max-old-space-size=4096',
      '--import',
      'tsx',
      '--input-type=module',
      '--eval',
      GROWTH_SCRIPT,
    ],
    { encoding: 'utf8', timeout: 60_000, env: { ...process.env, GROWTH: String(percent) } },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!) as {
    applied: boolean;
    majors: number;
    peakMb: number;
  };
}

describe('the heap growth (HEAP_GROWTH_PERCENT)', () => {
  it('holds the heap lower under steady promotion than V8 left alone (4 GB limit), by collecting more often', () => {
    const own = underGrowth(0);
    const doubling = underGrowth(100);
    expect([own.applied, doubling.applied]).toEqual([false, true]);
    expect(doubling.peakMb).toBeLessThan(own.peakMb * 0.8);
    expect(doubling.majors).toBeGreaterThan(own.majors);
  }, 120_000);

  it('takes whole percentages, and leaves V8 alone at 0 and under a heap limit below 2 GB', () => {
    expect(() => applyHeapGrowth(-1)).toThrow(RangeError);
    expect(() => applyHeapGrowth(1.5)).toThrow(RangeError);
    expect(applyHeapGrowth(0)).toBe(false);
    // docker-compose.yml's limit: V8 already grows by at most 1.35 there.
    expect(applyHeapGrowth(100, (COMPOSE_HEAP_LIMIT_MB + 48) * MiB)).toBe(false);
    expect(applyHeapGrowth(100, (HIGH_GROWTH_FROM_MB - 1) * MiB)).toBe(false);
  });

  it('is read from the environment with a default of 100, and refuses what is not a percentage', () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(100);
    expect(loadConfig({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ HEAP_GROWTH_PERCENT: '1001' })).toThrow(ConfigError);
  });
});
