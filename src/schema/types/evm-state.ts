import type { GatewayContext } from '../../context.js';
import { badInput } from '../../errors.js';
import type { BlockPin } from '../../upstream/evm-state.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { evmChainIdOf } from '../chain-id.js';
import { pageDocs } from '../connection.js';
import { parseBlockTag } from '../evm-inputs.js';
import { parseChainId, parseEvmAddress } from '../inputs.js';
import { AddressRef } from './address.js';
import { BlockRef } from './block.js';
import { EvmAccountStateRef } from './evm-account.js';
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
    account: t.field({
      type: EvmAccountStateRef,
      description: 'One account’s state at this block (no call by itself).',
      args: argTable(t.arg, {
        address: ['String!', 'EVM address: 0x followed by 40 hex digits, any case.'],
      }),
      resolve: (s, args) => ({
        chainId: s.chainId,
        address: parseEvmAddress(args.address),
        pin: s.pin,
      }),
    }),
    logs: t.connection(
      {
        type: EvmLogRef,
        nullable: true,
        description:
          'Event logs from fromBlock to toBlock (both default to the pinned block, which toBlock' +
          ' may not pass; at most 4096 blocks), oldest first; each upstream page covers up to ' +
          '2048 blocks.',
        args: {
          fromBlock: t.arg.string({
            required: false,
            description: 'First block, decimal (inclusive).',
          }),
          toBlock: t.arg.string({
            required: false,
            description: 'Last block, decimal (inclusive).',
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
        const n = args.blockCount ?? 10;
        if (!Number.isInteger(n) || n < 1 || n > 1024)
          throw badInput('blockCount', 'blockCount must be 1-1024');
        const pct = args.rewardPercentiles ?? [];
        if (
          pct.length > 100 ||
          pct.some((p, i) => !(p >= 0 && p <= 100) || (i > 0 && p < pct[i - 1]!))
        ) {
          throw badInput(
            'rewardPercentiles',
            'rewardPercentiles must be at most 100 increasing numbers from 0 to 100',
          );
        }
        return (await ctx.loaders.evmState.endpoint(s.chainId)).read((c) =>
          c.feeHistory(n, s.pin, pct),
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
      chainId: t.arg.string({
        required: true,
        description: 'EVM chain id (e.g. "43114") or blockchain id.',
      }),
      block: t.arg.string({
        required: false,
        defaultValue: 'latest',
        description: '"latest", a decimal block number or a block hash.',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const chainId = await evmChainIdOf(parseChainId(args.chainId), ctx);
      return { chainId, pin: await pinOf(chainId, args.block ?? 'latest', 'block', ctx) };
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
      atBlock: t.arg.string({
        required: false,
        defaultValue: 'latest',
        description: '"latest", a decimal block number or a block hash.',
      }),
    },
    resolve: async (a, args, ctx) => ({
      chainId: a.chainId,
      address: a.address,
      pin: await pinOf(a.chainId, args.atBlock ?? 'latest', 'atBlock', ctx),
    }),
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
