import type { GatewayContext } from '../../context.js';
import { badInput, gqlError } from '../../errors.js';
import { erc20Calls, erc20Results } from '../../upstream/erc20-abi.js';
import type { BlockPin, EvmCallInput } from '../../upstream/evm-state.js';
import { argTable } from '../arg-table.js';
import { builder } from '../builder.js';
import { MAX_PROOF_KEYS, parseCallData, parseSlot, parseWei } from '../evm-inputs.js';
import { parseEvmAddress } from '../inputs.js';
import { renamedArg, useInstead } from '../renamed-args.js';
import { EvmAccountProofRef } from './evm-proof.js';

/**
 * One account's state at one block, read from the chain's EVM node. Every field is one JSON-RPC
 * call naming the pinned block; the calls a query selects go out together (one batch, ≤ 40 calls
 * each).
 */
export interface EvmAccountShape {
  chainId: string;
  address: string;
  pin: BlockPin;
}

const endpoint = (a: { chainId: string }, ctx: GatewayContext) =>
  ctx.loaders.evmState.endpoint(a.chainId);

/**
 * An answer that is not an ERC-20's (no code there, another kind of contract) is the caller's to
 * know.
 */
async function erc20Read<T>(
  a: EvmAccountShape,
  ctx: GatewayContext,
  data: string,
  decode: (d: string) => T,
  fn: string,
): Promise<T> {
  const out = await callAt(a, ctx, { data });
  try {
    return decode(out);
  } catch {
    throw gqlError(
      'BAD_USER_INPUT',
      `${a.address} did not answer ${fn} as an ERC-20 does ` +
        `(got ${out.length > 20 ? `${out.slice(0, 20)}…` : out})`,
      {
        reason: 'NOT_ERC20',
      },
    );
  }
}

/** A read-only call to this account (as `to`), at the pinned block. */
async function callAt(
  a: EvmAccountShape,
  ctx: GatewayContext,
  input: Omit<EvmCallInput, 'to'>,
): Promise<string> {
  return (await endpoint(a, ctx)).read((c) => c.call({ ...input, to: a.address }, a.pin));
}

const DATA = 'Call data, 0x-hex (a 4-byte selector and its ABI-encoded arguments).';
const FROM = 'Sender address (msg.sender); the zero address when omitted.';
const VALUE = 'Wei sent with the call, decimal.';

function parseCall(args: {
  data: string;
  from?: string | null;
  value?: string | null;
}): Omit<EvmCallInput, 'to'> {
  return {
    data: parseCallData(args.data),
    from: args.from == null ? undefined : parseEvmAddress(args.from, 'from'),
    value: args.value == null ? undefined : parseWei(args.value),
  };
}

export const Erc20ReadsRef = builder.objectRef<EvmAccountShape>('Erc20Reads').implement({
  description:
    'Typed ERC-20 reads of this contract at the pinned block (eth_call with the standard ABI).',
  fields: (t) => ({
    balanceOf: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'balanceOf(owner): the owner’s token balance in base units, decimal.',
      args: {
        owner: t.arg.string({
          required: false,
          description: 'The account whose balance is read: 0x followed by 40 hex digits. Required.',
        }),
        holder: t.arg.string({
          required: false,
          description: 'The token holder: 0x followed by 40 hex digits.',
          deprecationReason: useInstead('owner'),
        }),
      },
      resolve: (a, args, ctx) => {
        const owner = renamedArg(args, 'owner', 'holder');
        if (owner.value === undefined) throw badInput('owner', 'owner is required');
        return erc20Read(
          a,
          ctx,
          erc20Calls.balanceOf(parseEvmAddress(owner.value, owner.argument)),
          erc20Results.balanceOf,
          'balanceOf',
        );
      },
    }),
    symbol: t.string({
      nullable: true,
      description: 'symbol() (string, or the bytes32 form of old tokens).',
      resolve: (a, _args, ctx) =>
        erc20Read(a, ctx, erc20Calls.symbol(), erc20Results.symbol, 'symbol()'),
    }),
    decimals: t.int({
      nullable: true,
      description: 'decimals().',
      resolve: (a, _args, ctx) =>
        erc20Read(a, ctx, erc20Calls.decimals(), erc20Results.decimals, 'decimals()'),
    }),
  }),
});

export const EvmAccountStateRef = builder.objectRef<EvmAccountShape>('EvmAccountState').implement({
  description:
    'An account’s state at one block, read from the chain’s EVM node (eth_getBalance, ' +
    'eth_getCode, …). All reads of a query name the same block.',
  fields: (t) => ({
    address: t.exposeString('address', { description: 'The account, lower-case hex.' }),
    blockNumber: t.field({
      type: 'BigDecimal',
      description: 'The block whose state this is, decimal.',
      resolve: (a) => a.pin.number,
    }),
    balance: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'Native balance in wei, decimal (eth_getBalance).',
      resolve: async (a, _args, ctx) =>
        (await endpoint(a, ctx)).read((c) => c.balance(a.address, a.pin)),
    }),
    nonce: t.field({
      type: 'BigDecimal',
      nullable: true,
      description:
        'Nonce: transactions sent, or contracts created by a contract (eth_getTransactionCount).',
      resolve: async (a, _args, ctx) =>
        (await endpoint(a, ctx)).read((c) => c.nonce(a.address, a.pin)),
    }),
    code: t.string({
      nullable: true,
      description: 'Deployed bytecode, 0x-hex; "0x" for an account without code (eth_getCode).',
      resolve: async (a, _args, ctx) =>
        (await endpoint(a, ctx)).read((c) => c.code(a.address, a.pin)),
    }),
    storage: t.string({
      nullable: true,
      description: 'One storage slot’s 32-byte value, 0x-hex (eth_getStorageAt).',
      args: argTable(t.arg, {
        slot: ['String!', 'The slot: 0x hex (up to 32 bytes) or decimal.'],
      }),
      resolve: async (a, args, ctx) => {
        const slot = parseSlot(args.slot);
        return (await endpoint(a, ctx)).read((c) => c.storage(a.address, slot, a.pin));
      },
    }),
    call: t.string({
      nullable: true,
      description:
        'A read-only call to this contract (eth_call), ABI-free: the raw return data, 0x-hex. A ' +
        'revert is BAD_USER_INPUT with `reason: EXECUTION_REVERTED`, `revertData` and the ' +
        'decoded `revertReason`.',
      args: {
        data: t.arg.string({ required: true, description: DATA }),
        from: t.arg.string({ required: false, description: FROM }),
        value: t.arg.string({ required: false, description: VALUE }),
      },
      resolve: (a, args, ctx) => callAt(a, ctx, parseCall(args)),
    }),
    estimateGas: t.field({
      type: 'BigDecimal',
      nullable: true,
      description:
        'Gas a transaction with this call data to this account would use at the pinned block ' +
        '(eth_estimateGas).',
      args: {
        data: t.arg.string({ required: true, description: DATA }),
        from: t.arg.string({ required: false, description: FROM }),
        value: t.arg.string({ required: false, description: VALUE }),
      },
      resolve: async (a, args, ctx) => {
        const input = { ...parseCall(args), to: a.address };
        return (await endpoint(a, ctx)).read((c) => c.estimateGas(input, a.pin));
      },
    }),
    erc20: t.field({
      type: Erc20ReadsRef,
      description: 'Typed ERC-20 reads (each field one eth_call).',
      resolve: (a) => a,
    }),
    proof: t.field({
      type: EvmAccountProofRef,
      nullable: true,
      description:
        'The account and the given storage slots with their Merkle proofs (eth_getProof). A ' +
        'block outside the node’s proof window is BAD_USER_INPUT with `reason` ' +
        'PROOF_WINDOW_ARCHIVAL (historical-proof-query-window, 24 h of blocks by default) or ' +
        'PROOF_WINDOW_PRUNING (the last 32 blocks).',
      args: {
        storageKeys: t.arg.stringList({
          required: false,
          description: `Storage slots to prove (at most ${MAX_PROOF_KEYS}).`,
        }),
      },
      resolve: async (a, args, ctx) => {
        const keys = (args.storageKeys ?? []).map((k) => parseSlot(k, 'storageKeys'));
        if (keys.length > MAX_PROOF_KEYS)
          throw badInput('storageKeys', `at most ${MAX_PROOF_KEYS} storage keys`);
        return (await endpoint(a, ctx)).read((c) => c.proof(a.address, keys, a.pin));
      },
    }),
  }),
});
