import { createHash } from 'node:crypto';
import {
  decodeFunctionData,
  encodeErrorResult,
  encodeFunctionResult,
  erc20Abi,
  type Hex,
} from 'viem';
import type { EvmChainData } from '../world/index.js';
import { addressArg, type BlockRef, blockNumberArg, blockNumberOrHashArg } from './evm-args.js';
import { hex } from './evm-format.js';
import { blockLogs } from './evm-logs.js';
import { anyArg, callArg, keysArg, quantityArg } from './evm-state-args.js';
import { type EthMethod, EthRpcError, ethMethod } from './geth.js';

/**
 * EVM state methods of the simulated C-Chain, in go-ethereum's shapes and errors: eth_getCode,
 * eth_getStorageAt, eth_call / eth_estimateGas (the world's ERC-20s answer balanceOf, symbol,
 * decimals, totalSupply and transfer; anything else reverts, as a contract without that function
 * does: code 3 "execution reverted[: reason]" with the revert data), eth_getLogs (the transfer logs
 * of the world's ERC-20, ERC-721 and ERC-1155 transfers, `evm-logs.ts`), eth_feeHistory, and eth_getProof with coreth's proof windows:
 * an archival node answers `historicalProofQueryWindow` blocks before the last accepted one (43,200
 * ≈ 24 h of 2 s blocks by default; 0 means any), a pruning node only its 32-block tip buffer.
 *
 * The simulator does not execute EVM code or keep a state trie: code and storage words are derived
 * from the address (stable, non-empty for contracts), and proofs have geth's shape (RLP-looking
 * nodes) but verify against nothing; verification is proven against a real node (test/integration).
 */
export interface ProofWindowOptions {
  /**
   * A pruning node (`pruning-enabled: true`): proofs only for the last 32 accepted blocks. @default
   * false
   */
  pruning?: boolean;
  /**
   * coreth `historical-proof-query-window` of an archival node, in blocks; 0: any. @default 43200
   */
  historicalProofQueryWindow?: number;
}

export const DEFAULT_HISTORICAL_PROOF_QUERY_WINDOW = 43_200;
const TIP_BUFFER = 32;
const word = (...parts: string[]) =>
  `0x${createHash('sha256').update(parts.join('|')).digest('hex')}`;
const pad32 = (h: string) => `0x${h.replace(/^0x/, '').padStart(64, '0')}`;

export function evmStateMethods(
  chain: EvmChainData,
  stateBlock: (ref: BlockRef | undefined) => number,
  proofs: ProofWindowOptions = {},
): Record<string, EthMethod> {
  const isContract = (a: string) => chain.contract(a) !== undefined;
  const code = (a: string) =>
    isContract(a)
      ? `0x608060405234801561001057600080fd5b50${word('code', a).slice(2)}` +
        word('code2', a).slice(2)
      : '0x';

  /** An ERC-20 holder's balance at a block: the chain's ERC-20 balances, as the Data API lists them. */
  const tokenBalance = (token: string, holder: string, at: number): bigint =>
    chain.erc20Balances(holder, at).get(token.toLowerCase()) ?? 0n;

  const revert = (data: string, reason?: string) =>
    new EthRpcError(reason ? `execution reverted: ${reason}` : 'execution reverted', 3, data);

  /** What an eth_call answers (or the revert it throws), at a block. */
  function call(c: { to?: string; from?: string; data: string }, at: number): string {
    if (!c.to || !isContract(c.to)) return '0x'; // no code: the call succeeds with no output
    const info = chain.contract(c.to)!;
    if (info.ercType !== 'ERC-20') throw revert('0x');
    let f: ReturnType<typeof decodeFunctionData<typeof erc20Abi>>;
    try {
      f = decodeFunctionData({ abi: erc20Abi, data: c.data as Hex });
    } catch {
      throw revert('0x');
    }
    const out = (functionName: never, result: unknown) =>
      encodeFunctionResult({ abi: erc20Abi, functionName, result } as never);
    switch (f.functionName) {
      case 'balanceOf':
        return out('balanceOf' as never, tokenBalance(c.to, f.args[0].toLowerCase(), at));
      case 'symbol':
        return out('symbol' as never, info.symbol ?? '');
      case 'decimals':
        return out('decimals' as never, info.decimals ?? 18);
      case 'name':
        return out('name' as never, info.name);
      case 'totalSupply':
        return out('totalSupply' as never, BigInt(word('supply', c.to)) % 10n ** 30n);
      case 'transfer': {
        const from = (c.from ?? '0x0000000000000000000000000000000000000000').toLowerCase();
        if (tokenBalance(c.to, from, at) < f.args[1]) {
          const reason = 'ERC20: transfer amount exceeds balance';
          throw revert(
            encodeErrorResult({
              abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string' }] }],
              errorName: 'Error',
              args: [reason],
            }),
            reason,
          );
        }
        return out('transfer' as never, true);
      }
      default:
        throw revert('0x');
    }
  }

  function checkProofWindow(at: number): void {
    const window = proofs.pruning
      ? TIP_BUFFER
      : (proofs.historicalProofQueryWindow ?? DEFAULT_HISTORICAL_PROOF_QUERY_WINDOW);
    if (window === 0) return;
    const last = chain.head().number;
    const start = last > window ? last - window : 0;
    if (at < start)
      throw new EthRpcError(
        `block number ${at} is before the earliest allowed block number for queries ${start} ` +
          `(window of ${window} blocks)`,
      );
  }

  const blockOrHead = (ref: BlockRef): number => {
    if ('number' in ref) return Number(ref.number);
    if ('tag' in ref && ref.tag === 'earliest') return 0;
    return stateBlock(ref);
  };

  return {
    eth_getCode: ethMethod([addressArg, blockNumberOrHashArg], (a, ref) => {
      stateBlock(ref);
      return code(a);
    }),
    eth_getStorageAt: ethMethod(
      [addressArg, { decode: (r: unknown) => keysArg.decode([r])[0]! }, blockNumberOrHashArg],
      (a, slot, ref) => {
        stateBlock(ref);
        return isContract(a) && BigInt(word('slot?', a, slot)) % 3n !== 0n
          ? word('slot', a, slot)
          : pad32('0');
      },
    ),
    eth_call: ethMethod([callArg, blockNumberOrHashArg, anyArg], (c, ref, _overrides) =>
      call(c, stateBlock(ref ?? { tag: 'latest' })),
    ),
    eth_estimateGas: ethMethod([callArg, blockNumberOrHashArg, anyArg], (c, ref, _overrides) => {
      call(c, stateBlock(ref ?? { tag: 'latest' }));
      const bytes = (c.data.length - 2) / 2;
      return hex(21_000 + bytes * 16 + (c.to && isContract(c.to) ? 30_000 : 0));
    }),
    eth_getProof: ethMethod([addressArg, keysArg, blockNumberOrHashArg], (a, keys, ref) => {
      const at = stateBlock(ref);
      checkProofWindow(at);
      const node = (...p: string[]) =>
        `0xf8${word('node', ...p).slice(2)}${word('node2', ...p).slice(2)}`;
      return {
        address: a,
        accountProof: [
          node(a, 'root', String(at)),
          node(a, 'branch', String(at)),
          node(a, 'leaf', String(at)),
        ],
        balance: hex(at === 0 ? 0n : chain.nativeBalance(a, at)),
        codeHash: isContract(a)
          ? word('codehash', a)
          : '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
        nonce: hex(at === 0 ? 0 : chain.nonce(a, at)),
        storageHash: isContract(a)
          ? word('storage', a, String(at))
          : '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
        storageProof: keys.map((k) => ({ key: k, value: '0x0', proof: [node(a, k, String(at))] })),
      };
    }),
    eth_getLogs: ethMethod([anyArg], (raw) => {
      const f = (raw ?? {}) as {
        fromBlock?: unknown;
        toBlock?: unknown;
        address?: unknown;
        topics?: unknown;
        blockHash?: unknown;
      };
      const head = chain.head().number;
      // EIP-234: a block hash names one block (and excludes a range).
      const byHash =
        f.blockHash == null ? undefined : stateBlock({ hash: String(f.blockHash).toLowerCase() });
      if (byHash !== undefined && (f.fromBlock != null || f.toBlock != null))
        throw new EthRpcError(
          'cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other',
        );
      const from =
        byHash ?? (f.fromBlock == null ? head : blockOrHead(blockNumberArg.decode(f.fromBlock)));
      const to =
        byHash ??
        (f.toBlock == null ? head : Math.min(blockOrHead(blockNumberArg.decode(f.toBlock)), head));
      if (from > to && f.toBlock != null) throw new EthRpcError('invalid block range params');
      const addresses =
        f.address == null
          ? []
          : (Array.isArray(f.address) ? f.address : [f.address]).map((x) => addressArg.decode(x));
      const topics = (Array.isArray(f.topics) ? f.topics : []).map((t) =>
        t == null ? null : (Array.isArray(t) ? t : [t]).map((h) => String(h).toLowerCase()),
      );
      const logs: unknown[] = [];
      for (let n = Math.max(from, chain.info.firstBlock); n <= to; n++) {
        const block = chain.block(n);
        if (!block) continue;
        for (const entry of blockLogs(chain, block).flat()) {
          if (addresses.length && !addresses.includes(entry.address)) continue;
          if (
            topics.some(
              (alts, i) =>
                alts !== null && alts.length > 0 && !alts.includes(entry.topics[i] ?? ''),
            )
          )
            continue;
          logs.push(entry);
        }
      }
      return logs;
    }),
    eth_feeHistory: ethMethod([quantityArg, blockNumberArg, anyArg], (count, ref, pct) => {
      const newest = blockOrHead(ref);
      const percentiles = Array.isArray(pct) ? (pct as number[]) : [];
      const oldest = Math.max(chain.info.firstBlock, newest - Math.min(count, 1024) + 1);
      const blocks = Array.from({ length: Math.max(0, newest - oldest + 1) }, (_, i) =>
        chain.block(oldest + i),
      ).filter((b) => b !== undefined);
      const next = chain.block(newest + 1);
      return {
        oldestBlock: hex(oldest),
        baseFeePerGas: [
          ...blocks.map((b) => hex(b.baseFee)),
          hex(next?.baseFee ?? blocks.at(-1)?.baseFee ?? 0n),
        ],
        gasUsedRatio: blocks.map((b) => Number(b.gasUsed) / Number(b.gasLimit)),
        ...(percentiles.length
          ? {
              reward: blocks.map(() =>
                percentiles.map((p) => hex(BigInt(Math.round(p * 20_000_000)))),
              ),
            }
          : {}),
      };
    }),
  };
}
