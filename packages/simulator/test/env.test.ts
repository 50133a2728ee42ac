import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** `npm run sim` takes everything `startSimulator()` can be told from the environment (packages/simulator/src/main.ts). */

let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGTERM');
});

function startFromEnv(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../src/main.ts', import.meta.url))],
      {
        env: { ...process.env, SIM_PORT: '0', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    const timer = setTimeout(() => reject(new Error(`simulator did not start: ${out}`)), 15_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`simulator exited ${code}: ${out}`)));
  });
}

describe('simulator settings from the environment', () => {
  it('SIM_SEED, SIM_VARY, SIM_REVOKED_KEYS and SIM_UNPRIVILEGED_KEYS', async () => {
    const url = await startFromEnv({
      SIM_SEED: 'env-seed',
      SIM_VARY: 'env-vary',
      SIM_REVOKED_KEYS: 'old-1, old-2',
      SIM_UNPRIVILEGED_KEYS: 'basic',
    });
    const health = (await (await fetch(`${url}/_sim/health`)).json()) as {
      seed: string;
      vary: string;
    };
    expect(health).toMatchObject({ seed: 'env-seed', vary: 'env-vary' });
    const status = async (key?: string) =>
      (
        await fetch(`${url}/data-api/v1/chains`, {
          headers: key ? { 'x-glacier-api-key': key } : {},
        })
      ).status;
    expect(await status()).toBe(200);
    expect(await status('old-2')).toBe(401);
    expect(await status('basic')).toBe(403);
    expect(await status('someone-else')).toBe(200);
  }, 20_000);

  it('SIM_DISAGREE and SIM_INDEX_LAG_BLOCKS', async () => {
    child?.kill('SIGTERM');
    const url = await startFromEnv({
      SIM_DISAGREE: 'invisible-payouts, silent-token',
      SIM_INDEX_LAG_BLOCKS: '3',
    });
    const health = await (await fetch(`${url}/_sim/health`)).json();
    expect(health).toMatchObject({
      disagree: ['invisible-payouts', 'silent-token'],
      indexLagBlocks: 3,
    });
  }, 20_000);
});
