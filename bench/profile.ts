/**
 * `npx tsx bench/profile.ts`: CPU profile (node --cpu-prof) of the gateway under one repeated query against
 * the simulator. RC (response-cache max TTL ms, default 0 = off), SEC (10), OUT (profile directory).
 */

import { startSimulator } from '@avalanche-gateway/simulator';
import autocannon from 'autocannon';
import { blockBody } from './load.js';
import { buildGateway, gatewayEnv, headOf, startBenchServer, stopServer } from './serve-command.js';

// The gateway runs compiled, as `npm start` runs it (BENCH_FROM=src: from the TypeScript sources).
buildGateway();
const sim = await startSimulator({ port: 0 });
const { child, url } = await startBenchServer(
  'gateway',
  gatewayEnv(sim, { RESPONSE_CACHE_MAX_TTL_MS: process.env.RC ?? '0' }),
  ['--cpu-prof', '--cpu-prof-dir', process.env.OUT ?? '/tmp/perfprof/out'],
);
const head = await headOf(sim, '43114');
const body = blockBody(String(head - 5));
for (let i = 0; i < 3; i++)
  await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const r = await autocannon({
  url,
  method: 'POST',
  connections: 16,
  duration: Number(process.env.SEC ?? 10),
  headers: { 'content-type': 'application/json' },
  body,
});
console.log('rps', r.requests.average, 'non2xx', r.non2xx, 'upstream', sim.stats().total);
await stopServer(child);
await sim.close();
