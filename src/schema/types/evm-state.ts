import type { GatewayContext } from '../../context.js';
import type { BlockPin } from '../../upstream/evm-state.js';
import type { EvmFeeHistory } from '../../upstream/schemas/evm-state.js';
import { argTable, CHAIN_ID_ARG } from '../arg-table.js';
import { builder } from '../builder.js';
import { evmChainIdOf } from '../chain-id.js';
import { pageDocs } from '../connection.js';
import { parseBlockTag } from '../evm-inputs.js';
import { parseChainId } from '../inputs.js';
import { renamedArg, useInstead } from '../renamed-args.js';
import { AddressRef, byEvmAddress } from './address.js';
import { BlockRef } from './block.js';
import { EvmAccountStateRef } from './evm-account.js';
import { feeWindowOf, selectedFeeWindows, windowKey } from './evm-fee-windows.js';
import { EvmFeeHistoryRef, EvmLogRef, EvmTopicInput, resolveLogs } from './evm-logs.js';

/**
 * EVM state at one block, read from the chain's EVM node (the C-Chain endpoint `/ext/bc/C/rpc`, an
 * L1's `/ext/bc/<blockchain id>/rpc`, or any EVM node in NODE_RPC_URL): geth's EIP-1767
 * `Block`/`Account` reads. A block pins the state: `latest` is resolved to a number first, so one
 * query reads one state.
 */
export interface EvmStateShape {
  chainId: string;
  pin: BlockPin;
  /** Fee histories (or their error) read in the answer that pinned `latest`, by window: that head's forecast. */
  headFees?: ReadonlyMap<string, EvmFeeHistory | Error>;
}

const header = async (s: EvmStateShape, ctx: GatewayContext) =>
  (await ctx.loaders.evmState.endpoint(s.chainId)).header(s.pin);

async function pinOf(
  chainId: string,
  block: string,
  argument: string,
  ctx: GatewayContext,
): Promise<BlockPin> {
  const tag = parseBlockTag(block, argument);
  return (await ctx.loaders.evmState.endpoint(chainId)).pin(tag);
}

export const EvmStateRef = builder.objectRef<EvmStateShape>('EvmState').implement({
  description: 'The state of an EVM chain at one block, read from the chain’s EVM node.',
  fields: (t) => ({
    chainId: t.exposeString('chainId', { description: 'The EVM chain id, decimal.' }),
    blockNumber: t.field({
      type: 'BigDecimal',
      description: 'The pinned block, decimal.',
      resolve: (s) => s.pin.number,
    }),
    blockHash: t.string({
      nullable: true,
      description: 'The pinned block’s hash.',
      resolve: async (s, _a, ctx) => s.pin.hash ?? (await header(s, ctx)).hash,
    }),
    stateRoot: t.string({
      nullable: true,
      description: 'The pinned block’s state root (what proofs verify against).',
      resolve: async (s, _a, ctx) => (await header(s, ctx)).stateRoot,
    }),
    timestamp: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'The pinned block’s timestamp, Unix seconds.',
      resolve: async (s, _a, ctx) => (await header(s, ctx)).timestamp,
    }),
    account: byEvmAddress(t, {
      type: EvmAccountStateRef,
      description: 'One account’s state at this block (no call by itself).',
      resolve: (s, address) => ({ chainId: s.chainId, address, pin: s.pin }),
    }),
    logs: t.connection(
      {
        type: EvmLogRef,
        nullable: true,
        description:
          'Event logs from startBlock to endBlock (both default to the pinned block, which endBlock' +
          ' may not pass; at most 4096 blocks), oldest first; each upstream page covers up to ' +
          '2048 blocks.',
        args: {
          startBlock: t.arg.string({
            required: false,
            description: 'First block, decimal (inclusive).',
          }),
          endBlock: t.arg.string({
            required: false,
            description: 'Last block, decimal (inclusive).',
          }),
          fromBlock: t.arg.string({
            required: false,
            description: 'First block, decimal (inclusive).',
            deprecationReason: useInstead('startBlock'),
          }),
          toBlock: t.arg.string({
            required: false,
            description: 'Last block, decimal (inclusive).',
            deprecationReason: useInstead('endBlock'),
          }),
          addresses: t.arg.stringList({
            required: false,
            description: 'Emitting contracts (any of them; at most 20).',
          }),
          topics: t.arg({
            type: [EvmTopicInput],
            required: false,
            description:
              'Topic filter by position: each position a list of alternatives, empty for any (at' +
              ' most 4).',
          }),
        },
        resolve: (s, args, ctx) => resolveLogs(s, args, ctx),
      },
      ...pageDocs('event logs', 'An event log'),
    ),
    feeHistory: t.field({
      type: EvmFeeHistoryRef,
      nullable: true,
      description: 'eth_feeHistory over the blockCount blocks ending at the pinned block.',
      args: {
        blockCount: t.arg.int({
          required: false,
          defaultValue: 10,
          description: 'Blocks in the window (1-1024).',
        }),
        rewardPercentiles: t.arg.floatList({
          required: false,
          description: 'Increasing percentiles (0-100) of priority fees.',
        }),
      },
      resolve: async (s, args, ctx) => {
        const w = feeWindowOf(args);
        const pinned = s.headFees?.get(windowKey(w));
        if (pinned instanceof Error) throw pinned;
        if (pinned) return pinned;
        return (await ctx.loaders.evmState.endpoint(s.chainId)).read((c) =>
          c.feeHistory(w.blockCount, s.pin, w.percentiles),
        );
      },
    }),
  }),
});

builder.queryField('evmState', (t) =>
  t.field({
    type: EvmStateRef,
    nullable: true,
    description:
      'An EVM chain’s state at a block, read from a configured node (C-Chain, an L1’s EVM, or ' +
      'any EVM node).',
    args: {
      ...argTable(t.arg, { chainId: CHAIN_ID_ARG }),
      block: t.arg.string({
        required: false,
        defaultValue: 'latest',
        description: '"latest", a decimal block number or a block hash.',
      }),
    },
    resolve: async (_root, args, ctx, info) => {
      const chainId = await evmChainIdOf(parseChainId(args.chainId), ctx);
      const block = parseBlockTag(args.block ?? 'latest', 'block');
      const windows = block === 'latest' ? selectedFeeWindows(info) : [];
      if (windows.length === 0) return { chainId, pin: await pinOf(chainId, block, 'block', ctx) };
      // `latest` pinned by the answer that carries the fee histories: their forecast is this head's.
      const endpoint = await ctx.loaders.evmState.endpoint(chainId);
      try {
        const head = await endpoint.read((c) => c.headFees(windows));
        const headFees = new Map(windows.map((w, i) => [windowKey(w), head.histories[i]!]));
        return { chainId, pin: { number: head.number, head: true }, headFees };
      } catch (e) {
        // The histories' error is theirs: the rest of the state is read at the head alone.
        const failed = new Map(windows.map((w) => [windowKey(w), e as Error]));
        return { chainId, pin: await endpoint.pin('latest'), headFees: failed };
      }
    },
  }),
);

builder.objectFields(AddressRef, (t) => ({
  state: t.field({
    type: EvmAccountStateRef,
    nullable: true,
    description:
      'This address’s EVM state (balance, nonce, code, storage, calls, proofs) at a block, from ' +
      'the chain’s EVM node.',
    args: {
      block: t.arg.string({
        required: false,
        description: '"latest" (the default), a decimal block number or a block hash.',
      }),
      atBlock: t.arg.string({
        required: false,
        description: '"latest" (the default), a decimal block number or a block hash.',
        deprecationReason: useInstead('block'),
      }),
    },
    resolve: async (a, args, ctx) => {
      const block = renamedArg(args, 'block', 'atBlock');
      return {
        chainId: a.chainId,
        address: a.address,
        pin: await pinOf(a.chainId, block.value ?? 'latest', block.argument, ctx),
      };
    },
  }),
}));

builder.objectFields(BlockRef, (t) => ({
  state: t.field({
    type: EvmStateRef,
    description:
      'The chain’s EVM state at this block (pinned by its hash), from the chain’s EVM node.',
    resolve: (b) => ({
      chainId: b.chainId,
      pin: { number: b.blockNumber, hash: b.blockHash.toLowerCase() },
    }),
  }),
}));
