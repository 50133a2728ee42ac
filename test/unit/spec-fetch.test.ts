import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchSpecs, PINNED_SOURCES } from '../../scripts/spec-fetch.js';

/**
 * `npm run spec:fetch` (scripts/spec-fetch.ts) against a loopback server standing in for the published
 * URLs (the tests never call a public endpoint): it writes each spec under its name, and refuses an
 * answer that is not an OpenAPI document or not a 200.
 */
const DOCS: Record<string, string> = {
  '/data.json': JSON.stringify({ openapi: '3.1.0', paths: { '/v1/chains': {} } }),
  '/metrics.json': JSON.stringify({ openapi: '3.1.0', paths: {} }),
  '/legacy.yaml': 'openapi: 3.0.0\npaths: {}\n',
  '/not-a-spec.json': JSON.stringify({ hello: 'world' }),
};
let server: Server;
let base: string;
const dir = mkdtempSync(join(tmpdir(), 'spec-fetch-'));

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = DOCS[req.url ?? ''];
    res.writeHead(body ? 200 : 404).end(body ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('spec:fetch', () => {
  it('fetches the files the project reads, under their names', async () => {
    expect(Object.keys(PINNED_SOURCES)).toEqual([
      'data-api.openapi.json',
      'metrics-api.openapi.json',
      'extra/metrics-api.2025-09.openapi.yaml',
    ]);
    const written = await fetchSpecs(dir, {
      'data-api.openapi.json': `${base}/data.json`,
      'metrics-api.openapi.json': `${base}/metrics.json`,
      'extra/metrics-api.2025-09.openapi.yaml': `${base}/legacy.yaml`,
    });
    expect(written).toHaveLength(3);
    expect(readFileSync(join(dir, 'data-api.openapi.json'), 'utf8')).toBe(DOCS['/data.json']);
    expect(readFileSync(join(dir, 'extra/metrics-api.2025-09.openapi.yaml'), 'utf8')).toBe(
      DOCS['/legacy.yaml'],
    );
  });

  it('refuses an answer that is not an OpenAPI document, or not a 200', async () => {
    await expect(fetchSpecs(dir, { 'x.json': `${base}/not-a-spec.json` })).rejects.toThrow(
      /not an OpenAPI document/,
    );
    await expect(fetchSpecs(dir, { 'y.json': `${base}/missing.json` })).rejects.toThrow(/HTTP 404/);
  });
});
