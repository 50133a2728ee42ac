import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('documents its defaults: public upstreams, in-process LRU, admin disabled', () => {
    const c = loadConfig({});
    expect(c.port).toBe(4000);
    expect(c.dataApiUrl).toBe('https://data-api.avax.network');
    expect(c.metricsApiUrl).toBe('https://metrics.avax.network');
    expect(c.nodes).toEqual([{ name: 'default', url: 'https://api.avax.network' }]);
    expect(c.redisUrl).toBeUndefined();
    expect(c.adminToken).toBeUndefined();
  });

  it('NODE_ENV=production turns introspection, GraphiQL and open CORS off unless they are set', () => {
    const dev = loadConfig({});
    expect(dev).toMatchObject({
      production: false,
      introspection: true,
      graphiql: true,
      corsOrigins: ['*'],
      csrfPrevention: true,
      maxBodyBytes: 1_000_000,
      maxQueryCost: 6_000,
    });
    const prod = loadConfig({
      NODE_ENV: 'production',
      CURSOR_SECRET: 'test-cursor-secret-0123456789',
    });
    expect(prod).toMatchObject({
      production: true,
      introspection: false,
      graphiql: false,
      corsOrigins: [],
      csrfPrevention: true,
      persistedOperations: 'off',
    });
    const opened = loadConfig({
      NODE_ENV: 'production',
      CURSOR_SECRET: 'test-cursor-secret-0123456789',
      INTROSPECTION: 'true',
      GRAPHIQL: '1',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      TRUSTED_PROXIES: '10.0.0.0/8,loopback',
    });
    expect(opened).toMatchObject({
      introspection: true,
      graphiql: true,
      corsOrigins: ['https://a.example', 'https://b.example'],
      trustedProxies: ['10.0.0.0/8', 'loopback'],
    });
  });

  it('reads named node lists, trims trailing slashes and treats blank values as unset', () => {
    const c = loadConfig({
      NODE_RPC_URL: 'main=http://a:9650/,backup=http://b:9650',
      DATA_API_URL: 'http://x/data-api/',
      REDIS_URL: ' ',
    });
    expect(c.nodes).toEqual([
      { name: 'main', url: 'http://a:9650' },
      { name: 'backup', url: 'http://b:9650' },
    ]);
    expect(c.dataApiUrl).toBe('http://x/data-api');
    expect(c.redisUrl).toBeUndefined();
  });

  it('every query under MAX_QUERY_COST can be paid by a fresh client budget (issue 33)', () => {
    // Both default to the unauthenticated plan's minute.
    expect(loadConfig({})).toMatchObject({ maxQueryCost: 6_000, clientBudgetPerMinute: 6_000 });
    // Unset, the limit follows a smaller budget; budgets off leave it at the plan's minute.
    expect(loadConfig({ CLIENT_CU_PER_MINUTE: '1500' })).toMatchObject({
      maxQueryCost: 1_500,
      clientBudgetPerMinute: 1_500,
    });
    expect(loadConfig({ CLIENT_CU_PER_MINUTE: '0' }).maxQueryCost).toBe(6_000);
    expect(loadConfig({ CLIENT_CU_PER_MINUTE: '0', MAX_QUERY_COST: '9000' }).maxQueryCost).toBe(
      9_000,
    );
    expect(loadConfig({ CLIENT_CU_PER_MINUTE: '2000', MAX_QUERY_COST: '2000' }).maxQueryCost).toBe(
      2_000,
    );
    // A limit above the budget admits queries the budget can never pay: start-up stops, with a code.
    for (const env of [
      { CLIENT_CU_PER_MINUTE: '1500', MAX_QUERY_COST: '6000' },
      { CLIENT_BUDGET_PER_MINUTE: '1500', MAX_QUERY_COST: '1501' },
      { MAX_QUERY_COST: '6001' },
    ]) {
      let err: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).code).toBe('MAX_QUERY_COST_OVER_CLIENT_BUDGET');
      expect((err as Error).message).toContain('MAX_QUERY_COST=');
      expect((err as Error).message).toContain('CLIENT_CU_PER_MINUTE=');
    }
  });

  it.each([
    ['PORT', 'eighty', 'an integer 0-65535'],
    ['PORT', '70000', 'an integer 0-65535'],
    ['DATA_API_URL', 'ftp://x', 'an http(s) URL'],
    ['REDIS_URL', 'localhost:6379', 'redis://'],
    ['ADMIN_TOKEN', 'short', 'at least 8 characters'],
    ['NODE_RPC_URL', 'a=http://x,a=http://y', 'name=URL'],
    ['LOG_LEVEL', 'loud', 'one of debug'],
    ['MAX_QUERY_COST', '0', 'compute units'],
    ['INTROSPECTION', 'yes', 'true or false'],
    ['PERSISTED_OPERATIONS', 'sometimes', 'off, allow or only'],
    ['CLIENT_BUDGET_PER_MINUTE', '-1', '0: no budgets'],
  ])(
    'a bad %s=%s stops start-up naming the variable and what it accepts',
    (name, value, accepts) => {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      try {
        loadConfig({ [name]: value });
      } catch (e) {
        expect((e as Error).message).toContain(`${name}=`);
        expect((e as Error).message).toContain(accepts);
      }
    },
  );
});
