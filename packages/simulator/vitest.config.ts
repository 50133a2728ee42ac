import { defineConfig } from 'vitest/config';

/** The simulator's own tests (`npm test` here, or the repository's `sim` project beside the others). */
export default defineConfig({
  test: { include: ['test/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 30_000 },
});
