import { createHash } from 'node:crypto';
import type { EvmBlock, EvmChainData, EvmTx } from '../world/index.js';
import { blockBloom } from './evm-logs.js';

/**
 * The C-Chain's JSON shapes (coreth internal/ethapi RPCMarshalBlock / RPCTransaction): quantities
 * as 0x-hex without leading zeros, blocks as Go maps (keys sorted), transactions in struct order.
 */

export const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;
const ZERO_HASH = `0x${'0'.repeat(64)}`;
const EMPTY_UNCLE_HASH = '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347';
/** keccak256(rlp("")): the ext-data hash of a block without atomic txs. */
const EMPTY_EXT_DATA_HASH = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const EMPTY_BLOOM = `0x${'0'.repeat(512)}`;
/** The real mainnet C-Chain genesis block: what `earliest` (block 0) returns. */
const MAINNET_GENESIS_HASH = '0x31ced5b9beb7f8782b014660da0cb18cc409f121f408186886e1ca3e8eeca96b';

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('|')).digest('hex');

function sorted(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]),
  );
}

export function formatTx(tx: EvmTx, chainId: bigint): Record<string, unknown> {
  const yParity = parseInt(digest('v', tx.hash).slice(0, 2), 16) & 1;
  const out: Record<string, unknown> = {
    blockHash: tx.blockHash,
    blockNumber: hex(tx.blockNumber),
    from: tx.from,
    gas: hex(tx.gasLimit),
    gasPrice: hex(tx.gasPrice),
  };
  if (tx.txType === 2) {
    out.maxFeePerGas = hex(tx.maxFeePerGas ?? tx.gasPrice);
    out.maxPriorityFeePerGas = hex(tx.maxPriorityFeePerGas ?? 0n);
  }
  Object.assign(out, {
    hash: tx.hash,
    input: tx.input,
    nonce: hex(tx.nonce),
    to: tx.createdContract ? null : tx.to,
    transactionIndex: hex(tx.blockIndex),
    value: hex(tx.value),
    type: hex(tx.txType),
  });
  if (tx.txType === 2) {
    out.accessList = [];
    out.chainId = hex(chainId);
  } else out.chainId = hex(chainId);
  out.v = hex(tx.txType === 2 ? BigInt(yParity) : chainId * 2n + 35n + BigInt(yParity));
  out.r = `0x${digest('r', tx.hash).replace(/^0+/, '')}`;
  out.s = `0x${digest('s', tx.hash).slice(1).replace(/^0+/, '')}`;
  if (tx.txType === 2) out.yParity = hex(yParity);
  return out;
}

/** The JSON of a world block; `fullTx` embeds transaction objects instead of their hashes. */
export function formatBlock(
  chain: EvmChainData,
  block: EvmBlock,
  fullTx: boolean,
): Record<string, unknown> {
  const chainId = BigInt(chain.info.chainId);
  const txs = chain.blockTxs(block);
  return sorted({
    baseFeePerGas: hex(block.baseFee),
    blobGasUsed: '0x0',
    blockExtraData: '0x',
    blockGasCost: hex(block.gasCost),
    difficulty: '0x1',
    excessBlobGas: '0x0',
    extDataGasUsed: '0x0',
    extDataHash: EMPTY_EXT_DATA_HASH,
    extraData: `0x${digest('extra', block.hash).slice(0, 48)}`,
    gasLimit: hex(block.gasLimit),
    gasUsed: hex(block.gasUsed),
    hash: block.hash,
    logsBloom: blockBloom(chain, block),
    miner: block.miner,
    minDelayExcess: hex(4_000_000),
    mixHash: ZERO_HASH,
    nonce: '0x0000000000000000',
    number: hex(block.number),
    parentBeaconBlockRoot: ZERO_HASH,
    parentHash: block.parentHash,
    receiptsRoot: block.receiptsRoot,
    sha3Uncles: EMPTY_UNCLE_HASH,
    size: hex(block.size),
    stateRoot: block.stateRoot,
    timestamp: hex(block.timestamp),
    timestampMilliseconds: hex(block.timestampMs),
    totalDifficulty: hex(block.number),
    transactions: txs.map((t) => (fullTx ? formatTx(t, chainId) : t.hash)),
    transactionsRoot: block.transactionsRoot,
    uncles: [],
  });
}

/** Block 0 of the mainnet C-Chain (pre-Apricot genesis: no base fee, no Avalanche header fields). */
export function genesisBlock(): Record<string, unknown> {
  return sorted({
    difficulty: '0x0',
    extDataHash: ZERO_HASH,
    extraData: '0x00',
    gasLimit: '0x5f5e100',
    gasUsed: '0x0',
    hash: MAINNET_GENESIS_HASH,
    logsBloom: EMPTY_BLOOM,
    miner: '0x0000000000000000000000000000000000000000',
    mixHash: ZERO_HASH,
    nonce: '0x0000000000000000',
    number: '0x0',
    parentHash: ZERO_HASH,
    receiptsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    sha3Uncles: EMPTY_UNCLE_HASH,
    size: '0x1f6',
    stateRoot: '0x9a32dec4a3b1d1ae9d2dbcf3c1a0f2f1d7b5d8b1c9e2a7f4e3c6b5a4d3e2f1a0',
    timestamp: '0x0',
    totalDifficulty: '0x0',
    transactions: [],
    transactionsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
    uncles: [],
    blockExtraData: '0x',
  });
}

export const GENESIS_HASH = MAINNET_GENESIS_HASH;
