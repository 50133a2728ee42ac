import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/**
 * Real Redis for tests: a private `redis-server` on a free loopback port (never a Redis that holds
 * someone's data), or `REDIS_URL` when the binary is not installed.
 */
export interface TestRedis {
  url: string;
  port: number;
  /** Whether this process owns the server (and may stop it). */
  owned: boolean;
  stop(): Promise<void>;
  /** Starts the same server again on the same port (after stop). */
  restart(): Promise<void>;
  /** Freezes / thaws the server process (SIGSTOP / SIGCONT): a Redis that accepts but never answers. */
  pause(): void;
  resume(): void;
}

/** Databases of the private server: one per test file and run, see test/support/redis-db.ts. */
export const TEST_REDIS_DATABASES = 1024;

export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPing(url: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    r.on('error', () => {});
    try {
      await r.connect();
      if ((await r.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      r.disconnect();
    }
    if (Date.now() > deadline)
      throw new Error(`redis at ${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r2) => setTimeout(r2, 50));
  }
}

export async function startRedisServer(): Promise<TestRedis> {
  if (!hasRedisServer()) {
    const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    await waitForPing(url);
    const port = Number(new URL(url).port || 6379);
    const no = () => {
      throw new Error('cannot pause a Redis this process does not own');
    };
    return {
      url,
      port,
      owned: false,
      stop: async () => {},
      restart: async () => {},
      pause: no,
      resume: no,
    };
  }
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--loglevel',
        'warning',
        '--databases',
        String(TEST_REDIS_DATABASES),
      ],
      {
        stdio: 'ignore',
      },
    );
    await waitForPing(url);
  };
  await start();
  return {
    url,
    port,
    owned: true,
    stop: async () => {
      const c = child;
      if (!c || c.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      });
    },
    restart: start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
  };
}
