import type { EvmBlock, EvmChainData, EvmTx, TokenTransfer } from '../world/index.js';
import { keccak256 } from '../world/keccak.js';

/**
 * The logs of the simulated C-Chain's blocks, one source for every view of them: `eth_getLogs`, the
 * websocket's `logs` subscription, the receipts (`eth_getTransactionReceipt`, `eth_getBlockReceipts`)
 * and the headers' `logsBloom`, so they agree with each other. Each world transfer is the log its
 * token emits: ERC-20 `Transfer(from, to, value)` (value in data), ERC-721 `Transfer(from, to, tokenId)`
 * (all indexed), ERC-1155 `TransferSingle(operator, from, to, id, value)` (operator: the sender).
 * A log's index counts the logs of its block, in transaction order, then the transfers' own order.
 */

export const TOPICS = {
  /** keccak256("Transfer(address,address,uint256)"): ERC-20 and ERC-721. */
  transfer: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
  /** keccak256("TransferSingle(address,address,address,uint256,uint256)"): ERC-1155. */
  transferSingle: '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62',
} as const;

export interface SimLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  transactionIndex: string;
  blockHash: string;
  logIndex: string;
  removed: false;
}

const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;
const word = (n: bigint | string) => BigInt(n).toString(16).padStart(64, '0');
const pad32 = (address: string) => `0x${address.toLowerCase().slice(2).padStart(64, '0')}`;

/** One transfer's log fields (without its place in the block). */
function logOf(tx: EvmTx, t: TokenTransfer): Pick<SimLog, 'address' | 'topics' | 'data'> {
  const address = t.token.toLowerCase();
  if (t.kind === 'erc20')
    return {
      address,
      topics: [TOPICS.transfer, pad32(t.from), pad32(t.to)],
      data: `0x${word(t.value)}`,
    };
  if (t.kind === 'erc721')
    return {
      address,
      topics: [TOPICS.transfer, pad32(t.from), pad32(t.to), `0x${word(t.tokenId ?? '0')}`],
      data: '0x',
    };
  return {
    address,
    topics: [TOPICS.transferSingle, pad32(tx.from), pad32(t.from), pad32(t.to)],
    data: `0x${word(t.tokenId ?? '0')}${word(t.value)}`,
  };
}

const byBlock = new WeakMap<EvmBlock, SimLog[][]>();

/** The logs of each of the block's transactions (in block order), with block-wide log indexes. */
export function blockLogs(chain: EvmChainData, block: EvmBlock): SimLog[][] {
  const known = byBlock.get(block);
  if (known) return known;
  let index = 0;
  const out = chain.blockTxs(block).map((tx) =>
    [...tx.erc20, ...tx.erc721, ...tx.erc1155]
      .sort((a, b) => a.logIndex - b.logIndex)
      .map(
        (t): SimLog => ({
          ...logOf(tx, t),
          blockNumber: hex(block.number),
          transactionHash: tx.hash,
          transactionIndex: hex(tx.blockIndex),
          blockHash: block.hash,
          logIndex: hex(index++),
          removed: false,
        }),
      ),
  );
  byBlock.set(block, out);
  return out;
}

/**
 * The Yellow Paper's log bloom (M3:2048): for each log, its address and each topic are hashed with
 * Keccak-256; the low 11 bits of each of the hash's first three 16-bit big-endian words set one bit of
 * the 2048 (bit i is bit i % 8 of byte 255 - ⌊i / 8⌋).
 */
export function logsBloom(logs: readonly { address: string; topics: readonly string[] }[]): string {
  const bloom = new Uint8Array(256);
  for (const log of logs)
    for (const item of [log.address, ...log.topics]) {
      const h = keccak256(Buffer.from(item.slice(2), 'hex'));
      for (let i = 0; i < 6; i += 2) {
        const bit = ((h[i]! << 8) | h[i + 1]!) & 2047;
        bloom[255 - (bit >> 3)]! |= 1 << (bit & 7);
      }
    }
  return `0x${Buffer.from(bloom).toString('hex')}`;
}

const blooms = new WeakMap<EvmBlock, string>();

/** The block header's `logsBloom`: the bloom of every log of the block. */
export function blockBloom(chain: EvmChainData, block: EvmBlock): string {
  let b = blooms.get(block);
  if (b === undefined) {
    b = logsBloom(blockLogs(chain, block).flat());
    blooms.set(block, b);
  }
  return b;
}

/** A transaction's receipt as coreth marshals it (internal/ethapi MarshalReceipt). */
export function formatReceipt(chain: EvmChainData, block: EvmBlock, tx: EvmTx): object {
  const txs = chain.blockTxs(block);
  const logs = blockLogs(chain, block)[tx.blockIndex] ?? [];
  let cumulative = 0;
  for (const t of txs) {
    cumulative += t.gasUsed;
    if (t.hash === tx.hash) break;
  }
  return {
    blockHash: block.hash,
    blockNumber: hex(block.number),
    contractAddress: tx.createdContract ? tx.to : null,
    cumulativeGasUsed: hex(cumulative),
    effectiveGasPrice: hex(tx.gasPrice),
    from: tx.from,
    gasUsed: hex(tx.gasUsed),
    logs,
    logsBloom: logsBloom(logs),
    status: hex(tx.status),
    to: tx.createdContract ? null : tx.to,
    transactionHash: tx.hash,
    transactionIndex: hex(tx.blockIndex),
    type: hex(tx.txType),
  };
}
