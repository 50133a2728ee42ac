import type { GatewayContext } from '../../context.js';
import type { NativeTransaction } from '../../upstream/schemas/evm.js';
import type {
  FullNativeTransaction,
  TransactionDetail,
} from '../../upstream/schemas/evm-transfers.js';
import { argTable, CHAIN_ID_ARG } from '../arg-table.js';
import { builder } from '../builder.js';
import { evmChainIdOf } from '../chain-id.js';
import { exposed, ref } from '../expose.js';
import { parseChainId, parseTxHash } from '../inputs.js';
import { loadEachOnChain } from '../node-load.js';
import { addressFields } from './address.js';
import { BlockRef } from './block.js';
import { chainOf, NetworkTokenRef } from './chain.js';
import { MoneyRef } from './money.js';

export const TransactionMethodTypeEnum = builder.enumType('TransactionMethodType', {
  description:
    'NATIVE_TRANSFER: a plain transfer of the native token; CONTRACT_CALL: a contract interaction; CONTRACT_CREATION: a deployment.',
  values: {
    NATIVE_TRANSFER: {
      description: 'A plain transfer of the native token (no contract code run).',
    },
    CONTRACT_CALL: { description: 'A call to a contract.' },
    CONTRACT_CREATION: { description: 'A contract deployment.' },
  } as const,
});

const MethodRef = builder
  .objectRef<NonNullable<NativeTransaction['method']>>('TransactionMethod')
  .implement({
    description: 'How a transaction called: what kind of call and which contract method.',
    fields: (t) =>
      exposed(t, {
        callType: ref(
          TransactionMethodTypeEnum,
          'The kind of call: a native transfer, a contract call or a contract creation.',
        ),
        methodHash: ['String', 'The 4-byte selector, or empty for a native transfer.'],
        methodName: [
          'String?',
          'Method name with parameter types (e.g. "transfer(address,uint256)"); "Native Transfer" or "Contract Deployment" for those calls; null when the ABI is unknown.',
        ],
      }),
  });

/** The native token details of a transaction, with the transaction's identity (its current price is read apart). */
type NetworkTokenDetailsShape = TransactionDetail['networkTokenDetails'] & {
  tx: { chainId: string; txHash: string };
};

const NetworkTokenDetailsRef = builder
  .objectRef<NetworkTokenDetailsShape>('TransactionNetworkToken')
  .implement({
    description: 'The chain’s native token with its price now and at the time of the transaction.',
    fields: (t) => ({
      token: t.field({
        type: NetworkTokenRef,
        description: 'The native token.',
        resolve: (d) => d.networkToken,
      }),
      // The price now changes while the transaction does not: read through its own head-class resource.
      currentPrice: t.field({
        type: MoneyRef,
        nullable: true,
        description:
          'Its price now, in the requested currency (USD); null when the upstream has no price.',
        resolve: async (d, _a, ctx) =>
          (await ctx.loaders.evm.transactionPrice.load(d.tx)).currentPrice ?? null,
      }),
      historicalPrice: t.field({
        type: MoneyRef,
        nullable: true,
        description: 'The price at the transaction’s block time.',
        resolve: (d) => d.historicalPrice ?? null,
      }),
    }),
  });

const IcmMessageInfoRef = builder
  .objectRef<NonNullable<TransactionDetail['teleporterMessageInfo']>>('TransactionIcmMessageInfo')
  .implement({
    description: 'The interchain (ICM / Teleporter) message this transaction sent or delivered.',
    fields: (t) => ({
      messageId: t.exposeString('teleporterMessageId', {
        description: 'ICM (Teleporter) message id, 0x-hex.',
      }),
      ...exposed(t, {
        direction: [
          'String',
          'SOURCE_TRANSACTION (it sent the message) or DESTINATION_TRANSACTION (it delivered it).',
        ],
        sourceChainId: [
          'String?',
          'EVM chain id of the chain that sent the message; null when unknown.',
        ],
        destinationChainId: [
          'String?',
          'EVM chain id of the destination chain; null when unknown.',
        ],
      }),
    }),
  });

/** The get-transaction answer for a transaction (deduplicated per request, cached as immutable). */
export const detailOf = (tx: NativeTransaction, ctx: GatewayContext): Promise<TransactionDetail> =>
  ctx.loaders.evm.transaction.load({ chainId: tx.chainId, txHash: tx.txHash.toLowerCase() });

/**
 * Whether the full page of a transaction read from a list adds nothing but what no list holds (fee caps,
 * base fee, prices): a plain transfer ran no code (src/upstream/derivations.ts).
 */
export const ranNoCode = (tx: NativeTransaction, ctx: GatewayContext): boolean =>
  !('input' in tx) && ctx.loaders.evm.plainTransfer(tx);

/** A field only the get-transaction route carries: read from the item when it is the full form, else loaded. */
const fullField =
  <K extends 'input' | 'baseFeePerGas' | 'maxFeePerGas' | 'maxPriorityFeePerGas'>(key: K) =>
  async (tx: NativeTransaction, _args: object, ctx: GatewayContext): Promise<string | null> => {
    // No call data: a transaction with data costs more than 21,000 gas.
    if (key === 'input' && ranNoCode(tx, ctx)) return '0x';
    const full =
      'input' in tx ? (tx as FullNativeTransaction) : (await detailOf(tx, ctx)).nativeTransaction;
    return full[key] ?? null;
  };

/**
 * A native EVM transaction. Global id: `Transaction:<chainId>:<hash>`; refetching by id reads the
 * get-transaction route. Items of lists carry the list form; fields only the full form has load it.
 */
export const TransactionRef = builder.loadableNodeRef<NativeTransaction, string>('Transaction', {
  id: { resolve: (tx) => `${tx.chainId}:${tx.txHash.toLowerCase()}` },
  load: loadEachOnChain('Transaction', parseTxHash, (ctx, chainId, txHash) =>
    loadTransaction(ctx, { chainId, txHash }),
  ),
});

/**
 * A transaction by chain and hash, behind `transaction`, `node(id)` and `_entities`: its own fields, from a
 * list that held it as a plain transfer or else from the get-transaction route (one call either way).
 */
export async function loadTransaction(
  ctx: GatewayContext,
  key: { chainId: string; txHash: string },
): Promise<NativeTransaction> {
  return ctx.loaders.evm.transactionItem.load(key);
}

TransactionRef.implement({
  description: 'A native transaction of an EVM chain.',
  fields: (t) => ({
    hash: t.exposeString('txHash', { description: 'Transaction hash, 0x-prefixed 32-byte hex.' }),
    chainId: t.exposeString('chainId', {
      description: 'EVM chain id, a decimal string (e.g. "43114").',
    }),
    ...chainOf(t),
    ...exposed(t, {
      blockNumber: [
        'BigDecimal',
        'Number of the block that includes the transaction (decimal string).',
      ],
      blockHash: ['String', 'Hash of that block, 0x-hex.'],
      blockTimestamp: ['Timestamp+Iso', 'When that block was proposed, Unix seconds.'],
      blockTimestampMilliseconds: [
        'Float?',
        'Millisecond block timestamp, present for blocks after the Granite upgrade.',
      ],
    }),
    blockIndex: t.exposeInt('blockIndex', {
      description: 'Position of the transaction in its block.',
    }),
    status: t.exposeString('txStatus', {
      description: 'The receipt status as the indexer reports it ("1" success, "0" failure).',
    }),
    type: t.exposeInt('txType', {
      description: 'EIP-2718 type (0 legacy, 1 access list, 2 dynamic fee...).',
    }),
    ...exposed(t, {
      gasLimit: ['BigDecimal', 'Gas limit the sender set (decimal string).'],
      gasUsed: ['BigDecimal', 'Gas the transaction used (decimal string).'],
      gasPrice: ['BigDecimal', 'Effective gas price paid, in wei per gas (decimal string).'],
      nonce: ['BigDecimal', "Sender's nonce for this transaction (decimal string)."],
      value: ['BigDecimal', 'Value transferred, in wei.'],
    }),
    ...addressFields(t, {
      from: 'The sender, with the indexer’s labels.',
      to: 'The recipient (for a contract creation, the created contract), with the indexer’s labels.',
    }),
    method: t.field({
      type: MethodRef,
      nullable: true,
      description: 'The call type and contract method; null when the upstream does not decode it.',
      resolve: (tx) => tx.method ?? null,
    }),
    block: t.field({
      type: BlockRef,
      nullable: true,
      description: 'The block that includes this transaction (loaded through the block loader).',
      resolve: (tx) => `${tx.chainId}:${tx.blockNumber}`,
    }),
    input: t.string({
      nullable: true,
      description: 'The call data (hex). From the full transaction.',
      resolve: fullField('input'),
    }),
    baseFeePerGas: t.field({
      type: 'BigDecimal',
      nullable: true,
      description:
        'Base fee per gas of the including block, in wei (decimal string). From the full transaction.',
      resolve: fullField('baseFeePerGas'),
    }),
    maxFeePerGas: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'EIP-1559 fee cap (type 2). From the full transaction.',
      resolve: fullField('maxFeePerGas'),
    }),
    maxPriorityFeePerGas: t.field({
      type: 'BigDecimal',
      nullable: true,
      description: 'EIP-1559 priority fee cap (type 2). From the full transaction.',
      resolve: fullField('maxPriorityFeePerGas'),
    }),
    networkToken: t.field({
      type: NetworkTokenDetailsRef,
      nullable: true,
      description: 'The native token and its prices. From the full transaction.',
      resolve: async (tx, _args, ctx) => ({
        ...(await detailOf(tx, ctx)).networkTokenDetails,
        tx: { chainId: tx.chainId, txHash: tx.txHash.toLowerCase() },
      }),
    }),
    icmMessageInfo: t.field({
      type: IcmMessageInfoRef,
      nullable: true,
      description:
        'The interchain message this transaction sent or delivered, if any. From the full transaction.',
      // A message is sent or delivered by a contract: a transaction that ran no code carries none.
      resolve: async (tx, _args, ctx) =>
        ranNoCode(tx, ctx) ? null : ((await detailOf(tx, ctx)).teleporterMessageInfo ?? null),
    }),
  }),
});

builder.queryField('transaction', (t) =>
  t.field({
    type: TransactionRef,
    nullable: true,
    description: 'One transaction, by hash.',
    args: argTable(t.arg, {
      chainId: CHAIN_ID_ARG,
      hash: ['String!', 'Transaction hash: 0x followed by 64 hex digits.'],
    }),
    resolve: async (_root, args, ctx) => {
      const chainId = parseChainId(args.chainId);
      const hash = parseTxHash(args.hash);
      return `${await evmChainIdOf(chainId, ctx)}:${hash}`;
    },
  }),
);
