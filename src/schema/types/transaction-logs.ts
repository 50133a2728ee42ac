import { builder } from '../builder.js';
import { EvmLogRef, type EvmLogShape } from './evm-logs.js';
import { TransactionRef } from './transaction.js';

/**
 * A transaction's event logs, from its chain's EVM node: the logs of its block (`eth_getLogs` by
 * block hash, EIP-234, the read `EvmLog`'s refetch makes too) that it emitted, in log order. One read
 * per block, final (cached as immutable), so the transactions of one block share it. `logIndex` is
 * the log's index in its block, as everywhere in this schema (docs/schema-conventions.md).
 */
builder.objectFields(TransactionRef, (t) => ({
  logs: t.field({
    type: [EvmLogRef],
    nullable: true,
    description:
      'The event logs this transaction emitted, in order, from its chain’s EVM node (the logs ' +
      'of its block, `eth_getLogs` by block hash). Null when no configured node serves the chain.',
    resolve: async (tx, _args, ctx): Promise<EvmLogShape[]> => {
      const hash = tx.txHash.toLowerCase();
      const logs = await (await ctx.loaders.evmState.endpoint(tx.chainId)).read((c) =>
        c.blockLogs(tx.blockHash.toLowerCase()),
      );
      return logs
        .filter((l) => l.transactionHash.toLowerCase() === hash)
        .map((l) => ({ ...l, chainId: tx.chainId }));
    },
  }),
}));
