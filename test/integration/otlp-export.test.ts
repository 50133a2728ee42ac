import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { setupTracing } from '../../src/telemetry/tracing.js';
import { useSimulator } from '../support/gateway.js';

/** With an OTLP endpoint configured, spans reach the collector over OTLP/HTTP (a stand-in collector on loopback). */
const received: { path: string; headers: IncomingHttpHeaders; body: any }[] = [];
const collector = createServer((req, res) => {
  let raw = '';
  req.on('data', (d) => (raw += String(d)));
  req.on('end', () => {
    received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(raw) });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
const { gateway } = useSimulator({});
beforeAll(async () => {
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => collector.close(resolve));
});

describe('OTLP/HTTP export', () => {
  it('sends the spans of a query to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces with the configured headers and service name', async () => {
    const { port } = collector.address() as AddressInfo;
    const config = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=abc123',
      OTEL_SERVICE_NAME: 'gw-under-test',
    });
    const tracing = await setupTracing(config.tracing);
    expect(tracing.enabled).toBe(true);
    const gw = gateway();
    const r = await gw.query(
      'query OneBlock { chain(id: "43114") { blocks(first: 1) { edges { node { number } } } } }',
    );
    expect(r.errors).toBeUndefined();
    await tracing.shutdown(); // flushes the batch
    await gw.close();

    expect(received.length).toBeGreaterThan(0);
    expect(
      received.every((r) => r.path === '/v1/traces' && r.headers['x-collector-key'] === 'abc123'),
    ).toBe(true);
    const resourceSpans = received.flatMap((r) => r.body.resourceSpans as any[]);
    const serviceNames = resourceSpans.flatMap((rs) =>
      rs.resource.attributes
        .filter((a: any) => a.key === 'service.name')
        .map((a: any) => a.value.stringValue),
    );
    expect(new Set(serviceNames)).toEqual(new Set(['gw-under-test']));
    const names = resourceSpans.flatMap((rs) =>
      rs.scopeSpans.flatMap((ss: any) => ss.spans.map((s: any) => s.name)),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /graphql',
        'loader.batch data.latestBlocks',
        'cache.lookup',
        'upstream data-api GET /v1/chains/:id/blocks',
        'GET /v1/chains/:id/blocks',
      ]),
    );
  });

  it('without an endpoint, tracing stays off', async () => {
    expect((await setupTracing(loadConfig({}).tracing)).enabled).toBe(false);
  });
});
