import type { AddressBook } from './address-book.js';
import { BLACKHOLE_COINBASE, type ChainShape } from './constants.js';
import { generateBlockTxs, type TxGenContext } from './evm-tx-gen.js';
import type { IcmRegistry } from './icm.js';
import { rngFor } from './prng.js';
import type {
  AddressActivity,
  ContractInfo,
  EvmBlock,
  EvmChainData,
  EvmChainInfo,
  EvmTx,
} from './types.js';

const WEI = 10n ** 18n;
const GAS_LIMIT = 15_000_000;

/**
 * One EVM chain: blocks and transactions generated block by block, each block from an Rng keyed by
 * (seed, chain, number), so `advance()` appends exactly the blocks a longer initial history would
 * have had. Indexes (by hash, by address) are maintained as blocks are appended.
 */
export class EvmChain implements EvmChainData {
  readonly blocks: EvmBlock[] = [];
  readonly transactions: EvmTx[] = [];
  readonly contracts = new Map<string, ContractInfo>();
  private readonly blockByHash = new Map<string, EvmBlock>();
  private readonly txByHash = new Map<string, EvmTx>();
  private readonly activities = new Map<string, AddressActivity>();
  private readonly nonces = new Map<string, number>();
  private readonly genesisAlloc = new Map<string, bigint>();
  private readonly gen: TxGenContext;

  constructor(
    readonly info: EvmChainInfo,
    private readonly shape: ChainShape,
    private readonly seed: string,
    book: AddressBook,
    icm: IcmRegistry,
    icmPeers: { chainId: string; blockchainId: string }[],
  ) {
    for (const c of book.all) this.contracts.set(c.address.toLowerCase(), { ...c });
    const alloc = rngFor(seed, info.chainId, 'alloc');
    for (const a of book.busy)
      this.genesisAlloc.set(a.toLowerCase(), 100_000n * WEI + alloc.bigint(WEI));
    for (const a of [...book.ordinary, ...book.relayers])
      this.genesisAlloc.set(
        a.toLowerCase(),
        BigInt(alloc.int(1000, 20_000)) * WEI + alloc.bigint(WEI),
      );
    this.genesisAlloc.set(book.erc20[0]!.address.toLowerCase(), 5_000_000n * WEI);
    this.gen = {
      seed,
      book,
      info,
      shape,
      icm,
      icmPeers,
      takeNonce: (address) => {
        const key = address.toLowerCase();
        const n = this.nonces.get(key) ?? this.initialNonce(key);
        this.nonces.set(key, n + 1);
        return n;
      },
      registerContract: (c) => this.contracts.set(c.address.toLowerCase(), c),
    };
  }

  /** Appends the initial history. Block timestamps end near `headTime`. */
  generate(headTime: number): void {
    const count = this.shape.blocks;
    const startTime = headTime - count * 2;
    for (let i = 0; i < count; i++) this.appendBlock(startTime);
  }

  /**
   * What the world does that a gateway reading blocks cannot see (set by the simulator's `disagree`
   * option; the initial history never has it, so fixtures stay as they are):
   * - `invisiblePayouts`: in about half of the new blocks a contract called by one of its transactions
   *   also sends AVAX to a plain address no transaction of the block names (an internal CALL: the
   *   recipient's balance and transaction list change with no `from`/`to` and no log naming it).
   * - `silentToken`: the address book's first ERC-20 rebases (`SILENT_TOKEN`): in about a third of the
   *   new blocks every holder's balance is scaled by a factor within ±1 %, with no transaction and no
   *   `Transfer` log (the node's `balanceOf` and the Data API's ERC-20 balances both show it).
   */
  readonly disagree = { invisiblePayouts: false, silentToken: false };

  /** The silent token's rebases, ascending by block: after block `block`, balances × ppm / 1e6. */
  private readonly rebases: { block: number; ppm: bigint }[] = [];

  /** Appends `n` new head blocks (with transactions); returns them. */
  advance(n: number): EvmBlock[] {
    const out: EvmBlock[] = [];
    for (let i = 0; i < n; i++) {
      const block = this.appendBlock(0, this.disagree.invisiblePayouts);
      if (this.disagree.silentToken) this.addRebase(block.number);
      out.push(block);
    }
    return out;
  }

  /** The token `silentToken` rebases (lower case): the address book's first ERC-20. */
  get silentToken(): string {
    return this.gen.book.erc20[0]!.address.toLowerCase();
  }

  /** Maybe a rebase of the silent token at the end of block `number` (a factor in 0.99..1.01, never 1). */
  private addRebase(number: number): void {
    const rng = rngFor(this.seed, this.info.chainId, 'rebase', number);
    if (!rng.chance(1 / 3)) return;
    const delta = rng.int(1, 10_000);
    this.rebases.push({
      block: number,
      ppm: 1_000_000n + BigInt(rng.chance(0.5) ? delta : -delta),
    });
  }

  /** An internal payout by a called contract to a plain address the block does not otherwise name. */
  private addInvisiblePayout(number: number, txs: EvmTx[]): void {
    const rng = rngFor(this.seed, this.info.chainId, 'payout', number);
    if (!rng.chance(0.5)) return;
    const named = new Set<string>();
    for (const tx of txs) {
      named.add(tx.from.toLowerCase());
      named.add(tx.to.toLowerCase());
      for (const t of [...tx.erc20, ...tx.erc721, ...tx.erc1155]) {
        named.add(t.from.toLowerCase());
        named.add(t.to.toLowerCase());
        named.add(t.token.toLowerCase());
      }
    }
    const payer = txs.find((tx) => tx.status === 1 && this.contracts.has(tx.to.toLowerCase()));
    const plain = this.gen.book.ordinary.filter((a) => !named.has(a.toLowerCase()));
    if (!payer || plain.length === 0) return;
    payer.internals.push({
      from: payer.to,
      to: rng.pick(plain),
      type: 'CALL',
      value: rng.bigint(WEI) + 1n,
      isReverted: false,
      gasUsed: 2_300,
      gasLimit: 2_300,
    });
  }

  private appendBlock(startTime: number, invisiblePayout = false): EvmBlock {
    const prev = this.blocks.at(-1);
    const number = prev ? prev.number + 1 : this.info.firstBlock;
    const rng = rngFor(this.seed, this.info.chainId, 'block', number);
    const timestamp = prev ? prev.timestamp + rng.int(1, 3) : startTime;
    const hash = `0x${rng.hex(32)}`;
    const baseFee = BigInt(rng.int(1_000_000_000, 3_500_000_000));
    const [lo, hi] = this.shape.txPerBlock;
    const count = rng.chance(0.06) ? 0 : rng.int(Math.max(lo, 1), hi);
    const firstTxSeq = this.transactions.length;
    const txs = generateBlockTxs(
      rng,
      this.gen,
      { number, hash, timestamp, baseFee },
      count,
      firstTxSeq,
    );
    if (invisiblePayout) this.addInvisiblePayout(number, txs);
    let gasUsed = 0;
    let feesSpent = 0n;
    for (const tx of txs) {
      gasUsed += tx.gasUsed;
      feesSpent += BigInt(tx.gasUsed) * tx.gasPrice;
    }
    const block: EvmBlock = {
      chainId: this.info.chainId,
      number,
      hash,
      parentHash: prev
        ? prev.hash
        : `0x${rngFor(this.seed, this.info.chainId, 'block', number - 1).hex(32)}`,
      timestamp,
      timestampMs: timestamp * 1000 + rng.int(0, 999),
      baseFee,
      gasUsed: Math.min(gasUsed, GAS_LIMIT),
      gasLimit: GAS_LIMIT,
      gasCost: 0n,
      feesSpent,
      cumulativeTransactions:
        (prev ? prev.cumulativeTransactions : this.shape.priorTransactions) + txs.length,
      txCount: txs.length,
      firstTxSeq,
      miner: BLACKHOLE_COINBASE,
      stateRoot: `0x${rng.hex(32)}`,
      transactionsRoot: `0x${rng.hex(32)}`,
      receiptsRoot: `0x${rng.hex(32)}`,
      size: 600 + txs.reduce((s, t) => s + 110 + (t.input.length - 2) / 2, 0),
    };
    this.blocks.push(block);
    this.blockByHash.set(hash, block);
    for (const tx of txs) this.index(tx);
    return block;
  }

  private act(address: string): AddressActivity {
    const key = address.toLowerCase();
    let a = this.activities.get(key);
    if (!a) {
      a = { txs: [], native: [], erc20: [], erc721: [], erc1155: [], internals: [] };
      this.activities.set(key, a);
    }
    return a;
  }

  private index(tx: EvmTx): void {
    this.transactions.push(tx);
    this.txByHash.set(tx.hash, tx);
    const touched = new Set<string>();
    const touch = (addr: string) => {
      const k = addr.toLowerCase();
      if (touched.has(k)) return;
      touched.add(k);
      this.act(k).txs.push(tx.seq);
    };
    touch(tx.from);
    touch(tx.to);
    this.act(tx.from).native.push(tx.seq);
    if (tx.to.toLowerCase() !== tx.from.toLowerCase()) this.act(tx.to).native.push(tx.seq);
    for (const list of [tx.erc20, tx.erc721, tx.erc1155] as const) {
      list.forEach((t, index) => {
        touch(t.from);
        touch(t.to);
        this.act(t.from)[t.kind].push({ seq: tx.seq, index });
        if (t.to.toLowerCase() !== t.from.toLowerCase())
          this.act(t.to)[t.kind].push({ seq: tx.seq, index });
      });
    }
    tx.internals.forEach((it, index) => {
      touch(it.from);
      touch(it.to);
      // The Data API lists only valued CALLs and CREATEs.
      if ((it.type === 'CALL' && it.value > 0n) || it.type.startsWith('CREATE')) {
        this.act(it.from).internals.push({ seq: tx.seq, index });
        if (it.to.toLowerCase() !== it.from.toLowerCase())
          this.act(it.to).internals.push({ seq: tx.seq, index });
      }
    });
  }

  head(): EvmBlock {
    return this.blocks[this.blocks.length - 1]!;
  }

  block(id: number | string): EvmBlock | undefined {
    if (typeof id === 'number') return this.blocks[id - this.info.firstBlock];
    return this.blockByHash.get(id.toLowerCase());
  }

  tx(hash: string): EvmTx | undefined {
    return this.txByHash.get(hash.toLowerCase());
  }

  blockTxs(block: EvmBlock): EvmTx[] {
    return this.transactions.slice(block.firstTxSeq, block.firstTxSeq + block.txCount);
  }

  activity(address: string): AddressActivity | undefined {
    return this.activities.get(address.toLowerCase());
  }

  contract(address: string): ContractInfo | undefined {
    return this.contracts.get(address.toLowerCase());
  }

  nativeBalance(address: string, atBlock = this.head().number): bigint {
    const key = address.toLowerCase();
    let bal = this.genesisAlloc.get(key) ?? 0n;
    for (const seq of this.activity(key)?.txs ?? []) {
      const tx = this.transactions[seq]!;
      if (tx.blockNumber > atBlock) break;
      const ok = tx.status === 1;
      if (tx.from.toLowerCase() === key)
        bal -= BigInt(tx.gasUsed) * tx.gasPrice + (ok ? tx.value : 0n);
      if (ok && tx.to.toLowerCase() === key) bal += tx.value;
      if (!ok) continue;
      for (const it of tx.internals) {
        if (it.value === 0n || it.isReverted) continue;
        if (it.from.toLowerCase() === key) bal -= it.value;
        if (it.to.toLowerCase() === key) bal += it.value;
      }
    }
    return bal < 0n ? 0n : bal;
  }

  /**
   * ERC-20 balances after `atBlock`, the one truth of the Data API's balances and the node's `balanceOf`:
   * a deterministic opening grant per token the address has a transfer of up to `atBlock`, plus every
   * successful transfer in and out (never below zero), and the silent token's rebases. Only tokens with
   * a balance are listed (lower-case token → base units).
   */
  erc20Balances(address: string, atBlock = this.head().number): Map<string, bigint> {
    const key = address.toLowerCase();
    const silent = this.silentToken;
    const out = new Map<string, bigint>();
    const refs = (this.activity(key)?.erc20 ?? []).filter(
      (r) => this.transactions[r.seq]!.blockNumber <= atBlock,
    );
    for (const r of refs) {
      const token = this.transactions[r.seq]!.erc20[r.index]!.token.toLowerCase();
      if (out.has(token)) continue;
      const decimals = BigInt(this.contract(token)?.decimals ?? 18);
      // Keyed as the Data API's grants always were (its `world.rng('erc20-grant', …)`).
      const grant = rngFor(this.seed, 'ext', 'erc20-grant', this.info.chainId, key, token);
      out.set(token, BigInt(grant.int(0, 5000)) * 10n ** decimals);
    }
    // Rebases scale the silent token's balance at the end of their block, in chain order with transfers.
    let next = 0;
    const rebaseUpTo = (block: number) => {
      for (; next < this.rebases.length && this.rebases[next]!.block <= block; next++) {
        const b = out.get(silent);
        if (b !== undefined) out.set(silent, (b * this.rebases[next]!.ppm) / 1_000_000n);
      }
    };
    for (const r of refs) {
      const tx = this.transactions[r.seq]!;
      rebaseUpTo(tx.blockNumber - 1);
      if (tx.status !== 1) continue;
      const t = tx.erc20[r.index]!;
      const token = t.token.toLowerCase();
      let b = out.get(token) ?? 0n;
      if (t.from.toLowerCase() === key) b -= t.value;
      if (t.to.toLowerCase() === key) b += t.value;
      out.set(token, b < 0n ? 0n : b);
    }
    rebaseUpTo(atBlock);
    for (const [token, b] of out) if (b === 0n) out.delete(token);
    return out;
  }

  nonce(address: string, atBlock = this.head().number): number {
    const key = address.toLowerCase();
    const native = this.activity(key)?.native ?? [];
    for (let i = native.length - 1; i >= 0; i--) {
      const tx = this.transactions[native[i]!]!;
      if (tx.blockNumber <= atBlock && tx.from.toLowerCase() === key) return tx.nonce + 1;
    }
    return this.initialNonce(key);
  }

  /** Nonce of an address before the first generated block. */
  private initialNonce(key: string): number {
    return rngFor(this.seed, this.info.chainId, 'nonce', key).int(0, 400);
  }
}
