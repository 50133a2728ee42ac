import type { AddressBook } from './address-book.js';
import { contractInfo, randomAddress } from './address-book.js';
import { type ChainShape, UNINDEXED_L1 } from './constants.js';
import { abi, M } from './evm-abi.js';
import type { IcmRegistry } from './icm.js';
import type { Rng } from './prng.js';
import type { ContractInfo, EvmChainInfo, EvmTx, InternalTx, TokenTransfer } from './types.js';

/** Generates the transactions of one block. Every choice comes from the block's own Rng. */

export interface TxGenContext {
  seed: string;
  book: AddressBook;
  info: EvmChainInfo;
  shape: ChainShape;
  /** Returns the sender's next nonce and increments it. */
  takeNonce(address: string): number;
  registerContract(c: ContractInfo): void;
  icm: IcmRegistry;
  /** Chains this one sends ICM messages to: [evmChainId, blockchainId]. */
  icmPeers: { chainId: string; blockchainId: string }[];
}

export interface BlockHeader {
  number: number;
  hash: string;
  timestamp: number;
  baseFee: bigint;
}

const WEI = 10n ** 18n;
function participant(rng: Rng, ctx: TxGenContext, not?: string): string {
  for (;;) {
    const a = rng.chance(ctx.shape.busyShare)
      ? rng.pick(ctx.book.busy)
      : rng.pick(ctx.book.ordinary);
    if (a !== not) return a;
  }
}

function tokenAmount(rng: Rng, decimals: number): bigint {
  return rng.bigint(5000n * 10n ** BigInt(decimals)) + 1n;
}

/** Generates `count` txs for a block; seq numbering starts at `firstSeq`. */
export function generateBlockTxs(
  rng: Rng,
  ctx: TxGenContext,
  header: BlockHeader,
  count: number,
  firstSeq: number,
): EvmTx[] {
  const txs: EvmTx[] = [];
  // A log's index counts the logs of its block, as a node numbers them (eth_getLogs, receipts) and
  // as the Data API's `logIndex` carries it: each tx's logs follow the logs of the txs before it.
  let logs = 0;
  for (let i = 0; i < count; i++) {
    const tx = generateTx(rng, ctx, header, i, firstSeq + i);
    const own = [...tx.erc20, ...tx.erc721, ...tx.erc1155];
    for (const t of own) t.logIndex += logs;
    logs += own.length;
    txs.push(tx);
  }
  return txs;
}

function generateTx(
  rng: Rng,
  ctx: TxGenContext,
  header: BlockHeader,
  index: number,
  seq: number,
): EvmTx {
  const { book } = ctx;
  const from = participant(rng, ctx);
  const hash = `0x${rng.hex(32)}`;
  const tip = BigInt(rng.int(0, 2_000_000_000));
  const legacy = rng.chance(0.15);
  const tx: EvmTx = {
    chainId: ctx.info.chainId,
    seq,
    hash,
    blockNumber: header.number,
    blockHash: header.hash,
    blockIndex: index,
    timestamp: header.timestamp,
    from,
    to: from,
    value: 0n,
    nonce: 0,
    gasLimit: 21_000,
    gasUsed: 21_000,
    gasPrice: header.baseFee + tip,
    baseFeePerGas: header.baseFee,
    txType: legacy ? 0 : 2,
    status: 1,
    input: '0x',
    method: { callType: 'NATIVE_TRANSFER', methodHash: '' },
    erc20: [],
    erc721: [],
    erc1155: [],
    internals: [],
  };
  if (!legacy) {
    tx.maxPriorityFeePerGas = tip;
    tx.maxFeePerGas = header.baseFee * 2n + tip;
  }
  let log = 0;
  const t20 = (token: ContractInfo, f: string, to: string, value: bigint): TokenTransfer => ({
    kind: 'erc20',
    token: token.address,
    from: f,
    to,
    value,
    logIndex: log++,
  });
  const call = (to: string, m: { hash: string; name: string }, input: string, gasLimit: number) => {
    tx.to = to;
    tx.method = { callType: 'CONTRACT_CALL', methodHash: m.hash, methodName: m.name };
    tx.input = `0x${input.slice(2)}`;
    tx.gasLimit = gasLimit;
    tx.gasUsed = Math.floor(gasLimit * (0.55 + rng.next() * 0.4));
  };
  const roll = rng.next();
  const canIcm = ctx.icmPeers.length > 0;
  if (roll < 0.3) {
    tx.to = participant(rng, ctx, from);
    tx.value = rng.bigint(50n * WEI) + 10n ** 15n;
  } else if (roll < 0.54) {
    const token = rng.pick(book.erc20);
    const to = participant(rng, ctx, from);
    const value = tokenAmount(rng, token.decimals ?? 18);
    call(token.address, M.transfer, abi(M.transfer.hash, to, value), 65_000);
    tx.erc20.push(t20(token, from, to, value));
  } else if (roll < 0.62) {
    const token = rng.pick(book.erc721);
    const to = participant(rng, ctx, from);
    const tokenId = BigInt(rng.int(1, 9999));
    call(token.address, M.nft, abi(M.nft.hash, from, to, tokenId), 120_000);
    tx.erc721.push({
      kind: 'erc721',
      token: token.address,
      from,
      to,
      value: 1n,
      tokenId: tokenId.toString(),
      logIndex: log++,
    });
  } else if (roll < 0.68) {
    const token = rng.pick(book.erc1155);
    const to = participant(rng, ctx, from);
    const tokenId = BigInt(rng.int(1, 20));
    const value = BigInt(rng.int(1, 50));
    call(token.address, M.multi, abi(M.multi.hash, from, to, tokenId, value, 160n, 0n), 110_000);
    tx.erc1155.push({
      kind: 'erc1155',
      token: token.address,
      from,
      to,
      value,
      tokenId: tokenId.toString(),
      logIndex: log++,
    });
  } else if (roll < 0.8) {
    const router = book.unknown[0]!;
    const pair = book.unknown[2]!;
    const wavax = book.erc20[0]!;
    const out = rng.pick(book.erc20.slice(1));
    const value = rng.bigint(20n * WEI) + 10n ** 16n;
    const amountOut = tokenAmount(rng, out.decimals ?? 18);
    call(
      router.address,
      M.swap,
      abi(M.swap.hash, amountOut, 128n, from, BigInt(header.timestamp + 600)),
      260_000,
    );
    tx.value = value;
    tx.internals.push(
      {
        from: router.address,
        to: wavax.address,
        type: 'CALL',
        value,
        isReverted: false,
        gasUsed: 23_974,
        gasLimit: 180_000,
      },
      {
        from: router.address,
        to: pair.address,
        type: 'CALL',
        value: 0n,
        isReverted: false,
        gasUsed: 61_000,
        gasLimit: 150_000,
      },
    );
    tx.erc20.push(
      t20(wavax, router.address, pair.address, value),
      t20(out, pair.address, from, amountOut),
    );
  } else if (roll < 0.86) {
    const sender = book.unknown[1]!;
    const token = rng.pick(book.erc20);
    const n = rng.int(3, 6);
    const recipients = Array.from({ length: n }, () => participant(rng, ctx, from));
    call(
      sender.address,
      M.airdrop,
      abi(M.airdrop.hash, token.address, 96n, 96n + 32n * BigInt(n + 1)),
      60_000 + 40_000 * n,
    );
    for (const r of recipients)
      tx.erc20.push(t20(token, from, r, tokenAmount(rng, token.decimals ?? 18)));
  } else if (roll < 0.88) {
    const created = randomAddress(rng);
    tx.to = created;
    tx.createdContract = created;
    tx.method = { callType: 'CONTRACT_CREATION', methodHash: '' };
    tx.input = `0x608060405234801561001057600080fd5b50${rng.hex(48)}`;
    tx.gasLimit = 1_800_000;
    tx.gasUsed = rng.int(600_000, 1_700_000);
    tx.internals.push({
      from,
      to: created,
      type: 'CREATE',
      value: 0n,
      isReverted: false,
      gasUsed: tx.gasUsed - 53_000,
      gasLimit: tx.gasLimit - 53_000,
    });
    const c = contractInfo(rng, created, 'UNKNOWN', `Contract ${created.slice(0, 8)}`);
    c.deployment = { txHash: hash, deployerAddress: from };
    ctx.registerContract(c);
  } else if (roll < 0.95 && canIcm) {
    const peer = rng.pick(ctx.icmPeers);
    const to = participant(rng, ctx);
    const feeToken = rng.pick(book.erc20.slice(0, 2));
    const fee = rng.chance(0.6) ? tokenAmount(rng, feeToken.decimals ?? 18) / 100n : 0n;
    call(
      book.teleporter.address,
      M.icmSend,
      abi(M.icmSend.hash, 32n, `0x${rng.hex(32)}`, to),
      300_000,
    );
    if (fee > 0n) tx.erc20.push(t20(feeToken, from, book.teleporter.address, fee));
    const messageId = ctx.icm.recordSend(rng, {
      tx,
      source: ctx.info,
      peer,
      to,
      feeToken: feeToken.address,
      fee,
    });
    tx.icm = {
      messageId,
      direction: 'SOURCE_TRANSACTION',
      sourceChainId: ctx.info.chainId,
      destinationChainId: peer.chainId,
    };
  } else if (roll < 0.97 && canIcm) {
    const relayer = rng.pick(book.relayers);
    tx.from = relayer;
    const to = participant(rng, ctx);
    call(book.teleporter.address, M.icmReceive, abi(M.icmReceive.hash, 0n, relayer), 500_000);
    tx.internals.push({
      from: book.teleporter.address,
      to,
      type: 'CALL',
      value: 0n,
      isReverted: false,
      gasUsed: 90_000,
      gasLimit: 400_000,
    });
    const messageId = ctx.icm.recordUnindexedDelivery(rng, { tx, destination: ctx.info, to });
    tx.icm = {
      messageId,
      direction: 'DESTINATION_TRANSACTION',
      sourceChainId: UNINDEXED_L1.chainId,
      destinationChainId: ctx.info.chainId,
    };
  } else {
    const vault = book.unknown[2]!;
    call(vault.address, { hash: '0xd0e30db0', name: 'deposit()' }, '0xd0e30db0', 90_000);
    tx.value = rng.bigint(5n * WEI) + 1n;
  }
  // Failures revert everything but the fee; ICM txs never fail (their messages exist).
  if (!tx.icm && !tx.createdContract && rng.chance(0.03)) {
    tx.status = 0;
    tx.erc20 = [];
    tx.erc721 = [];
    tx.erc1155 = [];
    tx.internals = tx.internals.map((it): InternalTx => ({ ...it, isReverted: true }));
  }
  tx.nonce = ctx.takeNonce(tx.from);
  return tx;
}
