/**
 * A real wait, for what the tests cannot drive with an injected clock (a fire-and-forget cache write
 * landing, a server's own timers). Prefer the clock where the code takes one (`now`).
 */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
