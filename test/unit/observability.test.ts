import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/telemetry/logger.js';
import {
  installProcessHandlers,
  type ProcessErrorKind,
  type ProcessLike,
} from '../../src/telemetry/process-handlers.js';
import { pathOf, requestIdFrom } from '../../src/telemetry/request-observer.js';
import { RouteLabels, routeTemplate } from '../../src/upstream/observe.js';

describe('routeTemplate: what spans and metric labels call an upstream path', () => {
  it.each([
    ['/v1/chains', '/v1/chains'],
    ['/v1/chains/43114/blocks', '/v1/chains/:id/blocks'],
    [
      '/v1/chains/43114/blocks/0x9f3c6a1e2b8d4f5a6c7e8d9f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d',
      '/v1/chains/:id/blocks/:id',
    ],
    [
      '/v1/chains/43114/addresses/0x71c7656ec7ab88b098defb751b7401b5f6d8976f/transactions:listErc20',
      '/v1/chains/:id/addresses/:id/transactions:listErc20',
    ],
    ['/v1/networks/mainnet/validators', '/v1/networks/mainnet/validators'],
    [
      '/v1/networks/mainnet/blockchains/p-chain/transactions/2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF75zX4a5Ti',
      '/v1/networks/mainnet/blockchains/p-chain/transactions/:id',
    ],
    [
      '/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking',
      '/v1/networks/mainnet/blockchains/p-chain/transactions:listStaking',
    ],
    ['/v1/chains/43114/addresses/0xabc:def', '/v1/chains/:id/addresses/:id'],
    [
      '/v1/signatureAggregator/fuji/aggregateSignatures/0xabc',
      '/v1/signatureAggregator/fuji/aggregateSignatures/:id',
    ],
    ['/ext/bc/C/rpc', '/ext/bc/C/rpc'],
    ['/ext/bc/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5/rpc', '/ext/bc/:id/rpc'],
    ['/ext/info', '/ext/info'],
    [
      '/v2/chains/43114/metrics/txCount?timeInterval=day&pageToken=secret',
      '/v2/chains/:id/metrics/txCount',
    ],
    ['/v1/chains/NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg', '/v1/chains/:id'],
  ])('%s → %s', (path, template) => {
    expect(routeTemplate(path)).toBe(template);
    // Asked again (an attempt's report, its breaker and its price each ask): the same, remembered.
    expect(routeTemplate(path)).toBe(template);
  });

  it('remembers recent paths without changing an answer, past its bound too', () => {
    const paths = Array.from({ length: 600 }, (_, i) => `/v1/chains/43114/blocks/${i}`);
    for (const p of [...paths, ...paths.reverse()])
      expect(routeTemplate(p)).toBe('/v1/chains/:id/blocks/:id');
    expect(routeTemplate(`/v1/chains/${'9'.repeat(600)}/blocks`)).toBe('/v1/chains/:id/blocks');
  });

  it('keeps label values bounded: past the cap a new route is "other", known routes keep their name', () => {
    const labels = new RouteLabels(2);
    expect(labels.label('data-api', '/a')).toBe('/a');
    expect(labels.label('data-api', '/b')).toBe('/b');
    expect(labels.label('data-api', '/c')).toBe('other');
    expect(labels.label('data-api', '/a')).toBe('/a');
    expect(labels.label('node', '/c')).toBe('/c');
  });
});

describe("requestIdFrom: a caller's sane x-request-id is kept, anything else replaced", () => {
  it.each([
    'abc-123',
    '0f8fad5b-d9cb-469f-a165-70867728950e',
    '01ARZ3NDEKTSV4RRFFQ69G5FAV',
    'Root=1-67891233-abcdef012345678912345678',
  ])('keeps %s', (id) => {
    expect(requestIdFrom(new Headers({ 'x-request-id': id }))).toBe(id);
  });
  it.each([
    ['empty', ''],
    ['a space', 'a b'],
    ['a newline', 'a\nb'],
    ['quotes', '"x"'],
    ['too long', 'x'.repeat(129)],
    ['json', '{"a":1}'],
  ])('replaces one with %s', (_what, id) => {
    const out = requestIdFrom(new Headers(id.includes('\n') ? {} : { 'x-request-id': id }));
    expect(out).not.toBe(id);
    expect(out).toMatch(/^[0-9a-f-]{36}$/);
  });
  it('generates a fresh id when none is sent', () => {
    const a = requestIdFrom(new Headers());
    const b = requestIdFrom(new Headers());
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
});

function capture() {
  const lines: Record<string, any>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
}

describe('createLogger', () => {
  it('writes one JSON object per line with a word level and an ISO time, and censors header and key fields', () => {
    const { lines, logger } = capture();
    logger.info(
      { headers: { authorization: 'Bearer s3cret' }, ctx: { apiKey: 'k3y' }, route: '/x' },
      'hello',
    );
    logger.debug('not at info');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: 'hello',
      route: '/x',
      headers: '[redacted]',
      ctx: { apiKey: '[redacted]' },
    });
    expect(new Date(lines[0]!.time).toISOString()).toBe(lines[0]!.time);
    expect(JSON.stringify(lines)).not.toMatch(/s3cret|k3y/);
  });
});

describe('installProcessHandlers', () => {
  it('logs and counts unhandled rejections and uncaught exceptions, and removes its handlers', () => {
    const { lines, logger } = capture();
    const target = new EventEmitter();
    const counted: ProcessErrorKind[] = [];
    const uninstall = installProcessHandlers({
      logger,
      count: (k) => counted.push(k),
      target: target as unknown as ProcessLike,
    });
    target.emit('unhandledRejection', new Error('lost promise'));
    target.emit('unhandledRejection', 'a bare string');
    target.emit('uncaughtException', new Error('thrown in a timer'), 'uncaughtException');
    expect(counted).toEqual(['unhandledRejection', 'unhandledRejection', 'uncaughtException']);
    expect(lines.map((l) => [l.level, l.kind, l.err.message])).toEqual([
      ['error', 'unhandledRejection', 'lost promise'],
      ['error', 'unhandledRejection', 'non-Error value: a bare string'],
      ['error', 'uncaughtException', 'thrown in a timer'],
    ]);
    expect(lines[0]!.err.stack).toContain('lost promise');
    uninstall();
    expect(target.listenerCount('unhandledRejection')).toBe(0);
    expect(target.listenerCount('uncaughtException')).toBe(0);
  });
});

describe('observability settings', () => {
  it('defaults: tracing off, /metrics open, 10 s shutdown grace, info logs', () => {
    const c = loadConfig({});
    expect(c.tracing).toEqual({
      otlpTracesUrl: undefined,
      otlpHeaders: {},
      serviceName: 'avalanche-graphql-gateway',
      sampleRatio: 1,
    });
    expect(c.metricsToken).toBeUndefined();
    expect(c.shutdownGraceMs).toBe(10_000);
    expect(c.logLevel).toBe('info');
  });

  it('reads the OTLP endpoint (traces under /v1/traces, or the full traces URL), headers, service name and sampling', () => {
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }).tracing.otlpTracesUrl,
    ).toBe('http://collector:4318/v1/traces');
    const c = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://otlp.example/api/traces',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D%3D, x-team = obs',
      OTEL_SERVICE_NAME: 'gw-eu',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      METRICS_TOKEN: 'a-long-enough-metrics-token',
      SHUTDOWN_GRACE_MS: '3000',
    });
    expect(c.tracing).toEqual({
      otlpTracesUrl: 'https://otlp.example/api/traces',
      otlpHeaders: { 'x-api-key': 'abc==', 'x-team': 'obs' },
      serviceName: 'gw-eu',
      sampleRatio: 0.25,
    });
    expect(c.metricsToken).toBe('a-long-enough-metrics-token');
    expect(c.shutdownGraceMs).toBe(3000);
  });

  it.each([
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318', 'an http(s) URL'],
    ['OTEL_TRACES_SAMPLER_ARG', '2', 'a number 0-1'],
    ['SHUTDOWN_GRACE_MS', '-1', 'an integer 0-300000'],
    ['METRICS_TOKEN', 'short-token', 'at least 16 characters'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'x-api-key:secret-value', 'key=value'],
  ])('a bad %s=%s stops start-up naming it; secrets are not echoed', (name, value, accepts) => {
    let message = '';
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as Error).message;
    }
    expect(message).toContain(`${name}=`);
    expect(message).toContain(accepts);
    if (name === 'METRICS_TOKEN' || name === 'OTEL_EXPORTER_OTLP_HEADERS')
      expect(message).not.toContain(value);
  });
});

describe('pathOf', () => {
  it('reads the path of a request URL as URL would, with or without the fast path', () => {
    const urls = [
      'http://127.0.0.1:4000/graphql',
      'http://h/graphql?x=1',
      'http://h',
      'http://h?q',
      'http://h/a/../metrics',
      'http://h/gr%61phql',
      'http://user:pw@h:1/live#x',
      'http://h//double',
      'http://h/a b',
      'https://h/graphiql/assets/x-1.js',
      'http://h\\graphql',
      'http://h\tx/graphql',
    ];
    for (const u of urls) expect(pathOf(u), u).toBe(new URL(u, 'http://localhost').pathname);
    // Not a URL at all (the server builds request URLs, so this is only the fallback's own answer).
    expect(pathOf('not a url')).toBe('/not%20a%20url');
  });
});
