import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './redis.js';

/**
 * A real EVM node for tests: Hardhat's node (from the registry, a devDependency) on a free loopback
 * port, HTTP and websocket on the same port. Nothing leaves the machine.
 */
export interface TestEvmNode {
  /** HTTP JSON-RPC endpoint, e.g. http://127.0.0.1:PORT */
  url: string;
  /** Websocket JSON-RPC endpoint (eth_subscribe), same port. */
  wsUrl: string;
  chainId: number;
  /** The node's funded, unlocked accounts (Hardhat's well-known test accounts). */
  accounts: string[];
  rpc<T = any>(method: string, params?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

export async function startEvmNode(timeoutMs = 30_000): Promise<TestEvmNode> {
  const port = await freePort();
  const cli = join(dirname(require.resolve('hardhat/package.json')), 'internal', 'cli', 'cli.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      cli,
      '--config',
      join(here, 'evm-node', 'hardhat.config.cjs'),
      'node',
      '--hostname',
      '127.0.0.1',
      '--port',
      String(port),
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
    },
  );
  let log = '';
  child.stdout?.on('data', (d) => (log += String(d)));
  child.stderr?.on('data', (d) => (log += String(d)));
  const url = `http://127.0.0.1:${port}`;
  let id = 0;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3_000).unref();
    });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`hardhat node exited (${child.exitCode}):\n${log}`);
    try {
      const chainId = Number(await rpc<string>('eth_chainId'));
      const accounts = await rpc<string[]>('eth_accounts');
      return { url, wsUrl: `ws://127.0.0.1:${port}`, chainId, accounts, rpc, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`hardhat node did not answer within ${timeoutMs} ms:\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
