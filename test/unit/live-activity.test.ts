import { logsBloom } from '@avalanche-gateway/simulator/node-rpc/evm-logs.js';
import { describe, expect, it } from 'vitest';
import {
  type ActivityBlock,
  type ActivityEvent,
  activityOfBlock,
  eventFor,
  MAX_BATCH_ITEMS,
  MAX_EVENT_TRANSFERS,
  type NodeLog,
  TOPIC,
  transfersOfLog,
} from '../../src/live/activity.js';
import { MemoryActivityBus } from '../../src/live/activity-bus-memory.js';
import { ActivityFeed, ResumeTooOldError } from '../../src/live/activity-feed.js';
import {
  ActivitySource,
  bloomCandidates,
  loggingCandidates,
  logsReader,
} from '../../src/live/activity-source.js';
import { LogsBloom, topicOfAddress } from '../../src/live/bloom.js';
import { SlowConsumerError } from '../../src/live/feed.js';

const A = `0x${'a'.repeat(40)}`;
const B = `0x${'b'.repeat(40)}`;
const OP = `0x${'c'.repeat(40)}`;
const TOKEN = `0x${'d'.repeat(40)}`;
const topic = (a: string) => `0x${'0'.repeat(24)}${a.slice(2)}`;
const word = (n: bigint) => n.toString(16).padStart(64, '0');
const log = (topics: string[], data: string, tx = '0x01', logIndex = 0): NodeLog => ({
  address: TOKEN,
  topics,
  data,
  blockNumber: '0x10',
  transactionHash: tx,
  transactionIndex: '0x0',
  logIndex: `0x${logIndex.toString(16)}`,
});

describe('transfersOfLog', () => {
  it('tells ERC-20 (three topics, amount in data) from ERC-721 (token id indexed)', () => {
    expect(transfersOfLog(log([TOPIC.transfer, topic(A), topic(B)], `0x${word(5000n)}`))).toEqual([
      { kind: 'ERC20', from: A, to: B, value: '5000', token: TOKEN, tokenId: null, logIndex: 0 },
    ]);
    expect(
      transfersOfLog(log([TOPIC.transfer, topic(A), topic(B), `0x${word(7n)}`], '0x')),
    ).toEqual([
      { kind: 'ERC721', from: A, to: B, value: '1', token: TOKEN, tokenId: '7', logIndex: 0 },
    ]);
  });

  it('reads ERC-1155 single and batch transfers (from and to are the 2nd and 3rd topics)', () => {
    const single = log(
      [TOPIC.transferSingle, topic(OP), topic(A), topic(B)],
      `0x${word(3n)}${word(11n)}`,
    );
    expect(transfersOfLog(single)).toEqual([
      { kind: 'ERC1155', from: A, to: B, value: '11', token: TOKEN, tokenId: '3', logIndex: 0 },
    ]);
    const batch = log(
      [TOPIC.transferBatch, topic(OP), topic(A), topic(B)],
      `0x${word(64n)}${word(160n)}${word(2n)}${word(1n)}${word(2n)}${word(2n)}${word(10n)}${word(20n)}`,
    );
    expect(transfersOfLog(batch).map((t) => [t.tokenId, t.value])).toEqual([
      ['1', '10'],
      ['2', '20'],
    ]);
  });

  it('yields nothing for malformed or foreign logs, and bounds a batch', () => {
    expect(transfersOfLog(log([TOPIC.transfer, topic(A)], `0x${word(1n)}`))).toEqual([]);
    expect(transfersOfLog(log([TOPIC.transfer, topic(A), topic(B)], '0x12'))).toEqual([]);
    expect(transfersOfLog(log([`0x${'e'.repeat(64)}`, topic(A), topic(B)], '0x'))).toEqual([]);
    // Lengths that disagree, or offsets past the data: not a batch.
    const bad = `0x${word(64n)}${word(128n)}${word(2n)}${word(1n)}${word(3n)}`;
    expect(transfersOfLog(log([TOPIC.transferBatch, topic(OP), topic(A), topic(B)], bad))).toEqual(
      [],
    );
    const n = MAX_BATCH_ITEMS + 10;
    const ids = Array.from({ length: n }, (_, i) => word(BigInt(i))).join('');
    const big = `0x${word(64n)}${word(BigInt(64 + 32 * (n + 1)))}${word(BigInt(n))}${ids}${word(BigInt(n))}${ids}`;
    expect(
      transfersOfLog(log([TOPIC.transferBatch, topic(OP), topic(A), topic(B)], big)),
    ).toHaveLength(MAX_BATCH_ITEMS);
  });
});

describe('activityOfBlock and eventFor', () => {
  const block = {
    number: '0x10',
    hash: `0x${'f'.repeat(64)}`,
    timestamp: '0x5',
    transactions: [
      { hash: '0x02', from: B, to: TOKEN, value: '0x0', transactionIndex: '0x1' },
      { hash: '0x01', from: A, to: B, value: '0x64', transactionIndex: '0x0' },
      { hash: '0x03', from: OP, to: OP, value: '0x1', transactionIndex: '0x2' },
    ],
  };
  const logs = [log([TOPIC.transfer, topic(B), topic(A)], `0x${word(9n)}`, '0x02', 3)];

  it('one event per touching transaction, in transaction order; others left out', () => {
    const events = activityOfBlock('1', block, logs, new Set([A]));
    expect(events.map((e) => [e.txHash, e.transfers.map((t) => t.kind)])).toEqual([
      ['0x01', ['NATIVE']],
      ['0x02', ['ERC20']],
    ]);
    expect(events[0]).toMatchObject({ blockNumber: '16', blockTimestamp: 5, value: '100' });
  });

  it("a subscriber sees only its own addresses' transfers of its kinds", () => {
    const [native, erc20] = activityOfBlock('1', block, logs, new Set([A, B])) as [
      ActivityEvent,
      ActivityEvent,
    ];
    expect(eventFor(erc20, new Set([A]), new Set(['NATIVE']))).toBeUndefined();
    // B sent the ERC-20 transaction itself: it is B's NATIVE activity (no value) and its ERC20 one.
    expect(eventFor(erc20, new Set([B]), new Set(['NATIVE']))?.transfers).toEqual([]);
    expect(eventFor(native, new Set([B]), new Set(['ERC20']))).toBeUndefined();
  });

  it('an event carries at most MAX_EVENT_TRANSFERS transfers and says how many it left out', () => {
    const many = Array.from({ length: MAX_EVENT_TRANSFERS + 5 }, (_, i) =>
      log([TOPIC.transfer, topic(B), topic(A)], `0x${word(1n)}`, '0x02', i),
    );
    const [, e] = activityOfBlock('1', block, many, new Set([A]));
    expect(e!.transfers).toHaveLength(MAX_EVENT_TRANSFERS);
    expect(e!.transfersOmitted).toBe(5);
  });
});

describe('the logs bloom and the reader it gates', () => {
  // coreth's own receipt test vector (internal/ethapi/testdata/eth_getTransactionReceipt-with-logs.json):
  // one Transfer log and the logsBloom coreth computed for it.
  const coreth = {
    address: '0x0000000000000000000000000000000000031ec7',
    topics: [
      TOPIC.transfer,
      '0x000000000000000000000000703c4b2bd70c169f5717101caee543299fc946c7',
      '0x0000000000000000000000000000000000000000000000000000000000000003',
    ],
  };
  const corethBloom =
    '0x00000000000000000000008000000000000000000000000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000800000000000000008000000000000000000000000000000000020000000080000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000800000000000000000400000000002000000000000800000000000000000000000000000000000000000000000000000000000000000000000000000000020000000000000000000000000';

  it("builds (the simulator) and reads (the gateway) the same bloom as coreth's receipt", () => {
    expect(corethBloom).toHaveLength(514);
    expect(logsBloom([coreth])).toBe(corethBloom);
    const bloom = LogsBloom.of(corethBloom)!;
    for (const item of [coreth.address, ...coreth.topics]) expect(bloom.has(item)).toBe(true);
    expect(bloom.has(topicOfAddress(A))).toBe(false);
  });

  it('asks for logs only when a transfer topic and a followed address as a topic may be in the block', () => {
    const bloom = logsBloom([log([TOPIC.transfer, topic(A), topic(B)], `0x${word(1n)}`)]);
    expect(bloomCandidates(bloom, [A, OP], [])).toEqual({ addresses: [A], messages: [] });
    // The address is there, but only as a log's emitter (not an indexed topic): no transfer of it.
    const emitted = logsBloom([{ address: OP, topics: [TOPIC.transfer] }]);
    expect(bloomCandidates(emitted, [OP], [])).toEqual({ addresses: [], messages: [] });
    // A followed address indexed by another event (no transfer topic in the block): nothing to read.
    const other = logsBloom([{ address: TOKEN, topics: [`0x${'e'.repeat(64)}`, topic(A)] }]);
    expect(bloomCandidates(other, [A], [])).toEqual({ addresses: [], messages: [] });
    const empty = `0x${'0'.repeat(512)}`;
    expect(bloomCandidates(empty, [A, B], ['ab'.repeat(32)])).toEqual({
      addresses: [],
      messages: [],
    });
    // An unreadable bloom rules nothing out.
    expect(bloomCandidates('0x12', [A], ['ab'.repeat(32)])).toEqual({
      addresses: [A],
      messages: ['ab'.repeat(32)],
    });
  });

  it('picks the cheapest exact read of a block’s logs at the published prices', () => {
    expect(logsReader(1, true)).toEqual({ method: 'eth_getTransactionReceipt', cu: 10 });
    expect(logsReader(2, true)).toEqual({ method: 'eth_getBlockReceipts', cu: 20 });
    expect(logsReader(300, true)).toEqual({ method: 'eth_getBlockReceipts', cu: 20 });
    expect(logsReader(19, false)).toEqual({ method: 'eth_getTransactionReceipt', cu: 190 });
    expect(logsReader(20, false)).toEqual({ method: 'eth_getLogs', cu: 200 });
    expect(logsReader(300, false)).toEqual({ method: 'eth_getLogs', cu: 200 });
  });

  it('counts a transaction as able to log only when its gas reaches past the intrinsic 21,000', () => {
    const block = {
      number: '0x1',
      hash: '0x01',
      timestamp: '0x1',
      transactions: [
        { hash: '0xa', gas: '0x5208' },
        { hash: '0xb', gas: '0x5209' },
        { hash: '0xc' },
        { hash: '0xd', gas: 'nope' },
      ],
    };
    expect(loggingCandidates(block)).toEqual(['0xb', '0xc', '0xd']);
  });
});

describe('ActivitySource against a scripted node', () => {
  const C = `0x${'c0'.repeat(20)}`;
  const hash = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;
  /** Block 16: tx 0 a plain transfer A → C (21,000 gas), then `calls` token calls, the first moving B → A. */
  function scripted(calls: number, blockReceipts: boolean, followed: string[]) {
    const transfer = log([TOPIC.transfer, topic(B), topic(A)], `0x${word(9n)}`, hash(1), 0);
    const other = log([TOPIC.transfer, topic(C), topic(OP)], `0x${word(1n)}`, hash(2), 1);
    const logs = calls > 1 ? [transfer, other] : [transfer];
    const txs = [
      { hash: hash(0), from: A, to: C, value: '0x5', gas: '0x5208', transactionIndex: '0x0' },
      ...Array.from({ length: calls }, (_, i) => ({
        hash: hash(i + 1),
        from: B,
        to: TOKEN,
        value: '0x0',
        gas: '0x30000',
        transactionIndex: `0x${(i + 1).toString(16)}`,
      })),
    ];
    const blockHash = hash(0xb10c);
    const block = {
      number: '0x10',
      hash: blockHash,
      timestamp: '0x5',
      logsBloom: logsBloom(logs),
      transactions: txs,
    };
    const receipt = (tx: { hash: string }) => ({
      blockHash,
      transactionHash: tx.hash,
      logs: logs.filter((l) => l.transactionHash === tx.hash),
    });
    const calls_: string[] = [];
    const socket = {
      closed: new Promise<void>(() => {}),
      close() {},
      async request(method: string, params: unknown[] = []) {
        calls_.push(method);
        if (method === 'eth_getBlockByNumber') return block;
        if (method === 'eth_getBlockReceipts') {
          if (!blockReceipts) throw new Error('node: Method eth_getBlockReceipts is not supported');
          return txs.map(receipt);
        }
        if (method === 'eth_getTransactionReceipt')
          return receipt(txs.find((t) => t.hash === params[0])!);
        if (method === 'eth_getLogs') {
          expect(params[0]).toMatchObject({ blockHash });
          return logs;
        }
        throw new Error(`unexpected ${method}`);
      },
    };
    const bus = new MemoryActivityBus(16);
    void bus.follow('1', followed, Date.now() + 60_000);
    const source = new ActivitySource({
      chainId: '1',
      bus,
      now: Date.now,
      maxBackfill: 16,
      maxFollowed: 100,
      log: () => {},
    });
    return { source, socket, bus, calls: calls_ };
  }

  it('reads the logs the cheapest way the node allows, and delivers the same events each way', async () => {
    const cases: [number, boolean, string[]][] = [
      [1, true, ['eth_getBlockByNumber', 'eth_getTransactionReceipt']],
      [3, true, ['eth_getBlockByNumber', 'eth_getBlockReceipts']],
      [
        3,
        false,
        [
          'eth_getBlockByNumber',
          'eth_getBlockReceipts',
          ...Array(3).fill('eth_getTransactionReceipt'),
        ],
      ],
      [25, false, ['eth_getBlockByNumber', 'eth_getBlockReceipts', 'eth_getLogs']],
    ];
    for (const [n, blockReceipts, want] of cases) {
      const { source, socket, bus, calls } = scripted(n, blockReceipts, [A]);
      await source.upTo(16n, socket);
      expect(calls).toEqual(want);
      const [published] = (await bus.since('1', 15n)).blocks;
      expect(published!.events.map((e) => [e.txHash, e.transfers.map((t) => t.kind)])).toEqual([
        [hash(0), ['NATIVE']],
        [hash(1), ['ERC20']],
      ]);
    }
  });

  it('reads no logs when the bloom rules the followed addresses out, and a block handed over is not read again', async () => {
    const { source, socket, bus, calls } = scripted(3, true, [
      `0x${'e'.repeat(40)}`,
      `0x${'f'.repeat(40)}`,
    ]);
    await source.upTo(16n, socket);
    expect(calls).toEqual(['eth_getBlockByNumber']);
    expect((await bus.since('1', 15n)).blocks[0]!.events).toEqual([]);
    const again = scripted(3, true, [A]);
    const block = await again.socket.request('eth_getBlockByNumber');
    again.calls.length = 0;
    await again.source.upTo(16n, again.socket, new Map([['16', block]]));
    expect(again.calls).toEqual(['eth_getBlockReceipts']);
  });

  it('a false positive costs a read and delivers nothing', async () => {
    // An address the block does not hold, admitted (as an unreadable bloom admits every address).
    const { source, socket, bus, calls } = scripted(3, true, [`0x${'9'.repeat(40)}`]);
    const block = (await socket.request('eth_getBlockByNumber')) as { logsBloom: string };
    block.logsBloom = 'not a bloom';
    calls.length = 0;
    await source.upTo(16n, socket);
    expect(calls).toEqual(['eth_getBlockByNumber', 'eth_getBlockReceipts']);
    expect((await bus.since('1', 15n)).blocks[0]!.events).toEqual([]);
  });
});

describe('ActivityFeed', () => {
  const ev = (n: number, from = A): ActivityEvent => ({
    chainId: '1',
    blockNumber: String(n),
    blockHash: '0x',
    blockTimestamp: n,
    txHash: `0x${n}`,
    txIndex: 0,
    from,
    to: B,
    value: '1',
    transfers: [],
  });
  const blk = (n: number, events = [ev(n)]): ActivityBlock => ({
    chainId: '1',
    number: String(n),
    head: String(n),
    events,
  });
  const all = new Set(['NATIVE', 'ERC20', 'ERC721', 'ERC1155'] as const);
  // One turn of the event loop: the in-memory bus and the feed use no timers (promise chains only).
  const tick = () => new Promise((r) => setImmediate(r));

  it('resumes after a block from the log, then goes on live, each block once', async () => {
    const bus = new MemoryActivityBus(8);
    const feed = new ActivityFeed({ bus });
    for (let n = 1; n <= 5; n++) await bus.publish(blk(n));
    await tick();
    const it = await feed.subscribe('1', new Set([A]), all, 2n);
    await bus.publish(blk(6));
    await bus.publish(blk(6));
    const got: string[] = [];
    for (let i = 0; i < 4; i++) got.push((await it.next()).value!.blockNumber);
    expect(got).toEqual(['3', '4', '5', '6']);
    await it.return!();
    expect(feed.subscriberCount()).toBe(0);
  });

  it('refuses a resumption older than the log with the oldest block it holds', async () => {
    const bus = new MemoryActivityBus(16);
    const feed = new ActivityFeed({ bus });
    for (let n = 1; n <= 20; n++) await bus.publish(blk(n));
    const err = await feed.subscribe('1', new Set([A]), all, 2n).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResumeTooOldError);
    expect((err as ResumeTooOldError).oldest).toBe('5');
    // From just before the oldest: nothing is missing.
    await expect(feed.subscribe('1', new Set([A]), all, 4n)).resolves.toBeDefined();
    expect(feed.subscriberCount()).toBe(1);
  });

  it('fills a missed pub/sub message from the log before the block that revealed it', async () => {
    class Lossy extends MemoryActivityBus {
      readonly drop = new Set(['2']);
      override onBlock(l: (b: ActivityBlock) => void): void {
        super.onBlock((b) => {
          if (!this.drop.has(b.number)) l(b);
        });
      }
    }
    const bus = new Lossy(8);
    const feed = new ActivityFeed({ bus });
    const it = await feed.subscribe('1', new Set([A]), all);
    for (let n = 1; n <= 3; n++) await bus.publish(blk(n));
    const got: string[] = [];
    for (let i = 0; i < 3; i++) got.push((await it.next()).value!.blockNumber);
    expect(got).toEqual(['1', '2', '3']);
  });

  it('drops a subscriber that leaves queueMax events unread (SlowConsumerError)', async () => {
    const bus = new MemoryActivityBus(64);
    const feed = new ActivityFeed({ bus, queueMax: 3 });
    const it = await feed.subscribe('1', new Set([A]), all);
    for (let n = 1; n <= 5; n++) await bus.publish(blk(n));
    await tick();
    await expect(it.next()).rejects.toBeInstanceOf(SlowConsumerError);
    expect(feed.subscriberCount()).toBe(0);
  });

  it("keeps the union of its subscribers' addresses followed, and lets an interest lapse", async () => {
    let now = 1_000;
    const bus = new MemoryActivityBus();
    const feed = new ActivityFeed({ bus, now: () => now, followMs: 100 });
    const it = await feed.subscribe('1', new Set([A, B]), all);
    expect((await bus.followed('1', now, 10)).sort()).toEqual([A, B]);
    await it.return!();
    now += 101;
    expect(await bus.followed('1', now, 10)).toEqual([]);
  });
});
