import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { COMPOSE_HEAP_LIMIT_MB, checkHeapLimit, HEAP_HEADROOM_MB } from '../../src/heap-limit.js';

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
