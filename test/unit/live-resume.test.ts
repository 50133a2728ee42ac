import { describe, expect, it } from 'vitest';
import { MemoryHeadBus } from '../../src/live/bus.js';
import { LiveFeed } from '../../src/live/feed.js';
import type { Head } from '../../src/live/head.js';
import { headsAfter, ResumeGapError, resumePoint } from '../../src/live/resume.js';
import { testHead } from '../support/heads.js';

/** newBlocks resumption (src/live/resume.ts) over the in-memory bus: what is kept, then live, once each. */
const head = (n: number): Head => testHead(n);
// One turn of the event loop: the in-memory bus and the feeds use no timers, so whatever they do in
// answer (promise chains only) has run by then.
const tick = () => new Promise((r) => setImmediate(r));

/** A bus on which a head lands while a resuming subscriber reads what is kept. */
class LandingDuringRead extends MemoryHeadBus {
  landing: Head | undefined;
  override async since(chainId: string, after: bigint): Promise<Head[]> {
    const kept = await super.since(chainId, after);
    const h = this.landing;
    this.landing = undefined;
    if (h) {
      await this.publish(h);
      await tick();
    }
    return kept;
  }
}

describe('headsAfter', () => {
  it('a head that lands while the kept heads are read is delivered live, not taken for a gap', async () => {
    const bus = new LandingDuringRead();
    const feed = new LiveFeed({ chains: [], bus });
    await bus.publish(head(562));
    await tick();
    bus.landing = head(563);
    const it = headsAfter(feed, '43114', 562n);
    expect((await it.next()).value?.number).toBe('563');
    await it.return(undefined);
  });

  it('replays the kept heads above the point, then live ones, each once; a point older than the kept ones is a gap', async () => {
    const bus = new MemoryHeadBus();
    const feed = new LiveFeed({ chains: [], bus });
    for (let n = 10; n <= 13; n++) await bus.publish(head(n));
    await tick();
    const it = headsAfter(feed, '43114', 11n);
    const got = [(await it.next()).value?.number, (await it.next()).value?.number];
    await bus.publish(head(13));
    await bus.publish(head(14));
    got.push((await it.next()).value?.number);
    expect(got).toEqual(['12', '13', '14']);
    await it.return(undefined);
    await expect(headsAfter(feed, '43114', 5n).next()).rejects.toBeInstanceOf(ResumeGapError);
  });

  it('reads a Last-Event-ID or a plain number; another chain or garbage is no resume point', () => {
    expect(resumePoint('43114', '43114:99')).toBe(99n);
    expect(resumePoint('43114', '99')).toBe(99n);
    expect(resumePoint('43114', '1:99')).toBeUndefined();
    expect(resumePoint('43114', 'latest')).toBeUndefined();
    expect(resumePoint('43114', null)).toBeUndefined();
  });
});
