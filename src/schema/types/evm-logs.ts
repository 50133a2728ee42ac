import type { GatewayContext } from '../../context.js';
import { badInput, gqlError } from '../../errors.js';
import type { BlockPin } from '../../upstream/evm-state.js';
import type { EvmFeeHistory, EvmLog } from '../../upstream/schemas/evm-state.js';
import { builder } from '../builder.js';
import { type ConnectionArgs, resolveTokenConnection } from '../connection.js';
import { parseHash } from '../evm-inputs.js';
import { exposed } from '../expose.js';
import { parseBlockNumber, parseEvmAddress } from '../inputs.js';
import { loadEach } from '../node-load.js';
import { renamedArg } from '../renamed-args.js';

/**
 * Event logs (eth_getLogs) as a Relay connection over block ranges: one upstream "page" is the logs
 * of LOG_RANGE_BLOCKS consecutive blocks, its page token the first block of the next range. Every
 * range ends at or below the pinned block, so each page is final (cached as immutable).
 */
export const LOG_RANGE_BLOCKS = 2048;
/**
 * Most blocks one logs query may span: two ranges, so a request reaches the end of any span even
 * when it holds no log (a connection that stopped on empty ranges would have no cursor to go on
 * from).
 */
export const LOG_MAX_SPAN = 2 * LOG_RANGE_BLOCKS;
const MAX_ADDRESSES = 20;

/**
 * A log and its chain. Global id `EvmLog:<chainId>:<block hash>:<log index>` (refetched from its
 * block).
 */
export interface EvmLogShape extends EvmLog {
  chainId: string;
}

const LOG_ID = /^([1-9]\d{0,19}):(0x[0-9a-f]{64}):(0|[1-9]\d{0,9})$/;

export const EvmLogRef = builder.loadableNodeRef<EvmLogShape, string>('EvmLog', {
  id: { resolve: (l) => `${l.chainId}:${l.blockHash}:${l.logIndex}` },
  load: (ids: string[], ctx) =>
    loadEach(ids, async (id): Promise<EvmLogShape | Error> => {
      const m = LOG_ID.exec(id);
      if (!m) return badInput('id', 'Malformed EvmLog id');
      const [, chainId, blockHash, logIndex] = m as unknown as [string, string, string, string];
      const logs = await (await ctx.loaders.evmState.endpoint(chainId)).read((c) =>
        c.blockLogs(blockHash),
      );
      const log = logs.find((l) => l.logIndex === logIndex);
      return log
        ? { ...log, chainId }
        : gqlError('NOT_FOUND', `Block ${blockHash} has no log ${logIndex}`);
    }),
});

EvmLogRef.implement({
  description: 'An event log emitted by a contract (eth_getLogs).',
  fields: (t) => ({
    ...exposed(t, {
      chainId: ['String', 'The EVM chain id, decimal.'],
      address: ['String', 'The emitting contract, lower-case hex.'],
      topics: [
        '[String]',
        'Indexed topics; the first is the event signature’s hash (non-anonymous events).',
      ],
      data: ['String', 'Non-indexed event data, 0x-hex.'],
      blockNumber: ['BigDecimal', 'Block number, decimal.'],
      blockHash: ['String', 'Block hash.'],
      transactionHash: ['String', 'Hash of the emitting transaction.'],
    }),
    transactionIndex: t.int({
      description: 'Index of the transaction in its block.',
      resolve: (l) => Number(l.transactionIndex),
    }),
    logIndex: t.int({
      description: 'Index of the log in its block.',
      resolve: (l) => Number(l.logIndex),
    }),
  }),
});

const EvmBlockRewardsRef = builder.objectRef<string[]>('EvmBlockRewards').implement({
  description: 'One block’s priority fees at the requested percentiles.',
  fields: (t) => ({
    percentiles: t.field({
      type: ['BigDecimal'],
      description: 'Priority fee per requested percentile, wei.',
      resolve: (r) => r,
    }),
  }),
});

/** One topic position of a log filter: any of these hashes; empty or absent for any topic. */
export const EvmTopicInput = builder.inputType('EvmTopicFilter', {
  description:
    'One topic position of a log filter: any of these 32-byte hashes (empty or absent: any topic).',
  fields: (t) => ({
    anyOf: t.stringList({
      required: false,
      description: 'Alternatives, 0x followed by 64 hex digits.',
    }),
  }),
});

export const EvmFeeHistoryRef = builder.objectRef<EvmFeeHistory>('EvmFeeHistory').implement({
  description: 'Base fees, gas use and priority-fee percentiles of recent blocks (eth_feeHistory).',
  fields: (t) => ({
    oldestBlock: t.expose('oldestBlock', {
      type: 'BigDecimal',
      description: 'The first block of the window, decimal.',
    }),
    baseFeePerGas: t.field({
      type: ['BigDecimal'],
      description: 'Base fee per block, wei, plus the next block’s.',
      resolve: (f) => f.baseFeePerGas,
    }),
    gasUsedRatio: t.floatList({
      description: 'Gas used / gas limit per block.',
      resolve: (f) => f.gasUsedRatio,
    }),
    reward: t.field({
      type: [EvmBlockRewardsRef],
      description:
        'Per block, the priority fee at each requested percentile, wei (empty without ' +
        'percentiles).',
      resolve: (f) => f.reward ?? [],
    }),
  }),
});

export interface LogsArgs extends ConnectionArgs {
  startBlock?: string | null;
  endBlock?: string | null;
  /** Deprecated names of startBlock and endBlock. */
  fromBlock?: string | null;
  toBlock?: string | null;
  addresses?: string[] | null;
  topics?: { anyOf?: string[] | null }[] | null;
}

/** `startBlock` defaults to the pinned block; `endBlock` to it too, and may not pass it. */
export async function resolveLogs(
  state: { chainId: string; pin: BlockPin },
  args: LogsArgs,
  ctx: GatewayContext,
) {
  const pinned = Number(state.pin.number);
  const start = renamedArg(args, 'startBlock', 'fromBlock');
  const end = renamedArg(args, 'endBlock', 'toBlock');
  const from = start.value === undefined ? pinned : parseBlockNumber(start.value, start.argument);
  const to = end.value === undefined ? pinned : parseBlockNumber(end.value, end.argument);
  if (to > pinned)
    throw badInput(end.argument, `${end.argument} may not pass the pinned block ${pinned}`);
  if (from > to)
    throw badInput(start.argument, `${start.argument} must be at most ${end.argument}`);
  if (to - from + 1 > LOG_MAX_SPAN)
    throw badInput(
      start.argument,
      `a logs query spans at most ${LOG_MAX_SPAN} blocks: split the range`,
    );
  const addresses = (args.addresses ?? []).map((a) => parseEvmAddress(a, 'addresses'));
  if (addresses.length > MAX_ADDRESSES)
    throw badInput('addresses', `at most ${MAX_ADDRESSES} addresses`);
  const topics = (args.topics ?? []).map((p) =>
    p.anyOf == null || p.anyOf.length === 0 ? null : p.anyOf.map((h) => parseHash(h, 'topics')),
  );
  if (topics.length > 4) throw badInput('topics', 'at most 4 topic positions');
  const filter = {
    address: addresses.length ? addresses : undefined,
    topics: topics.length ? topics : undefined,
  };
  const e = await ctx.loaders.evmState.endpoint(state.chainId);
  const range = { from, to, window: LOG_RANGE_BLOCKS };
  return resolveTokenConnection<EvmLogShape>(args, ctx.connections, {
    pages: e
      .pages((c, pageToken) => c.logsPage(filter, range, pageToken))
      .mapItems((l) => ({ ...l, chainId: state.chainId })),
    pageSize: LOG_RANGE_BLOCKS,
    itemKey: (l) => `${l.blockHash}:${l.logIndex}`,
  });
}
