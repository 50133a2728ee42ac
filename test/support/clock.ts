/**
 * A clock the test moves: starts at the real time (or `start`), then only moves when told. Pass `now` to
 * whatever takes a clock (the gateway's `now`: every cache decision) instead of sleeping past a TTL.
 */
export interface TestClock {
  now: () => number;
  advance: (ms: number) => void;
}

export function testClock(start = Date.now()): TestClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}
