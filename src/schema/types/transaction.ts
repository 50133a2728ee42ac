import type { NativeTransaction, RichAddress } from '../../upstream/schemas/evm.js';
import { builder } from '../builder.js';
import { badInput } from '../errors.js';
import { parseChainId, parseTxHash, splitKey } from '../inputs.js';
import { isoOf } from '../scalars.js';
import { BlockRef } from './block.js';

export const RichAddressRef = builder.objectRef<RichAddress>('RichAddress').implement({
  description: 'An address as a transaction names it, with the token or contract labels the indexer knows.',
  fields: (t) => ({
    address: t.exposeString('address'),
    name: t.exposeString('name', { nullable: true }),
    symbol: t.exposeString('symbol', { nullable: true }),
    decimals: t.exposeInt('decimals', { nullable: true }),
    logoUri: t.exposeString('logoUri', { nullable: true }),
  }),
});

export const TransactionMethodTypeEnum = builder.enumType('TransactionMethodType', {
  description: 'NATIVE_TRANSFER: a plain transfer of the native token; CONTRACT_CALL: a contract interaction; CONTRACT_CREATION: a deployment.',
  values: ['NATIVE_TRANSFER', 'CONTRACT_CALL', 'CONTRACT_CREATION'] as const,
});

const MethodRef = builder.objectRef<NonNullable<NativeTransaction['method']>>('TransactionMethod').implement({
  fields: (t) => ({
    callType: t.expose('callType', { type: TransactionMethodTypeEnum }),
    methodHash: t.exposeString('methodHash', { description: 'The 4-byte selector, or empty for a native transfer.' }),
    methodName: t.exposeString('methodName', { nullable: true }),
  }),
});

/**
 * A native EVM transaction. Global id: `Transaction:<chainId>:<hash>`; refetching by id reads the
 * get-transaction route (its `nativeTransaction` part).
 */
export const TransactionRef = builder.loadableNodeRef<NativeTransaction, string>('Transaction', {
  id: { resolve: (tx) => `${tx.chainId}:${tx.txHash.toLowerCase()}` },
  load: (ids: string[], ctx) =>
    Promise.all(
      ids.map(async (id): Promise<NativeTransaction | Error> => {
        const parts = splitKey(id);
        if (!parts) return badInput('id', 'Malformed Transaction id');
        try {
          const detail = await ctx.loaders.evm.transaction.load({ chainId: parseChainId(parts[0], 'id'), txHash: parseTxHash(parts[1], 'id') });
          return detail.nativeTransaction;
        } catch (e) {
          return e as Error;
        }
      }),
    ),
});

TransactionRef.implement({
  description: 'A native transaction of an EVM chain.',
  fields: (t) => ({
    hash: t.exposeString('txHash'),
    chainId: t.exposeString('chainId'),
    blockNumber: t.expose('blockNumber', { type: 'BigDecimal' }),
    blockHash: t.exposeString('blockHash'),
    blockTimestamp: t.expose('blockTimestamp', { type: 'Timestamp' }),
    blockTimestampIso: t.string({ resolve: (tx) => isoOf(tx.blockTimestamp) }),
    blockIndex: t.exposeInt('blockIndex', { description: 'Position of the transaction in its block.' }),
    status: t.exposeString('txStatus', { description: 'The receipt status as the indexer reports it ("1" success, "0" failure).' }),
    type: t.exposeInt('txType', { description: 'EIP-2718 type (0 legacy, 1 access list, 2 dynamic fee...).' }),
    gasLimit: t.expose('gasLimit', { type: 'BigDecimal' }),
    gasUsed: t.expose('gasUsed', { type: 'BigDecimal' }),
    gasPrice: t.expose('gasPrice', { type: 'BigDecimal' }),
    nonce: t.expose('nonce', { type: 'BigDecimal' }),
    value: t.expose('value', { type: 'BigDecimal', description: 'Value transferred, in wei.' }),
    from: t.field({ type: RichAddressRef, resolve: (tx) => tx.from }),
    to: t.field({ type: RichAddressRef, resolve: (tx) => tx.to }),
    method: t.field({ type: MethodRef, nullable: true, resolve: (tx) => tx.method ?? null }),
    block: t.field({
      type: BlockRef,
      nullable: true,
      description: 'The block that includes this transaction (loaded through the block loader).',
      resolve: (tx) => `${tx.chainId}:${tx.blockNumber}`,
    }),
  }),
});

builder.queryField('transaction', (t) =>
  t.field({
    type: TransactionRef,
    nullable: true,
    description: 'One transaction, by hash.',
    args: {
      chainId: t.arg.string({ required: true, description: 'EVM chain id (e.g. "43114") or blockchain id.' }),
      hash: t.arg.string({ required: true }),
    },
    resolve: (_root, args) => `${parseChainId(args.chainId)}:${parseTxHash(args.hash)}`,
  }),
);
