import type { RunningSimulator } from '@avalanche-gateway/simulator';
import { describe, expect, it } from 'vitest';
import { MemoryActivityBus } from '../../src/live/activity-bus-memory.js';
import { MemoryHeadBus } from '../../src/live/bus.js';
import { createWebhookApi } from '../../src/live/webhook-api.js';
import { MemoryWebhookStore, WebhookRegistrar } from '../../src/live/webhook-registrar.js';
import { createHttpClient } from '../../src/upstream/http.js';
import { useSimulator } from '../support/gateway.js';
import { configuredHttpLimits } from '../support/http-limits.js';

/**
 * The registration of the `address_activity` webhook against the simulated Data API: its addresses follow
 * the union of followed ones (added and removed), a registration already there for this URL is adopted
 * rather than doubled, and one deleted at the Data API is registered anew.
 */
let sim: RunningSimulator;
useSimulator({}, (s) => {
  sim = s;
});

const URL_ = 'http://127.0.0.1:9/webhooks/data-api';
const a = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;

function registrar(bus: MemoryActivityBus, store: MemoryWebhookStore, now: () => number) {
  return new WebhookRegistrar({
    chains: ['43114'],
    url: URL_,
    api: createWebhookApi(
      createHttpClient({ ...configuredHttpLimits(), name: 'data-api', baseUrl: sim.dataApiUrl }),
    ),
    store,
    bus,
    heads: new MemoryHeadBus(),
    owner: 'me',
    maxAddresses: 100,
    syncMs: 1_000,
    now,
    log: () => {},
  });
}
const hooksAt = () => [...sim.webhooks.hooks.values()].filter((h) => h.url === URL_);

describe('webhook registration', () => {
  it('keeps the addresses in step with the followed ones, adopts its own registration, and re-registers a deleted one', async () => {
    let now = 1_000;
    const bus = new MemoryActivityBus();
    const store = new MemoryWebhookStore();
    const r = registrar(bus, store, () => now);
    await r.syncAll();
    expect(hooksAt()).toEqual([]); // nothing followed: nothing registered
    await bus.follow('43114', [a(1), a(2)], 10_000);
    await bus.follow('43114', ['icm:ab'], 10_000);
    await r.syncAll();
    expect(hooksAt()).toHaveLength(1);
    expect([...hooksAt()[0]!.addresses].sort()).toEqual([a(1), a(2)]);
    // a(1) and a(2) lapse; a(3) is followed now.
    await bus.follow('43114', [a(3)], 50_000);
    now = 20_000;
    await r.syncAll();
    expect([...hooksAt()[0]!.addresses]).toEqual([a(3)]);
    // A replica with a fresh store finds the webhook at the Data API and adopts it.
    const fresh = new MemoryWebhookStore();
    await registrar(bus, fresh, () => now).syncAll();
    expect(hooksAt()).toHaveLength(1);
    expect((await fresh.ids()).get('43114')).toBe(hooksAt()[0]!.id);
    // Deleted at the Data API: the next change fails with 404, the one after registers it anew.
    sim.webhooks.hooks.delete(hooksAt()[0]!.id);
    await bus.follow('43114', [a(4)], 50_000);
    await r.syncAll();
    expect((await store.ids()).get('43114')).toBeUndefined();
    await r.syncAll();
    expect(hooksAt()).toHaveLength(1);
    expect([...hooksAt()[0]!.addresses].sort()).toEqual([a(3), a(4)]);
  });
});
