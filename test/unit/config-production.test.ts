import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('production configuration', () => {
  it('NODE_ENV=production without CURSOR_SECRET stops start-up, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/CURSOR_SECRET/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', CURSOR_SECRET: 'gw-cursor-development-secret' }),
    ).toThrow(/CURSOR_SECRET/);
  });
  it('with its own CURSOR_SECRET production starts; development keeps its default', () => {
    expect(
      loadConfig({ NODE_ENV: 'production', CURSOR_SECRET: 'a-real-secret-value' }).cursorSecret,
    ).toBe('a-real-secret-value');
    expect(loadConfig({}).cursorSecret).toBe('gw-cursor-development-secret');
  });
  it('UPSTREAM_MAX_BODY_BYTES and STALE_AFTER_MS have defaults and bounds', () => {
    expect(loadConfig({}).upstreamMaxBodyBytes).toBe(20 * 1024 * 1024);
    expect(loadConfig({}).staleAfterMs).toBe(1000);
    expect(() => loadConfig({ UPSTREAM_MAX_BODY_BYTES: '10' })).toThrow(/UPSTREAM_MAX_BODY_BYTES/);
  });
  it('TRUSTED_PROXIES=* stops start-up in production (issue 42): anyone could forge x-forwarded-for', () => {
    const prod = { NODE_ENV: 'production', CURSOR_SECRET: 'a-real-secret-value' };
    let error: unknown;
    try {
      loadConfig({ ...prod, TRUSTED_PROXIES: 'loopback, *' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('TRUSTED_PROXIES_ANY_IN_PRODUCTION');
    expect(loadConfig({ ...prod, TRUSTED_PROXIES: 'loopback,10.0.0.0/8' }).trustedProxies).toEqual([
      'loopback',
      '10.0.0.0/8',
    ]);
    // Development may still trust anyone.
    expect(loadConfig({ TRUSTED_PROXIES: '*' }).trustedProxies).toEqual(['*']);
  });
});
