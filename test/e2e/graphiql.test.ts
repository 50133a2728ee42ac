import { existsSync, readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createGateway } from '../../src/gateway.js';
import { EXAMPLE_TABS } from '../../src/graphiql/examples.js';
import type { RunningSimulator } from '../../src/sim/index.js';
import { useSimulator } from '../support/gateway.js';
import { serveOnLoopback } from '../support/serve.js';

/**
 * GraphiQL as a person meets it, in a real headless Chromium (Debian's `chromium`, which `.ci/run`
 * installs): the page loads, with every request answered by the gateway on loopback (anything else is
 * recorded and refused), the example tabs are there, and running the first one shows blocks from the
 * simulator. Yoga's default page fetched its code from a public CDN and, offline, never left "Loading…".
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI)
  throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package`);

let sim: RunningSimulator;
let served: Awaited<ReturnType<typeof serveOnLoopback>>;
let browser: Browser | undefined;

useSimulator({}, (s) => {
  sim = s;
});
beforeAll(async () => {
  const config = loadConfig({
    DATA_API_URL: sim.dataApiUrl,
    METRICS_API_URL: sim.metricsApiUrl,
    NODE_RPC_URL: sim.nodeUrl,
    LOG_LEVEL: 'silent',
  });
  served = await serveOnLoopback(createGateway(config).yoga);
  if (haveChromium)
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await served?.close();
});

describe('GraphiQL served by the gateway', () => {
  it('every example tab runs against the simulator without an error', async () => {
    expect(EXAMPLE_TABS.length).toBeGreaterThanOrEqual(5);
    for (const tab of EXAMPLE_TABS) {
      // A subscription tab needs a followed chain (LIVE_WS): here it is checked against the schema.
      if (/^subscription /m.test(tab.query)) {
        const schema = buildSchema(readFileSync('schema/schema.graphql', 'utf8'));
        expect(validate(schema, parse(tab.query))).toEqual([]);
        continue;
      }
      const res = await fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: tab.query, variables: tab.variables }),
      });
      const body = (await res.json()) as { data?: unknown; errors?: unknown[] };
      expect({ query: tab.query.split('\n')[0], errors: body.errors }).toEqual({
        query: tab.query.split('\n')[0],
        errors: undefined,
      });
      expect(body.data).toBeTruthy();
    }
  });

  it('the page references only the gateway’s own, immutable assets', async () => {
    const html = await (await fetch(served.url, { headers: { accept: 'text/html' } })).text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1] ?? '')
      .filter((r) => !r.startsWith('data:'));
    expect(refs.length).toBeGreaterThanOrEqual(2);
    for (const ref of refs) {
      expect(ref.startsWith('/graphiql/assets/')).toBe(true);
      const res = await fetch(new URL(ref, served.url), { headers: { 'accept-encoding': 'gzip' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
      const etag = res.headers.get('etag')!;
      expect(
        (await fetch(new URL(ref, served.url), { headers: { 'if-none-match': etag } })).status,
      ).toBe(304);
    }
    expect((await fetch(new URL('/graphiql/assets/nope.js', served.url))).status).toBe(404);
  });

  // Skipped only on a developer machine without Debian's chromium (`apt-get install chromium`); under CI the
  // missing browser is an error above, and .ci/run installs it.
  it.skipIf(!haveChromium)(
    'loads with no request leaving the machine, shows the example tabs, and runs the first one',
    async () => {
      const context = await browser!.newContext();
      const page = await context.newPage();
      const outside: string[] = [];
      await context.route('**/*', (route) => {
        const u = new URL(route.request().url());
        if (u.protocol === 'blob:' || u.protocol === 'data:' || u.hostname === '127.0.0.1')
          return route.continue();
        outside.push(route.request().url());
        return route.abort();
      });
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(e.message));

      await page.goto(served.url, { waitUntil: 'load' });
      await page.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });
      await page.locator('.graphiql-tab').first().waitFor();
      expect(await page.locator('.graphiql-tab').count()).toBeGreaterThanOrEqual(
        EXAMPLE_TABS.length,
      );

      await page.locator('.graphiql-tab').first().click();
      await page.locator('.graphiql-execute-button').click();
      const response = page.locator('.result-window');
      await expect
        .poll(async () => response.textContent(), { timeout: 20_000 })
        .toContain('"blocks"');
      await page.screenshot({
        path: process.env.GRAPHIQL_SCREENSHOT ?? 'test/artifacts/graphiql.png',
      });

      expect(outside).toEqual([]);
      expect(pageErrors).toEqual([]);
      await context.close();
    },
    90_000,
  );
});
