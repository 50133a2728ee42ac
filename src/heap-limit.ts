import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { ConfigError } from './config-shape.js';

/**
 * V8's heap limit, which the operator sets with NODE_OPTIONS=--max-old-space-size (docker-compose.yml:
 * 384 MB); `npm start` and the Docker image keep Node's default.
 *
 * What it trades: V8 sizes its heap growth by its limit. Node's default is a quarter of the machine's
 * memory (4 GB on a 16 GB host); above 2 GB, a busy server's old generation grows to four times what
 * survived the last full collection before it collects again. Below 2 GB, V8 grows it by 1.3-2 times
 * (1.35 at 384 MB): about half the resident memory under load (170 MB instead of 270-300), for up to
 * 10 % more CPU per warm query and, on one core, 15-20 % more per cold miss with about twice the p99
 * (more full collections; `bench/README.md`, "What a request leaves behind").
 */
export const COMPOSE_HEAP_LIMIT_MB = 384;

/** What the gateway holds beside its in-process cache: modules and schema (about 45 MB), requests in flight, GC slack. */
export const HEAP_HEADROOM_MB = 192;

/**
 * Start-up check: the in-process cache's byte budget (MEMORY_CACHE_MAX_BYTES, which the whole-response
 * cache and page snapshots share) plus the headroom must fit V8's heap limit, or a full cache would end
 * the process out of memory. Refused with the setting to change.
 */
export function checkHeapLimit(
  cacheBytes: number,
  heapLimitBytes: number = getHeapStatistics().heap_size_limit,
): void {
  const needMb = Math.ceil(cacheBytes / 1_048_576) + HEAP_HEADROOM_MB;
  const limitMb = Math.floor(heapLimitBytes / 1_048_576);
  if (limitMb >= needMb) return;
  throw new ConfigError(
    `Invalid configuration:\n  MEMORY_CACHE_MAX_BYTES: a cache of ${Math.ceil(cacheBytes / 1_048_576)} MiB needs a V8 heap of at least ${needMb} MB (the cache and ${HEAP_HEADROOM_MB} MB for the rest); this process has ${limitMb} MB. Start it with NODE_OPTIONS=--max-old-space-size=${needMb} (or more), or lower MEMORY_CACHE_MAX_BYTES.`,
  );
}

/** The heap limit from which V8 lets the old generation grow to four times (below it, at most twice). */
export const HIGH_GROWTH_FROM_MB = 2048;

/**
 * How far V8 lets the old generation grow past what its last full collection left before it collects
 * again (HEAP_GROWTH_PERCENT; V8's `--heap-growing-percent`, which NODE_OPTIONS does not accept, so it
 * is set here, before the gateway allocates). V8's own policy follows the heap limit: from 2 GB (Node's
 * default on a machine of 8 GB or more) up to four times; below, 1.3 to 2 times (1.35 at 384 MB). A
 * request's leftovers reach the old generation (bench/README.md, "What a request leaves behind"), so
 * under sustained load four times is where resident memory peaks. The default, 100, lets it double:
 * a lower peak for more frequent full collections (measured there, with the p99 and CPU they cost).
 * It is applied only where V8 would allow more (a heap limit of 2 GB or more): under a smaller limit
 * (docker-compose.yml's 384 MB) V8 already grows less, and its own policy also slows growth near the
 * limit, which the flag would override. It is not a limit: the heap limit stays NODE_OPTIONS'. V8
 * reads the value after each full collection, so setting it at start-up takes effect from the first.
 * Returns whether it was applied. 0 leaves V8's own policy everywhere.
 */
export function applyHeapGrowth(
  percent: number,
  heapLimitBytes: number = getHeapStatistics().heap_size_limit,
): boolean {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError('a whole percentage >= 0');
  if (percent === 0 || heapLimitBytes < HIGH_GROWTH_FROM_MB * 1_048_576) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}
