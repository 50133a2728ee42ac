import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { ConfigError } from './config-shape.js';

/**
 * V8's heap limit, which the operator sets with NODE_OPTIONS=--max-old-space-size (docker-compose.yml:
 * 384 MB); `npm start` and the Docker image keep Node's default. V8 sizes its heap growth by that limit:
 * what a smaller one trades is in docs/decisions/heap-growth.md.
 */
export const COMPOSE_HEAP_LIMIT_MB = 384;

/** What the gateway holds beside its in-process cache: modules and schema (about 45 MB), requests in flight, GC slack. */
export const HEAP_HEADROOM_MB = 192;

const OLD_SPACE_FLAG = /^--max[-_]old[-_]space[-_]size(?:=(.*))?$/;

/**
 * The old generation's limit in bytes, where a cache's entries live once they have survived a few
 * collections: the last `--max-old-space-size` of NODE_OPTIONS and the command line (Node reads
 * NODE_OPTIONS first, so the command line's wins, as V8's last flag does), else V8's heap limit (Node's
 * default, a quarter of the memory up to 4 GB). Not V8's `heap_size_limit` when the flag is set: that adds
 * the young generation, 48 MB on Node 20 and 192 MB on Node 24 (384 MB reads as 432 and 576), which
 * would let Node 24 accept a cache that fills the whole old generation.
 */
export function oldGenerationLimitBytes(
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
  execArgv: readonly string[] = process.execArgv,
  heapLimitBytes: number = getHeapStatistics().heap_size_limit,
): number {
  const args = [...nodeOptions.split(/\s+/), ...execArgv];
  let mb: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const m = OLD_SPACE_FLAG.exec(args[i]!);
    if (!m) continue;
    const value = Number(m[1] ?? args[i + 1]);
    if (Number.isFinite(value) && value > 0) mb = value;
  }
  return mb === undefined ? heapLimitBytes : Math.floor(mb * 1_048_576);
}

/**
 * Start-up check: the in-process cache's byte budget (MEMORY_CACHE_MAX_BYTES, which the whole-response
 * cache and page snapshots share) plus the headroom must fit V8's old generation
 * (`--max-old-space-size`), or a full cache would end the process out of memory. Refused with the
 * setting to change.
 */
export function checkHeapLimit(
  cacheBytes: number,
  oldGenerationBytes: number = oldGenerationLimitBytes(),
): void {
  const needMb = Math.ceil(cacheBytes / 1_048_576) + HEAP_HEADROOM_MB;
  const limitMb = Math.floor(oldGenerationBytes / 1_048_576);
  if (limitMb >= needMb) return;
  throw new ConfigError(
    `Invalid configuration:\n  MEMORY_CACHE_MAX_BYTES: a cache of ${Math.ceil(cacheBytes / 1_048_576)} MiB needs a V8 old generation of at least ${needMb} MB (the cache and ${HEAP_HEADROOM_MB} MB for the rest); this process has ${limitMb} MB. Start it with NODE_OPTIONS=--max-old-space-size=${needMb} (or more), or lower MEMORY_CACHE_MAX_BYTES.`,
  );
}

/** The old generation's limit from which V8 lets it grow to four times (below it, at most twice). */
export const HIGH_GROWTH_FROM_MB = 2048;

/**
 * How far V8 lets the old generation grow past what its last full collection left (HEAP_GROWTH_PERCENT;
 * V8's `--heap-growing-percent`, which NODE_OPTIONS does not accept, so it is set here at start-up).
 * Applied only under an old generation of 2 GB or more, where V8's own policy would grow it to four times;
 * below, V8 already grows less and slows near the limit. Returns whether it was applied; 0 leaves V8's
 * own policy everywhere. Why and what it costs: docs/decisions/heap-growth.md.
 */
export function applyHeapGrowth(
  percent: number,
  heapLimitBytes: number = oldGenerationLimitBytes(),
): boolean {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError('a whole percentage >= 0');
  if (percent === 0 || heapLimitBytes < HIGH_GROWTH_FROM_MB * 1_048_576) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}
