import type { EvmBlock, EvmChainData, World } from '../world/index.js';
import {
  addressArg,
  type BlockRef,
  blockNumberArg,
  blockNumberOrHashArg,
  boolArg,
  hashArg,
} from './evm-args.js';
import { formatBlock, formatTx, GENESIS_HASH, genesisBlock, hex } from './evm-format.js';
import { formatReceipt } from './evm-logs.js';
import { evmStateMethods, type ProofWindowOptions } from './evm-state.js';
import { type EthMethod, EthRpcError, ethMethod } from './geth.js';
import { MAINNET_UPGRADES } from './info.js';

/**
 * `/ext/bc/C/rpc` methods over the world's chain 43114: the blocks, hashes, parent hashes,
 * timestamps and transactions are exactly the world's (the Data API serves the same blocks).
 * `latest`/`pending`/`finalized`/`safe` are the head (coreth answers accepted blocks only);
 * `earliest` is the mainnet genesis block; numbers the world does not hold answer null.
 */

export const CORETH_VERSION = 'v0.15.4';

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** Mainnet chain config as `eth_getChainConfig` returns it (params.ChainConfig + Avalanche upgrades). */
function chainConfig(chainId: number): Record<string, unknown> {
  const u = MAINNET_UPGRADES;
  return {
    apricotPhase1BlockTimestamp: unix(u.apricotPhase1Time),
    apricotPhase2BlockTimestamp: unix(u.apricotPhase2Time),
    apricotPhase3BlockTimestamp: unix(u.apricotPhase3Time),
    apricotPhase4BlockTimestamp: unix(u.apricotPhase4Time),
    apricotPhase5BlockTimestamp: unix(u.apricotPhase5Time),
    apricotPhase6BlockTimestamp: unix(u.apricotPhase6Time),
    apricotPhasePost6BlockTimestamp: unix(u.apricotPhasePost6Time),
    apricotPhasePre6BlockTimestamp: unix(u.apricotPhasePre6Time),
    banffBlockTimestamp: unix(u.banffTime),
    berlinBlock: 0,
    byzantiumBlock: 0,
    cancunTime: unix(u.etnaTime),
    chainId,
    constantinopleBlock: 0,
    cortinaBlockTimestamp: unix(u.cortinaTime),
    daoForkBlock: 0,
    daoForkSupport: true,
    durangoBlockTimestamp: unix(u.durangoTime),
    eip150Block: 0,
    eip155Block: 0,
    eip158Block: 0,
    etnaTimestamp: unix(u.etnaTime),
    fortunaTimestamp: unix(u.fortunaTime),
    graniteTimestamp: unix(u.graniteTime),
    homesteadBlock: 0,
    istanbulBlock: 0,
    londonBlock: 0,
    muirGlacierBlock: 0,
    petersburgBlock: 0,
    shanghaiTime: unix(u.durangoTime),
  };
}

type Resolved = { block: EvmBlock } | { genesis: true } | undefined;

function resolve(chain: EvmChainData, ref: BlockRef): Resolved {
  if ('tag' in ref) return ref.tag === 'earliest' ? { genesis: true } : { block: chain.head() };
  if ('hash' in ref) {
    if (ref.hash === GENESIS_HASH) return { genesis: true };
    const b = chain.block(ref.hash);
    return b ? { block: b } : undefined;
  }
  if (ref.number === 0n) return { genesis: true };
  if (ref.number > BigInt(chain.head().number) || ref.number < BigInt(chain.info.firstBlock))
    return undefined;
  const b = chain.block(Number(ref.number));
  return b ? { block: b } : undefined;
}

export function evmMethods(
  world: World,
  chainId = '43114',
  proofs: ProofWindowOptions = {},
): Record<string, EthMethod> {
  const chain = world.chain(chainId)!;
  const id = BigInt(chainId);
  const blockJson = (r: Resolved, fullTx: boolean) =>
    r ? ('genesis' in r ? genesisBlock() : formatBlock(chain, r.block, fullTx)) : null;
  /** The block a state query reads, as coreth's StateAndHeaderByNumberOrHash finds it. */
  const stateBlock = (ref: BlockRef | undefined): number => {
    if (!ref) throw new EthRpcError('invalid arguments; neither block nor hash specified');
    const r = resolve(chain, ref);
    if (!r) throw new EthRpcError('hash' in ref ? 'header for hash not found' : 'header not found');
    return 'genesis' in r ? 0 : r.block.number;
  };
  const head = () => chain.head();
  return {
    eth_chainId: ethMethod([], () => hex(id)),
    eth_blockNumber: ethMethod([], () => hex(head().number)),
    eth_getBlockByNumber: ethMethod([blockNumberArg, boolArg], (ref, fullTx) =>
      blockJson(resolve(chain, ref), fullTx),
    ),
    eth_getBlockByHash: ethMethod([hashArg, boolArg], (hash, fullTx) =>
      blockJson(resolve(chain, { hash }), fullTx),
    ),
    eth_getBlockTransactionCountByNumber: ethMethod([blockNumberArg], (ref) => {
      const r = resolve(chain, ref);
      return r ? hex('genesis' in r ? 0 : r.block.txCount) : null;
    }),
    eth_getBlockTransactionCountByHash: ethMethod([hashArg], (hash) => {
      const r = resolve(chain, { hash });
      return r ? hex('genesis' in r ? 0 : r.block.txCount) : null;
    }),
    eth_getTransactionByHash: ethMethod([hashArg], (hash) => {
      const tx = chain.tx(hash);
      return tx ? formatTx(tx, id) : null;
    }),
    eth_getTransactionReceipt: ethMethod([hashArg], (hash) => {
      const tx = chain.tx(hash);
      const block = tx ? chain.block(tx.blockNumber) : undefined;
      return tx && block ? formatReceipt(chain, block, tx) : null;
    }),
    // go-ethereum 1.13's method, which coreth serves: every receipt of a block, null for an unknown block.
    eth_getBlockReceipts: ethMethod([blockNumberOrHashArg], (ref) => {
      const r = ref ? resolve(chain, ref) : undefined;
      if (!r) return null;
      if ('genesis' in r) return [];
      return chain.blockTxs(r.block).map((tx) => formatReceipt(chain, r.block, tx));
    }),
    eth_getBalance: ethMethod([addressArg, blockNumberOrHashArg], (address, ref) => {
      const at = stateBlock(ref);
      return hex(at === 0 ? 0n : chain.nativeBalance(address, at));
    }),
    eth_getTransactionCount: ethMethod([addressArg, blockNumberOrHashArg], (address, ref) => {
      const at = stateBlock(ref);
      return hex(at === 0 ? 0 : chain.nonce(address, at));
    }),
    eth_baseFee: ethMethod([], () => hex(head().baseFee)),
    eth_gasPrice: ethMethod([], () => hex(head().baseFee + 1_000_000_000n)),
    eth_maxPriorityFeePerGas: ethMethod([], () => hex(1_000_000_000n)),
    eth_suggestPriceOptions: ethMethod([], () => {
      // coreth's price options: slow/fast tips at 95%/105% of the estimate, max fee = 2 × base fee + tip.
      const base = head().baseFee;
      const option = (tip: bigint) => ({
        maxPriorityFeePerGas: hex(tip),
        maxFeePerGas: hex(base * 2n + tip),
      });
      return {
        slow: option(950_000_000n),
        normal: option(1_000_000_000n),
        fast: option(1_050_000_000n),
      };
    }),
    eth_getChainConfig: ethMethod([], () => chainConfig(Number(id))),
    eth_syncing: ethMethod([], () => false),
    net_version: ethMethod([], () => String(id)),
    net_listening: ethMethod([], () => true),
    net_peerCount: ethMethod([], () => '0x0'),
    web3_clientVersion: ethMethod([], () => CORETH_VERSION),
    ...evmStateMethods(chain, stateBlock, proofs),
  };
}
