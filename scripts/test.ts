import { spawnSync } from 'node:child_process';

/**
 * `npm test`: with no arguments the whole suite (unit, simulator, integration, e2e and oracle projects,
 * then `schema:check` and `persisted:check`); with arguments (`npm test -- test/unit/config.test.ts`, or
 * `-t <name>`), only those files through vitest, in whichever project holds them. npm appends its
 * arguments to the end of a script, so a plain `vitest run … && … check` would run the whole suite and
 * hand the file to the last check.
 */
const args = process.argv.slice(2);
const run = (cmd: string, a: string[]) =>
  spawnSync(cmd, a, { stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;
const SUITE = ['unit', 'sim', 'integration', 'e2e', 'oracle'].flatMap((p) => ['--project', p]);

let status = run('npx', ['vitest', 'run', ...(args.length > 0 ? args : SUITE)]);
if (status === 0 && args.length === 0) status = run('npm', ['run', '-s', 'schema:check']);
if (status === 0 && args.length === 0) status = run('npm', ['run', '-s', 'persisted:check']);
process.exit(status);
