import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { checkHeapLimit, DEFAULT_HEAP_LIMIT_MB, HEAP_HEADROOM_MB } from '../../src/heap-limit.js';

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

  it('the default cache budget fits the default limit', () => {
    expect(134_217_728 / MiB + HEAP_HEADROOM_MB).toBeLessThanOrEqual(DEFAULT_HEAP_LIMIT_MB);
  });

  it('npm start, the Docker image and docker-compose.yml give the gateway the same limit', () => {
    const flag = `--max-old-space-size=${DEFAULT_HEAP_LIMIT_MB}`;
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
    expect(pkg.scripts.start).toContain(`NODE_OPTIONS:-${flag}`);
    expect(readFileSync('Dockerfile', 'utf8')).toContain(`ENV NODE_OPTIONS=${flag}`);
    if (existsSync('docker-compose.yml'))
      expect(readFileSync('docker-compose.yml', 'utf8')).toContain(`NODE_OPTIONS: "${flag}"`);
  });
});
