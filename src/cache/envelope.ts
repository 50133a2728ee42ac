import type { SerializedError } from './cached-types.js';

/** How the read-through stores an entry (an envelope around the value) and waits on a load. */
/** A load in flight: its result, and a promise that settles when one of its attempts failed (retries follow). */
export interface Running {
  p: Promise<unknown>;
  failedAttempt: Promise<void>;
}

export interface Envelope {
  /** Fresh until (epoch ms). */
  e: number;
  /** Serve-while-revalidating until (epoch ms). */
  r?: number;
  /** Serve-if-error until (epoch ms). */
  s?: number;
  /** The version the value was loaded at (see CachedLoad.version). */
  h?: string;
  v?: unknown;
  x?: SerializedError;
}

export function encodeEnvelope(env: Envelope): string {
  return JSON.stringify(env);
}

/** Which comes first: the load settling ('settled'), or a failed attempt / the budget running out ('early'). */
export async function firstOf(
  running: Running,
  budgetMs = Number.POSITIVE_INFINITY,
): Promise<'settled' | 'early'> {
  let timer: NodeJS.Timeout | undefined;
  const budget = Number.isFinite(budgetMs)
    ? new Promise<'early'>((resolve) => (timer = setTimeout(() => resolve('early'), budgetMs)))
    : new Promise<'early'>(() => {});
  try {
    return await Promise.race([
      running.p.then(
        () => 'settled' as const,
        () => 'settled' as const,
      ),
      running.failedAttempt.then(() => 'early' as const),
      budget,
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/**
 * Heap bytes a parsed JSON value takes per character of its text, measured on Data API answers (objects
 * of short strings and numbers): the memo's byte bound counts this, not the text's length alone.
 */
export const PARSED_BYTES_PER_CHAR = 3;
/** An entry larger than this is parsed on each read rather than held parsed. */
export const PARSED_MAX_ENTRY_BYTES = 4 * 1024 * 1024;

export function decode(raw: string | undefined): Envelope | undefined {
  if (raw === undefined) return undefined;
  try {
    const env = JSON.parse(raw) as Envelope;
    return typeof env.e === 'number' ? env : undefined;
  } catch {
    return undefined; // a corrupt entry is a miss
  }
}
