import { randomUUID } from 'node:crypto';
import type { EvmBlock, EvmChainData, EvmTx, TokenTransfer } from '../world/index.js';

/** What the simulated Data API's `address_activity` deliveries carry (WebhookAddressActivityResponse). */
export interface HookView {
  id: string;
  addresses: ReadonlySet<string>;
}

/** The deliveries a block owes one webhook: one per transaction touching its addresses. */
export function* payloads(
  chain: EvmChainData,
  block: EvmBlock,
  hook: HookView,
): Generator<[EvmTx, Record<string, unknown>]> {
  const has = (a: string) => hook.addresses.has(a.toLowerCase());
  // Log indexes count the block's logs, as the world numbers them and the simulated node serves them.
  const txs = chain.blockTxs(block);
  for (const tx of txs) {
    const all = [...tx.erc20, ...tx.erc721, ...tx.erc1155];
    if (!has(tx.from) && !has(tx.to) && !all.some((t) => has(t.from) || has(t.to))) continue;
    const transfer = (t: TokenTransfer) => {
      const c = chain.contract(t.token);
      const decimals = c?.decimals ?? 0;
      const key =
        t.kind === 'erc20' ? 'erc20Token' : t.kind === 'erc721' ? 'erc721Token' : 'erc1155Token';
      return {
        transactionHash: tx.hash,
        type: t.kind.toUpperCase(),
        from: t.from,
        to: t.to,
        value: t.value.toString(),
        ...(t.tokenId !== undefined ? { tokenId: t.tokenId } : {}),
        blockTimestamp: block.timestamp,
        logIndex: t.logIndex,
        [key]: {
          address: t.token,
          name: c?.name ?? '',
          symbol: c?.symbol ?? '',
          decimals,
          valueWithDecimals: withDecimals(t.value, decimals),
        },
      };
    };
    const transaction = {
      blockHash: block.hash,
      blockNumber: String(block.number),
      from: tx.from,
      gas: String(tx.gasLimit),
      gasPrice: tx.gasPrice.toString(),
      maxFeePerGas: (tx.maxFeePerGas ?? tx.gasPrice).toString(),
      maxPriorityFeePerGas: (tx.maxPriorityFeePerGas ?? 0n).toString(),
      txHash: tx.hash,
      txStatus: String(tx.status),
      input: tx.input,
      nonce: String(tx.nonce),
      to: tx.to,
      transactionIndex: tx.blockIndex,
      value: tx.value.toString(),
      type: tx.txType,
      chainId: String(chain.info.chainId),
      receiptCumulativeGasUsed: String(tx.gasUsed),
      receiptGasUsed: String(tx.gasUsed),
      receiptEffectiveGasPrice: tx.gasPrice.toString(),
      receiptRoot: block.receiptsRoot,
      blockTimestamp: block.timestamp,
      erc20Transfers: tx.erc20.map(transfer),
      erc721Transfers: tx.erc721.map(transfer),
      erc1155Transfers: tx.erc1155.map(transfer),
    };
    yield [
      tx,
      {
        webhookId: hook.id,
        eventType: 'address_activity',
        messageId: randomUUID(),
        event: { transaction, logs: [] },
      },
    ];
  }
}

function withDecimals(v: bigint, decimals: number): string {
  if (decimals === 0) return v.toString();
  const s = v.toString().padStart(decimals + 1, '0');
  return `${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
}
