/**
 * Time buckets of the Metrics API: every timestamp is the start of its bucket in UTC — the hour,
 * the day (00:00), the week (Monday 00:00) or the month (the 1st, 00:00).
 */

export type Interval = 'hour' | 'day' | 'week' | 'month';

export const HOUR = 3600;
export const DAY = 86_400;

/** Start of the bucket containing `t`. */
export function bucketStart(t: number, interval: Interval): number {
  switch (interval) {
    case 'hour':
      return Math.floor(t / HOUR) * HOUR;
    case 'day':
      return Math.floor(t / DAY) * DAY;
    case 'week': {
      const day = Math.floor(t / DAY);
      const weekday = (day + 3) % 7; // the Unix epoch fell on a Thursday; 0 = Monday
      return (day - weekday) * DAY;
    }
    case 'month': {
      const d = new Date(t * 1000);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
    }
  }
}

/** Start of the bucket after the one starting at `start`. */
export function nextBucket(start: number, interval: Interval): number {
  if (interval === 'month') {
    const d = new Date(start * 1000);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
  }
  return start + (interval === 'hour' ? HOUR : interval === 'day' ? DAY : 7 * DAY);
}

/** Start of the bucket before the one starting at `start`. */
export function prevBucket(start: number, interval: Interval): number {
  if (interval === 'month') {
    const d = new Date(start * 1000);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1) / 1000;
  }
  return start - (interval === 'hour' ? HOUR : interval === 'day' ? DAY : 7 * DAY);
}
