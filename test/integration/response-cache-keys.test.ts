import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createTestGateway, useSimAndGateway } from '../support/gateway.js';
import { flushRedisDb } from '../support/sim.js';

/** Whole-response cache keys: only what changes the answer (issue 12: junk variables). */
let sim: RunningSimulator;
let redisUrl: string;
useSimAndGateway({ redis: true }, (s, _gw, r) => {
  sim = s;
  redisUrl = r;
});

async function responseKeys(url: string): Promise<string[]> {
  const r = new Redis(url);
  try {
    return await r.keys('*:response:*');
  } finally {
    r.disconnect();
  }
}

describe('response cache keys', () => {
  it('300 requests differing only in an undeclared variable store one entry, and share it', async () => {
    await flushRedisDb(redisUrl);
    const gw = createTestGateway(sim, {
      redisUrl,
      env: { RESPONSE_CACHE_MAX_TTL_MS: '60000' },
      ttlOverrides: { slow: 60_000 },
    });
    await gw.ready();
    const q = 'query Chain($id: String!) { chain(id: $id) { chainId name } }';
    const first = await gw.query(q, { id: '43114', junk: 0 });
    expect(first.errors).toBeUndefined();
    const rest = [];
    for (let k = 1; k < 300; k++) rest.push(await gw.query(q, { id: '43114', junk: k }));
    // A hit answers the same data (a fresh execution also reports its cost estimate in extensions).
    for (const r of rest) expect(r.data).toEqual(first.data);
    await gw.settled();
    expect(await responseKeys(redisUrl)).toHaveLength(1);
    // a declared variable still makes its own entry
    await gw.query(q, { id: '43113' });
    await gw.settled();
    expect(await responseKeys(redisUrl)).toHaveLength(2);
    await gw.close();
  });
});
