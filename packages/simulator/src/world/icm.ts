import { TELEPORTER_ADDRESS, UNINDEXED_L1 } from './constants.js';
import type { Rng } from './prng.js';
import type { EvmChainInfo, EvmTx } from './types.js';
import type { IcmMessage } from './types-primary.js';

/**
 * ICM (Teleporter) messages. Sends are recorded while a source chain's blocks are generated, so
 * every message with a `sourceTransaction` points at a tx that exists in the world; deliveries from
 * a chain the world does not index are `delivered_source_not_indexed`, their destination tx exists.
 */
export class IcmRegistry {
  readonly messages: IcmMessage[] = [];
  readonly byId = new Map<string, IcmMessage>();
  /** Lower-case address → its messages ascending by (timestamp, seq). */
  private readonly byAddr = new Map<string, IcmMessage[]>();
  private readonly nonces = new Map<string, number>();

  forAddress(address: string): IcmMessage[] {
    return this.byAddr.get(address.toLowerCase()) ?? [];
  }

  recordSend(
    rng: Rng,
    o: {
      tx: EvmTx;
      source: EvmChainInfo;
      peer: { chainId: string; blockchainId: string };
      to: string;
      feeToken: string;
      fee: bigint;
    },
  ): string {
    const delivered = rng.chance(0.75);
    const relayer = `0x${rng.hex(20)}`;
    const nonce = this.nextNonce(o.source.chainId);
    return this.add(rng, {
      icmContractAddress: TELEPORTER_ADDRESS,
      sourceBlockchainId: o.source.blockchainId,
      destinationBlockchainId: o.peer.blockchainId,
      sourceEvmChainId: o.source.chainId,
      destinationEvmChainId: o.peer.chainId,
      messageNonce: String(nonce),
      from: o.tx.from,
      to: o.to,
      status: delivered ? 'delivered' : 'pending',
      receipts:
        delivered && rng.chance(0.5)
          ? [{ receivedMessageNonce: String(nonce), relayerRewardAddress: relayer }]
          : [],
      receiptDelivered: delivered && rng.chance(0.4),
      reward: { token: o.feeToken, value: o.fee },
      sourceTransaction: {
        chainId: o.source.chainId,
        txHash: o.tx.hash,
        timestamp: o.tx.timestamp,
        gasSpent: BigInt(o.tx.gasUsed) * o.tx.gasPrice,
      },
      destinationTransaction: delivered
        ? {
            txHash: `0x${rng.hex(32)}`,
            timestamp: o.tx.timestamp + rng.int(2, 30),
            gasSpent: BigInt(rng.int(150_000, 400_000)) * 2_000_000_000n,
            rewardRedeemer: relayer,
            delivererAddress: relayer,
          }
        : undefined,
      timestamp: o.tx.timestamp,
      network: o.source.network,
    });
  }

  recordUnindexedDelivery(
    rng: Rng,
    o: { tx: EvmTx; destination: EvmChainInfo; to: string },
  ): string {
    const nonce = this.nextNonce(UNINDEXED_L1.chainId);
    return this.add(rng, {
      icmContractAddress: TELEPORTER_ADDRESS,
      sourceBlockchainId: UNINDEXED_L1.blockchainId,
      destinationBlockchainId: o.destination.blockchainId,
      sourceEvmChainId: UNINDEXED_L1.chainId,
      destinationEvmChainId: o.destination.chainId,
      messageNonce: String(nonce),
      from: `0x${rng.hex(20)}`,
      to: o.to,
      status: 'delivered_source_not_indexed',
      receipts: [],
      receiptDelivered: false,
      reward: { token: '0x0000000000000000000000000000000000000000', value: 0n },
      destinationTransaction: {
        txHash: o.tx.hash,
        timestamp: o.tx.timestamp,
        gasSpent: BigInt(o.tx.gasUsed) * o.tx.gasPrice,
        rewardRedeemer: o.tx.from,
        delivererAddress: o.tx.from,
      },
      timestamp: o.tx.timestamp,
      network: o.destination.network,
    });
  }

  private nextNonce(chainId: string): number {
    const n = (this.nonces.get(chainId) ?? 0) + 1;
    this.nonces.set(chainId, n);
    return n;
  }

  private add(rng: Rng, m: Omit<IcmMessage, 'seq' | 'messageId' | 'data'>): string {
    const msg: IcmMessage = {
      ...m,
      seq: this.messages.length,
      messageId: rng.hex(32),
      data: `0x${rng.hex(rng.int(32, 160))}`,
    };
    this.messages.push(msg);
    this.byId.set(msg.messageId, msg);
    for (const a of new Set([msg.from.toLowerCase(), msg.to.toLowerCase()])) {
      const list = this.byAddr.get(a) ?? [];
      // Keep ascending by (timestamp, seq); new messages are almost always the newest.
      let i = list.length;
      while (i > 0 && list[i - 1]!.timestamp > msg.timestamp) i--;
      list.splice(i, 0, msg);
      this.byAddr.set(a, list);
    }
    return msg.messageId;
  }
}
