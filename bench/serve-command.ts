import { execSync } from 'node:child_process';

/**
 * How the bench scripts start a server under test (`bench/serve.mjs`): compiled, under plain `node`, as
 * `npm start` runs the gateway (the build runs first); with BENCH_FROM=src, the TypeScript sources
 * through tsx. tsx's loader is never in a measured compiled server: it adds about 65 MB of RSS.
 */
export function serveArgs(): string[] {
  if (process.env.BENCH_FROM === 'src') return ['--import', 'tsx', 'bench/serve.mjs'];
  return ['bench/serve.mjs'];
}

let built = false;
/** `npm run build` once per bench process, unless the sources are served or a parent bench built it. */
export function buildGateway(): void {
  if (built || process.env.BENCH_FROM === 'src' || process.env.BENCH_BUILT === '1') return;
  execSync('npm run -s build', { stdio: 'inherit' });
  built = true;
}
