import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { estimateCost } from '../../src/edge/cost.js';
import { MemoryHeadBus } from '../../src/live/bus.js';
import { chainOfPath } from '../../src/live/cache-hooks.js';
import { LiveFeed, SlowConsumerError } from '../../src/live/feed.js';
import { type Head, headOf } from '../../src/live/head.js';
import { buildSchema } from '../../src/schema/index.js';

const head = (n: number, chainId = '43114'): Head => ({
  chainId,
  number: String(n),
  hash: `0x${n.toString(16).padStart(64, '0')}`,
  parentHash: '',
  timestamp: n,
  gasUsed: '0',
  gasLimit: '0',
  baseFee: '0',
  txCount: 0,
  seenAt: 0,
});
// One turn of the event loop: the in-memory bus and the feeds use no timers, so whatever they do in
// answer (promise chains only) has run by then.
const tick = () => new Promise((r) => setImmediate(r));

describe('live heads', () => {
  it('names the chain of a Data API path, and nothing else', () => {
    expect(chainOfPath('/v1/chains/43114/blocks')).toBe('43114');
    expect(chainOfPath('/v1/chains/43114/addresses/0xab/transactions')).toBe('43114');
    expect(chainOfPath('/v1/icmMessages/0xab')).toBeUndefined();
    expect(chainOfPath('/v1/chains/abc/blocks')).toBeUndefined();
  });

  it('reads a node block as a head; refuses one without a hash', () => {
    const h = headOf(
      '43114',
      {
        number: '0x10',
        hash: `0x${'A'.repeat(64)}`,
        parentHash: '0x1',
        timestamp: '0x5',
        baseFeePerGas: '0x2',
        gasUsed: '0x3',
        gasLimit: '0x4',
        transactions: ['0x1', '0x2'],
      },
      7,
    );
    expect(h).toMatchObject({
      number: '16',
      hash: `0x${'a'.repeat(64)}`,
      timestamp: 5,
      baseFee: '2',
      txCount: 2,
      seenAt: 7,
    });
    expect(headOf('43114', { number: '0x10' }, 0)).toBeUndefined();
  });

  it('never reads a quantity the header lacks as 0: the head is refused; a missing base fee is null', () => {
    const full = {
      number: '0x10',
      hash: `0x${'a'.repeat(64)}`,
      timestamp: '0x5',
      baseFeePerGas: '0x2',
      gasUsed: '0x3',
      gasLimit: '0x4',
    };
    for (const field of ['number', 'timestamp', 'gasUsed', 'gasLimit'] as const) {
      expect(headOf('43114', { ...full, [field]: undefined }, 0), field).toBeUndefined();
      expect(headOf('43114', { ...full, [field]: '0xzz' }, 0), field).toBeUndefined();
    }
    expect(headOf('43114', { ...full, baseFeePerGas: 'junk' }, 0)).toBeUndefined();
    expect(headOf('43114', { ...full, baseFeePerGas: undefined }, 0)?.baseFee).toBeNull();
  });

  it('publishes a head number once, whoever publishes it (two holders for a moment never repeat one)', async () => {
    const bus = new MemoryHeadBus();
    expect(await bus.publish(head(1))).toBe(true);
    expect(await bus.publish(head(1))).toBe(false);
    expect(await bus.publish(head(3))).toBe(true);
    expect(await bus.publish(head(2))).toBe(false);
    expect((await bus.since('43114', 0n)).map((h) => h.number)).toEqual(['1', '3']);
  });

  it('delivers in order and once, and ends a subscriber that lets more than queueMax heads pile up', async () => {
    const bus = new MemoryHeadBus();
    const feed = new LiveFeed({ chains: [], bus, queueMax: 3 });
    const reader = feed.subscribe('43114');
    const slow = feed.subscribe('43114');
    for (const n of [1, 2, 2, 3]) await bus.publish(head(n));
    await tick();
    const got = [];
    for (let i = 0; i < 3; i++) got.push((await reader.next()).value!.number);
    expect(got).toEqual(['1', '2', '3']);
    await bus.publish(head(4));
    await tick();
    expect((await reader.next()).value!.number).toBe('4');
    // `slow` never read: 4 unread heads > 3.
    await expect(slow.next()).rejects.toBeInstanceOf(SlowConsumerError);
    expect(feed.subscriberCount()).toBe(1);
    await reader.return!();
    expect(feed.subscriberCount()).toBe(0);
  });

  it('prices a subscription per event: its item (a block, 10 CU), plus its selection', () => {
    const schema = buildSchema();
    const cost = (q: string) => estimateCost(schema, parse(q), undefined, {}).cu;
    expect(cost('subscription { newBlocks(chainId: "43114") { number } }')).toBe(10);
    expect(
      cost(
        'subscription { newBlocks(chainId: "43114") { transactions(first: 5) { edges { node { hash } } } } }',
      ),
    ).toBe(10 + 20);
  });
});

/** A bus whose published heads reach no listener: the pub/sub message a replica missed. */
class MissedMessagesBus extends MemoryHeadBus {
  lastReads = 0;
  override onHead(): void {}
  override async last(chainId: string): Promise<Head | undefined> {
    this.lastReads++;
    return super.last(chainId);
  }
}

describe('a head published before the replica was subscribed', () => {
  it("is read from the bus on the holder's next beat; a replica behind catches up, in order, once per live window", async () => {
    let now = 1_000_000;
    const bus = new MissedMessagesBus();
    const feed = new LiveFeed({ chains: [], bus, now: () => now, liveWindowMs: 3_500 });
    await feed.start();
    await bus.publish(head(100)); // after start's read, before the subscription: never heard
    expect(feed.head('43114')).toBeUndefined();
    await bus.beat('43114');
    await tick();
    expect(feed.head('43114')?.number).toBe('100');
    expect(feed.headTag('43114')).toBe('h100');

    const it = feed.subscribe('43114');
    await bus.publish(head(101));
    await bus.publish(head(102));
    const reads = bus.lastReads;
    now += 1_000;
    await bus.beat('43114'); // within the live window: no read
    await tick();
    expect(bus.lastReads).toBe(reads);
    expect(feed.head('43114')?.number).toBe('100');
    now += 3_000;
    await bus.beat('43114');
    await tick();
    expect(bus.lastReads).toBe(reads + 1);
    expect(feed.head('43114')?.number).toBe('102');
    expect((await it.next()).value?.number).toBe('101');
    expect((await it.next()).value?.number).toBe('102');
    await it.return?.();
  });
});
