/**
 * The webhooks' shared secret, read from the Data API as background work at a bounded rate, never on a
 * delivery's behalf. The route only looks at what was last read (`current()`): while no secret is known
 * it refuses every delivery (503) without an upstream call, so junk-signed POSTs cannot turn into secret
 * reads (issue 42: 11,052 such requests made 239 reads, 4,780 CU in 10 s, when each one waited on a
 * read). Reads are single-flight; after a failure the next waits `retryMs`, doubling up to `refreshMs`;
 * a known secret is read again every `refreshMs` (a rotation is picked up), sooner after a bad signature
 * (`suspect()`), but never two reads within `minGapMs`.
 */
export interface SecretReaderOptions {
  read(): Promise<string>;
  onError(e: Error): void;
  /** @default 60_000 */
  refreshMs?: number;
  /** @default 5_000 */
  retryMs?: number;
  /** @default 10_000 */
  minGapMs?: number;
  /** @default Date.now */
  now?: () => number;
}

export interface SecretReader {
  /** The last secret read, or undefined; never reads. */
  current(): string | undefined;
  /** The first read now, then reads on the reader's own timer. */
  start(): void;
  /** A delivery's signature did not match: read again soon (at most once per `minGapMs`). */
  suspect(): void;
  stop(): void;
  /** Reads started so far (for tests and metrics). */
  reads(): number;
}

export function createSecretReader(options: SecretReaderOptions): SecretReader {
  const refreshMs = options.refreshMs ?? 60_000;
  const retryMs = options.retryMs ?? 5_000;
  const minGapMs = options.minGapMs ?? 10_000;
  const now = options.now ?? Date.now;
  let secret: string | undefined;
  let reading = false;
  let failures = 0;
  let lastStart = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let reads = 0;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(read, Math.max(ms, lastStart + minGapMs - now(), 0));
    timer.unref();
  };
  function read(): void {
    if (reading || stopped) return;
    reading = true;
    reads += 1;
    lastStart = now();
    options.read().then(
      (value) => {
        secret = value;
        failures = 0;
        reading = false;
        schedule(refreshMs);
      },
      (e: Error) => {
        failures += 1;
        reading = false;
        options.onError(e);
        schedule(Math.min(refreshMs, retryMs * 2 ** (failures - 1)));
      },
    );
  }

  return {
    current: () => secret,
    start() {
      stopped = false;
      read();
    },
    suspect() {
      if (!reading) schedule(0);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
    reads: () => reads,
  };
}
