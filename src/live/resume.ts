import type { LiveFeed } from './feed.js';
import type { Head } from './head.js';

/**
 * Resuming a chain's heads where a subscriber left off (its replica restarted, its connection dropped):
 * the heads numbered above `after` that the bus keeps (the last RECENT in Redis), then the live ones,
 * each once and in order. A resume point older than what is kept is refused rather than skipped.
 */
export class ResumeGapError extends Error {
  override name = 'ResumeGapError';
}

/** `after` as an SSE `Last-Event-ID` (`chainId:number`) or a plain block number; undefined if neither. */
export function resumePoint(chainId: string, raw: string | null | undefined): bigint | undefined {
  const m = /^(?:(\d{1,20}):)?(\d{1,20})$/.exec(raw?.trim() ?? '');
  if (!m || (m[1] !== undefined && m[1] !== chainId)) return undefined;
  return BigInt(m[2]!);
}

/** The id of a head's event: what SSE sends as `id:` and a client sends back as `Last-Event-ID`. */
export const eventIdOf = (h: Head): string => `${h.chainId}:${h.number}`;

export async function* headsAfter(
  feed: LiveFeed,
  chainId: string,
  after: bigint | undefined,
): AsyncGenerator<Head> {
  // Subscribed before the kept heads are read: a head published in between is in one or both, never neither.
  const live = feed.subscribe(chainId);
  try {
    let last = after;
    if (after !== undefined) {
      // The head known before reading what is kept: one that lands during the read is in the live queue,
      // not proof of a gap.
      const top = feed.head(chainId);
      const kept = await feed.since(chainId, after);
      const first = kept[0];
      const lost =
        first !== undefined
          ? BigInt(first.number) > after + 1n
          : top !== undefined && BigInt(top.number) > after;
      if (lost)
        throw new ResumeGapError(
          `heads after ${after} are no longer kept (the oldest kept is ${first?.number ?? 'none'}, the head ${top?.number})`,
        );
      for (const h of kept) {
        last = BigInt(h.number);
        yield h;
      }
    }
    for (;;) {
      const r = await live.next();
      if (r.done) return;
      const n = BigInt(r.value.number);
      if (last !== undefined && n <= last) continue;
      last = n;
      yield r.value;
    }
  } finally {
    await live.return?.();
  }
}
