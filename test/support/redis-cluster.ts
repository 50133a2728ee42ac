import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis.js';

/**
 * A real Redis Cluster on loopback, made with redis-server and `redis-cli --cluster create`: three
 * primaries, and `replicas` replicas of each (0 by default).
 */
export interface TestRedisCluster {
  seedUrl: string;
  ports: number[];
  /** Each node's role as the cluster sees it now (CLUSTER NODES, asked of `askPort` or any node up). */
  roles(
    askPort?: number,
  ): { port: number; role: 'master' | 'slave'; masterPort?: number; up: boolean }[];
  /** SIGKILLs the node on `port`. */
  kill(port: number): Promise<void>;
  stop(): Promise<void>;
}

type ClusterOptions = { password?: string; replicas?: number };

/** `password`: every node requires it (`requirepass`, and `masterauth` between nodes). */
export async function startRedisCluster(o: ClusterOptions = {}): Promise<TestRedisCluster> {
  // A free port can be taken between the probe and redis-server's bind (tests run in parallel, and
  // other suites start their own Redis): then that node exits and something else answers there, so
  // the cluster cannot form. Such an attempt is cleaned up and retried on new ports.
  let last: unknown;
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      return await startOnce(o);
    } catch (e) {
      last = e;
    }
  }
  throw last;
}

async function startOnce(o: ClusterOptions): Promise<TestRedisCluster> {
  const auth = o.password ? ['-a', o.password, '--no-auth-warning'] : [];
  const dir = mkdtempSync(join(tmpdir(), 'gw-cluster-'));
  const replicas = o.replicas ?? 0;
  const ports: number[] = [];
  for (let i = 0; i < 3 * (1 + replicas); i++) ports.push(await freePort());
  const children: ChildProcess[] = ports.map((port) =>
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        `nodes-${port}.conf`,
        '--cluster-node-timeout',
        '2000',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--loglevel',
        'warning',
        ...(o.password ? ['--requirepass', o.password, '--masterauth', o.password] : []),
      ],
      { stdio: 'ignore' },
    ),
  );
  const stop = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const [n, port] of ports.entries()) {
      for (let i = 0; i < 100; i++) {
        if (
          spawnSync('redis-cli', [...auth, '-p', String(port), 'ping'])
            .stdout?.toString()
            .includes('PONG')
        )
          break;
        await new Promise((r) => setTimeout(r, 50));
      }
      // Our node, not another server that took the port first: ours is running and in cluster mode.
      const info =
        spawnSync('redis-cli', [...auth, '-p', String(port), 'info', 'cluster'], {
          encoding: 'utf8',
        }).stdout ?? '';
      if (children[n]!.exitCode !== null || !info.includes('cluster_enabled:1'))
        throw new Error(`port ${port} was taken before its cluster node could bind it`);
    }
    const create = spawnSync(
      'redis-cli',
      [
        ...auth,
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ],
      {
        encoding: 'utf8',
      },
    );
    if (create.status !== 0)
      throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    // Wait until every node sees the whole cluster (all slots assigned, state ok): a client that asks a
    // node too early gets a partial slot map and gives up on the cluster.
    let converged = false;
    for (let i = 0; i < 200 && !converged; i++) {
      converged = ports.every((p) => {
        const info =
          spawnSync('redis-cli', [...auth, '-p', String(p), 'cluster', 'info'], {
            encoding: 'utf8',
          }).stdout ?? '';
        return (
          info.includes('cluster_state:ok') &&
          info.includes('cluster_slots_ok:16384') &&
          info.includes(`cluster_known_nodes:${ports.length}`)
        );
      });
      if (!converged) await new Promise((r) => setTimeout(r, 100));
    }
    // A cluster that never converged is retried on new ports, not handed to a test that would time out.
    if (!converged) throw new Error('the cluster did not reach state ok on every node within 20 s');
  } catch (e) {
    await stop();
    throw e;
  }
  const kill = (port: number) =>
    new Promise<void>((resolve) => {
      const c = children[ports.indexOf(port)];
      if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  const roles = (askPort?: number) => {
    const alive = ports.filter(
      (_, i) => children[i]!.exitCode === null && children[i]!.signalCode === null,
    );
    const text =
      spawnSync('redis-cli', [...auth, '-p', String(askPort ?? alive[0]), 'cluster', 'nodes'], {
        encoding: 'utf8',
      }).stdout ?? '';
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' '));
    const portOf = new Map(lines.map((f) => [f[0]!, Number(/:(\d+)@/.exec(f[1]!)?.[1])]));
    return lines.map((f) => ({
      port: portOf.get(f[0]!)!,
      role: f[2]!.includes('master') ? ('master' as const) : ('slave' as const),
      masterPort: f[3] !== '-' ? portOf.get(f[3]!) : undefined,
      up: !f[2]!.includes('fail') && f[7] === 'connected',
    }));
  };
  return {
    roles,
    kill,
    seedUrl: o.password
      ? `redis://:${encodeURIComponent(o.password)}@127.0.0.1:${ports[0]}`
      : `redis://127.0.0.1:${ports[0]}`,
    ports,
    stop,
  };
}
