import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSecretReader } from '../../src/live/webhook-secret.js';

/** The shared secret is read in the background at a bounded rate (issue 42, item 5). */
describe('createSecretReader', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const reader = (answers: (string | Error)[]) => {
    const errors: Error[] = [];
    const r = createSecretReader({
      read: async () => {
        const a = answers.shift() ?? new Error('down');
        if (a instanceof Error) throw a;
        return a;
      },
      onError: (e) => errors.push(e),
      refreshMs: 60_000,
      retryMs: 5_000,
      minGapMs: 10_000,
      now: () => Date.now(),
    });
    return { r, errors };
  };

  it('never reads on current(); retries a failed read, backing off, never two reads within 10 s', async () => {
    const { r, errors } = reader([]);
    for (let i = 0; i < 1_000; i++) expect(r.current()).toBeUndefined();
    expect(r.reads()).toBe(0);
    r.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.reads()).toBe(1);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(r.reads()).toBe(1); // the 5 s retry waits for the 10 s gap between reads
    await vi.advanceTimersByTimeAsync(1);
    expect(r.reads()).toBe(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(r.reads()).toBeLessThanOrEqual(5);
    expect(errors.length).toBe(r.reads());
    r.stop();
  });

  it('a flood of bad signatures makes at most one read per 10 s; a known secret is kept meanwhile', async () => {
    const { r } = reader(['s1', 's2', 's3', 's4']);
    r.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(r.current()).toBe('s1');
    for (let t = 0; t < 30; t++) {
      for (let i = 0; i < 100; i++) r.suspect();
      await vi.advanceTimersByTimeAsync(1_000);
    }
    // 30 s of suspicion: reads at 10 s, 20 s, 30 s after the first
    expect(r.reads()).toBe(4);
    expect(r.current()).toBe('s4');
    r.stop();
  });

  it('a known secret is read again every minute; stop() ends the reads', async () => {
    const { r } = reader(['a', 'b', 'c']);
    r.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(r.current()).toBe('b');
    r.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(r.reads()).toBe(2);
  });
});
