import { getHeapStatistics } from 'node:v8';
import { ConfigError } from './config-shape.js';

/**
 * The V8 heap the gateway runs with: `NODE_OPTIONS=--max-old-space-size=384` in `npm start`, the Docker
 * image and docker-compose.yml, unless the operator sets NODE_OPTIONS.
 *
 * Why a limit at all: V8 sizes its heap growth by its limit. Without one it takes a quarter of the
 * machine's memory (4 GB on a 16 GB host) and, on a busy server, lets the old generation grow to four
 * times what survived the last full collection before it collects again: a gateway with 50 MB live ran
 * at 300 MB. Below 2 GB, V8 grows it by 1.3-2 times instead (1.35 at 384 MB): about half the resident
 * memory under load, the same CPU per cold query, about 12 % more per warm one (more full collections;
 * `bench/README.md`, "What a request leaves behind"). NODE_OPTIONS with a limit of 2 GB or more trades
 * the memory back for that CPU.
 */
export const DEFAULT_HEAP_LIMIT_MB = 384;

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
