import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis.js';

/** A real three-node Redis Cluster on loopback, made with redis-server and `redis-cli --cluster create`. */
export interface TestRedisCluster {
  seedUrl: string;
  ports: number[];
  stop(): Promise<void>;
}

/** `password`: every node requires it (`requirepass`, and `masterauth` between nodes). */
export async function startRedisCluster(o: { password?: string } = {}): Promise<TestRedisCluster> {
  const auth = o.password ? ['-a', o.password, '--no-auth-warning'] : [];
  const dir = mkdtempSync(join(tmpdir(), 'gw-cluster-'));
  const ports = [await freePort(), await freePort(), await freePort()];
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
  for (const port of ports) {
    for (let i = 0; i < 100; i++) {
      if (
        spawnSync('redis-cli', [...auth, '-p', String(port), 'ping'])
          .stdout?.toString()
          .includes('PONG')
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const create = spawnSync(
    'redis-cli',
    [
      ...auth,
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '0',
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
  for (let i = 0; i < 100; i++) {
    const ok = ports.every((p) => {
      const info =
        spawnSync('redis-cli', [...auth, '-p', String(p), 'cluster', 'info'], { encoding: 'utf8' })
          .stdout ?? '';
      return (
        info.includes('cluster_state:ok') &&
        info.includes('cluster_slots_ok:16384') &&
        info.includes('cluster_known_nodes:3')
      );
    });
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    seedUrl: o.password
      ? `redis://:${encodeURIComponent(o.password)}@127.0.0.1:${ports[0]}`
      : `redis://127.0.0.1:${ports[0]}`,
    ports,
    stop: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGKILL');
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
