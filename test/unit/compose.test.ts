import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';

/**
 * docker-compose.yml (issue 45, item 6): it starts next to a Redis already on the machine (no host port
 * for Redis unless deploy/compose/redis-port.yml is added), and its `dev` profile serves GraphiQL. No
 * Docker engine runs here, so the file is read as compose reads it (YAML with merge keys) and each
 * gateway's environment is loaded by the gateway's own config, as the container would.
 */
type Service = {
  ports?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  command?: string[];
};
const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
/** The container's environment: the image's NODE_ENV (Dockerfile), then the service's own. */
const envOf = (s: Service) => ({ NODE_ENV: 'production', ...s.environment });

describe('docker-compose.yml', () => {
  it('publishes no host port for Redis; the override file publishes it on loopback, off 6379 by default', () => {
    expect(services.redis?.ports).toBeUndefined();
    const override = parse(readFileSync('deploy/compose/redis-port.yml', 'utf8')) as {
      services: Record<string, Service>;
    };
    expect(override.services.redis?.ports).toEqual([`127.0.0.1:\${REDIS_HOST_PORT:-6380}:6379`]);
  });

  it('the replicas run with production settings; the dev profile adds one with GraphiQL on', () => {
    const replicas = ['gateway-1', 'gateway-2', 'gateway-3'];
    for (const name of replicas) {
      const s = services[name]!;
      expect(s.profiles).toBeUndefined();
      const config = loadConfig(envOf(s));
      expect(config.graphiql, name).toBe(false);
    }
    const dev = services['gateway-dev']!;
    expect(dev.profiles).toEqual(['dev']);
    expect(dev.ports).toEqual(['4001:4000']);
    expect(dev.command).toEqual(services['gateway-1']!.command);
    const config = loadConfig(envOf(dev));
    expect(config.graphiql).toBe(true);
    // The same wiring as the replicas, so the browser sees what they serve.
    for (const key of ['REDIS_URL', 'DATA_API_URL', 'LIVE_WS', 'CURSOR_SECRET', 'NODE_OPTIONS'])
      expect(dev.environment?.[key], key).toBe(services['gateway-1']!.environment?.[key]);
  });
});
