import { describe, expect, it } from 'vitest';
import { bloomBits, topicOfAddress } from '../../src/live/bloom.js';
import { MemoryHeadBus } from '../../src/live/bus.js';
import { LiveFeed } from '../../src/live/feed.js';
import {
  type BlockTouch,
  createdAddress,
  type Head,
  headOf,
  TOUCH_MAX_ADDRESSES,
  touchOf,
} from '../../src/live/head.js';
import { AddressTouches } from '../../src/live/touches.js';
import { testHead } from '../support/heads.js';

const A = `0x${'a1'.repeat(20)}`;
const B = `0x${'b2'.repeat(20)}`;
const TOKEN = `0x${'c3'.repeat(20)}`;
const EMPTY_BLOOM = `0x${'0'.repeat(512)}`;

/** A bloom holding `items` (addresses and 32-byte topics), set bit by bit as a node sets it. */
function bloomOf(items: readonly string[]): string {
  const bytes = new Uint8Array(256);
  for (const item of items)
    for (const bit of bloomBits(item)) bytes[255 - (bit >> 3)]! |= 1 << (bit & 7);
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

const head = (n: number, touch?: BlockTouch): Head =>
  testHead(n, touch === undefined ? {} : { touch });
const quiet = (n: number) => head(n, { addresses: [], bloom: EMPTY_BLOOM });
const run = (from: number, to: number, at: Record<number, BlockTouch | undefined> = {}) =>
  Array.from({ length: to - from + 1 }, (_, i) => {
    const n = from + i;
    return n in at ? head(n, at[n]) : quiet(n);
  });

describe('touchOf: what a block read with its transactions shows', () => {
  const tx = (from: string, to: string | null, nonce = '0x0') => ({
    from,
    to,
    nonce,
    hash: '0x01',
  });
  it('names the lower-case parties and keeps the bloom', () => {
    const t = touchOf({
      transactions: [tx(A.toUpperCase().replace('0X', '0x'), B), tx(B, A)],
      logsBloom: EMPTY_BLOOM,
    });
    expect(t).toEqual({ addresses: [A, B].sort(), bloom: EMPTY_BLOOM });
  });
  it('names the contract a creation deploys (its own lists begin with it)', () => {
    // Known pairs (as viem's getContractAddress gives them), nonces past one byte's RLP shortcut too.
    const SENDER = '0x6ac7ea33f8831ea9dcc53393aaa88b25a785dbf0';
    expect(createdAddress(SENDER, 0n)).toBe('0xcd234a471b72ba2f1ccf0a70fcaba648a5eecd8d');
    expect(createdAddress(SENDER, 1n)).toBe('0x343c43a37d37dff08ae8c4a11544c718abb4fcf8');
    expect(createdAddress(SENDER, 2n)).toBe('0xf778b86fa74e846c4f0a1fbd1335fe81c00a0c91');
    expect(createdAddress(SENDER, 128n)).toBe('0x08e190dcb7b73f5fcdabb43e102215c83659a76d');
    expect(createdAddress(SENDER, 70000n)).toBe('0xea79a6239fef1923a52c1caa590ac2b828a961bb');
    const t = touchOf({ transactions: [tx(SENDER, null, '0x1')], logsBloom: EMPTY_BLOOM });
    expect(t).toEqual({
      addresses: [SENDER, '0x343c43a37d37dff08ae8c4a11544c718abb4fcf8'].sort(),
      bloom: EMPTY_BLOOM,
    });
    // A creation whose nonce the block does not give rules nothing out.
    expect(touchOf({ transactions: [{ from: A, to: null }], logsBloom: EMPTY_BLOOM })).toBe('all');
  });
  it('rules nothing out without a bloom, with a malformed party, or past the party cap', () => {
    expect(touchOf({ transactions: [tx(A, B)] })).toBe('all');
    expect(touchOf({ transactions: [tx('0x12', B)], logsBloom: EMPTY_BLOOM })).toBe('all');
    const many = Array.from({ length: TOUCH_MAX_ADDRESSES }, (_, i) =>
      tx(`0x${i.toString(16).padStart(40, '0')}`, `0x${(i + 5000).toString(16).padStart(40, '0')}`),
    );
    expect(touchOf({ transactions: many, logsBloom: EMPTY_BLOOM })).toBe('all');
  });
  it('knows nothing of a header alone (transactions as hashes, or none listed)', () => {
    expect(touchOf({ transactions: ['0xabc'], logsBloom: EMPTY_BLOOM })).toBeUndefined();
    expect(touchOf({ logsBloom: EMPTY_BLOOM })).toBeUndefined();
    const h = headOf(
      '43114',
      {
        number: '0x10',
        timestamp: '0x1',
        gasUsed: '0x0',
        gasLimit: '0x1',
        hash: `0x${'1'.repeat(64)}`,
        logsBloom: EMPTY_BLOOM,
      },
      0,
    );
    expect(h && 'touch' in h).toBe(false);
  });
});

describe('AddressTouches: the version of an address entry', () => {
  const t = new AddressTouches({ window: 8, lagBlocks: 2 });
  it('follows the head while the window of read blocks is incomplete, has a gap, or holds a header only', () => {
    expect(t.versionOf(run(100, 105), A)).toBe('h105');
    const gap = run(90, 110).filter((h) => h.number !== '104');
    expect(t.versionOf(gap, A)).toBe('h110');
    expect(t.versionOf(run(90, 110, { 107: undefined }), A)).toBe('h110');
    // A header-only block older than the window does not matter.
    expect(t.versionOf(run(90, 110, { 95: undefined }), A)).toMatch(/^e/);
  });
  it('an untouched address keeps one version across heads until its staggered epoch ends', () => {
    const versions = Array.from({ length: 24 }, (_, i) => t.versionOf(run(80, 100 + i), A));
    expect(versions.every((v) => v.startsWith('e'))).toBe(true);
    const changes = versions.filter((v, i) => i > 0 && v !== versions[i - 1]).length;
    // Once per window of 8 blocks: 24 heads cross it three times at most.
    expect(changes).toBeGreaterThanOrEqual(2);
    expect(changes).toBeLessThanOrEqual(3);
  });
  it('a transaction from or to the address is a touch: the version before it during the lag, then that block', () => {
    const at = { 107: { addresses: [A], bloom: EMPTY_BLOOM } };
    // Within the Data API's lag the touch does not count yet: the entry read before it is kept (not
    // read again at every head for answers the Data API has not changed), and then it is read once.
    expect(t.versionOf(run(90, 108, at), A)).toBe(t.versionOf(run(90, 106, at), A));
    expect(t.versionOf(run(90, 108, at), A)).toMatch(/^e/);
    expect(t.versionOf(run(90, 109, at), A)).toBe('t107');
    expect(t.versionOf(run(90, 114, at), A)).toBe('t107');
    expect(t.versionOf(run(90, 109, at), B)).toMatch(/^e/);
    // Out of the window, the touch no longer decides: the epoch does.
    expect(t.versionOf(run(90, 115, at), A)).toMatch(/^e/);
  });
  it("a log naming the address (emitter or indexed topic) is a touch, by the header's bloom", () => {
    const asTopic = { 105: { addresses: [B], bloom: bloomOf([TOKEN, topicOfAddress(A)]) } };
    expect(t.versionOf(run(90, 110, asTopic), A)).toBe('t105');
    expect(t.versionOf(run(90, 110, asTopic), TOKEN)).toBe('t105');
    expect(t.versionOf(run(90, 110, asTopic), `0x${'d4'.repeat(20)}`)).toMatch(/^e/);
  });
  it('a block too busy to tell touches every address', () => {
    expect(t.versionOf(run(90, 110, { 106: 'all' }), A)).toBe('t106');
  });
  it('a touch within the lag keeps the version of the touch before it', () => {
    const at = {
      103: { addresses: [A], bloom: EMPTY_BLOOM },
      106: { addresses: [A], bloom: EMPTY_BLOOM },
    };
    expect(t.versionOf(run(90, 106, at), A)).toBe('t103');
    expect(t.versionOf(run(90, 107, at), A)).toBe('t103');
    expect(t.versionOf(run(90, 108, at), A)).toBe('t106');
    // With no lag a touch counts at its own head.
    const now = new AddressTouches({ window: 8, lagBlocks: 0 });
    expect(now.versionOf(run(90, 106, at), A)).toBe('t106');
  });
  it('the newest touch decides', () => {
    const at = {
      103: { addresses: [A], bloom: EMPTY_BLOOM },
      106: { addresses: [A], bloom: EMPTY_BLOOM },
    };
    expect(t.versionOf(run(90, 110, at), A)).toBe('t106');
  });
});

describe('a replica that starts after the chain moved', () => {
  it('takes the touch window from the bus, so an untouched address keeps its entries at once', async () => {
    const bus = new MemoryHeadBus();
    for (const h of run(100, 140, { 135: { addresses: [B], bloom: EMPTY_BLOOM } }))
      await bus.publish(h);
    const feed = new LiveFeed({
      // A socket nobody answers: this replica only reads what the holder published.
      chains: [{ chainId: '43114', url: 'ws://127.0.0.1:9' }],
      bus,
      touches: new AddressTouches({ window: 8, lagBlocks: 0 }),
    });
    try {
      await feed.start();
      await bus.beat('43114');
      expect(feed.head('43114')?.number).toBe('140');
      // Not `h140` (every head) as with a window of one head: A was untouched, B touched at 135.
      expect(feed.addressTag('43114', A)).toMatch(/^e/);
      expect(feed.addressTag('43114', B)).toBe('t135');
    } finally {
      await feed.stop();
    }
  });
});
