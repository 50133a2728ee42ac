import type {
  ContractInfo,
  EvmBlock,
  EvmChainData,
  EvmTx,
  IcmMessage,
  TokenTransfer,
  World,
} from '../world/index.js';

/**
 * What the token routes need from the world, derived from its transfers: ERC-1155 balances (at a
 * block; ERC-20 balances are the chain's own `erc20Balances`, which the node's `balanceOf` reads too), ERC-721 owners, a token's transfers, deployments, and the cross-chain
 * newest-first lists. Indexes are rebuilt when the world has grown (memoized by its size), so they
 * follow `advance`.
 */

const memo = new WeakMap<object, Map<string, { size: number; value: unknown }>>();
function cached<T>(owner: object, name: string, size: number, build: () => T): T {
  let m = memo.get(owner);
  if (!m) {
    m = new Map();
    memo.set(owner, m);
  }
  const hit = m.get(name);
  if (hit && hit.size === size) return hit.value as T;
  const value = build();
  m.set(name, { size, value });
  return value;
}

export interface NftHolding {
  token: ContractInfo;
  tokenId: string;
  owner: string;
  /** Last transfer's block time. */
  timestamp: number;
}

/** Every ERC-721 token ever transferred, with its current owner, in first-seen order. */
export function erc721Owners(chain: EvmChainData): Map<string, NftHolding> {
  return cached(chain, 'erc721', chain.transactions.length, () => {
    const out = new Map<string, NftHolding>();
    for (const tx of chain.transactions) {
      if (tx.status !== 1) continue;
      for (const t of tx.erc721) {
        const token = chain.contract(t.token);
        if (!token) continue;
        out.set(`${t.token.toLowerCase()}:${t.tokenId}`, {
          token,
          tokenId: t.tokenId ?? '0',
          owner: t.to,
          timestamp: tx.timestamp,
        });
      }
    }
    return out;
  });
}

/** The token ids of an NFT collection (ERC-721 or ERC-1155), ascending by id. */
export function collectionTokenIds(
  chain: EvmChainData,
  collection: string,
): { tokenId: string; timestamp: number; owner?: string }[] {
  const key = collection.toLowerCase();
  return cached(chain, `collection:${key}`, chain.transactions.length, () => {
    const ids = new Map<string, { tokenId: string; timestamp: number; owner?: string }>();
    for (const tx of chain.transactions) {
      for (const t of [...tx.erc721, ...tx.erc1155]) {
        if (t.token.toLowerCase() !== key) continue;
        const id = t.tokenId ?? '0';
        ids.set(id, {
          tokenId: id,
          timestamp: tx.timestamp,
          owner: t.kind === 'erc721' && tx.status === 1 ? t.to : ids.get(id)?.owner,
        });
      }
    }
    return [...ids.values()].sort((a, b) => (BigInt(a.tokenId) < BigInt(b.tokenId) ? -1 : 1));
  });
}

/** Token transfers of one kind involving an address, up to a block, in chain order. */
function transfersOf(
  chain: EvmChainData,
  address: string,
  kind: TokenTransfer['kind'],
  atBlock: number,
): TokenTransfer[] {
  const out: TokenTransfer[] = [];
  for (const ref of chain.activity(address)?.[kind] ?? []) {
    const tx = chain.transactions[ref.seq]!;
    if (tx.blockNumber > atBlock) break;
    if (tx.status === 1) out.push(tx[kind][ref.index]!);
  }
  return out;
}

/** ERC-1155 balances after `atBlock`, by `token:tokenId` (positive ones only). */
export function erc1155Balances(
  chain: EvmChainData,
  address: string,
  atBlock: number,
): Map<string, { token: string; tokenId: string; balance: bigint }> {
  const key = address.toLowerCase();
  const out = new Map<string, { token: string; tokenId: string; balance: bigint }>();
  for (const t of transfersOf(chain, key, 'erc1155', atBlock)) {
    const k = `${t.token.toLowerCase()}:${t.tokenId}`;
    const cur = out.get(k) ?? { token: t.token, tokenId: t.tokenId ?? '0', balance: 0n };
    if (t.from.toLowerCase() === key) cur.balance -= t.value;
    if (t.to.toLowerCase() === key) cur.balance += t.value;
    if (cur.balance < 0n) cur.balance = 0n;
    out.set(k, cur);
  }
  for (const [k, v] of out) if (v.balance === 0n) out.delete(k);
  return out;
}

export interface TransferRef {
  tx: EvmTx;
  transfer: TokenTransfer;
  /** Position in chain order: [tx seq, index among the tx's transfers]. */
  key: [number, number];
}

/** Every transfer of one token contract, in chain order. */
export function tokenTransfers(chain: EvmChainData, token: string): TransferRef[] {
  const key = token.toLowerCase();
  return cached(chain, `transfers:${key}`, chain.transactions.length, () => {
    const out: TransferRef[] = [];
    for (const tx of chain.transactions) {
      [...tx.erc20, ...tx.erc721, ...tx.erc1155].forEach((t, i) => {
        if (t.token.toLowerCase() === key) out.push({ tx, transfer: t, key: [tx.seq, i] });
      });
    }
    return out;
  });
}

/** Contracts an address deployed on a chain, in chain order (by the deployment tx). */
export function deploymentsBy(
  chain: EvmChainData,
  deployer: string,
): { seq: number; contract: ContractInfo }[] {
  const key = deployer.toLowerCase();
  return cached(chain, `deployments:${key}`, chain.transactions.length, () =>
    chain.transactions
      .filter(
        (tx) =>
          tx.createdContract && tx.from.toLowerCase() === key && chain.contract(tx.createdContract),
      )
      .map((tx) => ({ seq: tx.seq, contract: chain.contract(tx.createdContract!)! })),
  );
}

const chainOrder = (world: World, chainId: string) =>
  world.chains.findIndex((c) => c.chainId === chainId);
const size = (world: World) =>
  world.chains.reduce((n, c) => n + world.chain(c.chainId)!.blocks.length, 0);

/** Every block of every chain, ascending by (time, chain, number). */
export function allBlocks(world: World): { block: EvmBlock; key: [number, number, number] }[] {
  return cached(world, 'blocks', size(world), () =>
    world.chains
      .flatMap((c) =>
        world.chain(c.chainId)!.blocks.map((block) => ({
          block,
          key: [block.timestampMs, chainOrder(world, c.chainId), block.number] as [
            number,
            number,
            number,
          ],
        })),
      )
      .sort((a, b) => cmp3(a.key, b.key)),
  );
}

/** Every transaction of every chain, ascending by (time, chain, seq). */
export function allTransactions(
  world: World,
): { chain: EvmChainData; tx: EvmTx; key: [number, number, number] }[] {
  return cached(world, 'txs', size(world), () =>
    world.chains
      .flatMap((c) => {
        const chain = world.chain(c.chainId)!;
        const order = chainOrder(world, c.chainId);
        return chain.transactions.map((tx) => ({
          chain,
          tx,
          key: [tx.timestamp, order, tx.seq] as [number, number, number],
        }));
      })
      .sort((a, b) => cmp3(a.key, b.key)),
  );
}

/** Every ICM message, ascending by (timestamp, seq): the order the by-address list uses. */
export function allIcmMessages(world: World): IcmMessage[] {
  return cached(world, 'icm', world.icm.messages.length * 1_000_000 + world.version, () =>
    [...world.icm.messages].sort((a, b) => a.timestamp - b.timestamp || a.seq - b.seq),
  );
}

export const cmp3 = (a: readonly number[], b: readonly number[]) =>
  a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
export const cmp2 = (a: readonly number[], b: readonly number[]) => a[0]! - b[0]! || a[1]! - b[1]!;
