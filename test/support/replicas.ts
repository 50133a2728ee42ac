import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis.js';

/**
 * A gateway process (src/server.ts through tsx, or a compiled entry such as dist/server.js run by node
 * itself, as deployed): its own port, the shared Redis.
 */
export interface Replica {
  port: number;
  url: string;
  child: ChildProcess;
  log(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** `port`: the port to listen on (a replica restarted in place, behind a balancer that names it). */
export async function startReplica(
  env: Record<string, string>,
  timeoutMs = 60_000,
  port?: number,
  entry = 'src/server.ts',
): Promise<Replica> {
  port ??= await freePort();
  let out = '';
  const args = entry.endsWith('.js') ? [entry] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out = (out + String(d)).slice(-20_000)));
  child.stderr?.on('data', (d) => (out = (out + String(d)).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const kill = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited (${child.exitCode}):\n${out}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return { port, url, child, log: () => out, kill };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await kill('SIGKILL');
      throw new Error(`gateway did not start within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** HAProxy (Debian's package) on loopback, round-robin over the replicas; long-lived streams allowed. */
export async function startHaproxy(
  backends: readonly { port: number }[],
): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    haproxyConfig(
      port,
      backends.map((b) => b.port),
    ),
  );
  let out = '';
  const child = spawn(process.env.HAPROXY_BIN ?? 'haproxy', ['-f', cfg, '-db'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${out}`);
    try {
      if ((await fetch(`${url}/health`)).status < 500) break;
    } catch {
      if (i > 100) throw new Error(`haproxy did not answer:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The same shape as docker-compose.yml's haproxy.cfg: round robin, health-checked, websockets and SSE kept open. */
export function haproxyConfig(port: number, backends: readonly number[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    // Websockets and SSE: a tunnel may stay open as long as its subscription.
    '  timeout tunnel 1h',
    '  option http-server-close',
    // A connection refused (a replica between its listener closing and its check failing) is sent to
    // another replica: nothing had reached the gateway, so a retry cannot run a request twice.
    '  retries 3',
    '  option redispatch',
    `frontend gateway`,
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    // /health: 503 while a replica drains (SIGTERM), so no new request is sent to it.
    '  option httpchk GET /health',
    '  default-server inter 500ms fall 2 rise 1',
    // A slow answer on a loaded machine is not a failed check; a draining replica's 503 is, at once.
    '  timeout check 2s',
    ...backends.map((p, i) => `  server gw${i + 1} 127.0.0.1:${p} check`),
    '',
  ].join('\n');
}
