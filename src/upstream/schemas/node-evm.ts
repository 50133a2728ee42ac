import { z } from 'zod';
import { hexQuantity, u64 } from './node-common.js';

/**
 * Results of the C-Chain endpoints: the go-ethereum-style EVM API (`/ext/bc/C/rpc`), the shared-memory
 * service (`/ext/bc/C/avax`, gorilla service `avax` — the seed's `svc.`) and the VM admin
 * (`/ext/bc/C/admin`, gorilla service `admin`, dotted names although older docs write `admin_…`).
 */

export const quantityResult = hexQuantity;

/** `net_version` is a decimal string; `web3_clientVersion` free text. */
export const netVersionResult = z.string().regex(/^\d+$/, 'expected a decimal network id');
export const clientVersionResult = z.string();

/** `eth_syncing`: false, or the progress of a node still syncing. */
export const syncingResult = z.union([
  z.literal(false).transform(() => null),
  z.object({ startingBlock: hexQuantity, currentBlock: hexQuantity, highestBlock: hexQuantity }),
]);
export type SyncingResult = z.output<typeof syncingResult>;

const activation = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]).nullable();

/**
 * `eth_getChainConfig`: go-ethereum's ChainConfig plus Avalanche's upgrades. Every fork key is kept, typed
 * by its suffix: `…Block` activates at a block number, `…Time`/`…Timestamp`/`…BlockTimestamp` at a Unix
 * time (null: not scheduled). Other entries (fee configs of Subnet-EVM chains…) are not forks and dropped.
 */
export const chainConfigResult = z.record(z.string(), z.unknown()).transform((raw, ctx) => {
  const chainId = activation.safeParse(raw.chainId);
  if (!chainId.success || chainId.data === null) {
    ctx.addIssue({ code: 'custom', message: 'expected chainId', path: ['chainId'] });
    return z.NEVER;
  }
  const forks: { name: string; block: string | null; timestamp: string | null; key: string }[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const m = /^(.+?)(BlockTimestamp|Timestamp|Time|Block)$/.exec(key);
    if (!m) continue;
    const v = activation.safeParse(value);
    if (!v.success) continue;
    const at = v.data === null ? null : String(v.data);
    const byTime = m[2] !== 'Block';
    forks.push({ key, name: m[1]!, block: byTime ? null : at, timestamp: byTime ? at : null });
  }
  forks.sort((a, b) => a.key.localeCompare(b.key));
  return {
    chainId: String(chainId.data),
    daoForkSupport: typeof raw.daoForkSupport === 'boolean' ? raw.daoForkSupport : null,
    forks,
  };
});
export type ChainConfig = z.output<typeof chainConfigResult>;

/** `avax.getAtomicTx`: hex bytes, and the C-Chain block height once accepted. */
export const atomicTxResult = z.object({
  tx: z.string().startsWith('0x'),
  encoding: z.string(),
  blockHeight: u64.optional(),
});
export type AtomicTxResult = z.output<typeof atomicTxResult>;

export const atomicTxStatusResult = z.object({ status: z.string(), blockHeight: u64.optional() });
export type AtomicTxStatusResult = z.output<typeof atomicTxStatusResult>;

/** `admin.getVMConfig` on `/ext/bc/C/admin`: the VM's configuration (its fields are not part of the docs). */
export const vmConfigResult = z
  .object({ config: z.record(z.string(), z.unknown()) })
  .transform((r) =>
    Object.entries(r.config)
      .map(([key, value]) => ({ key, value: JSON.stringify(value ?? null) }))
      .sort((a, b) => a.key.localeCompare(b.key)),
  );
export type VmConfigEntry = z.output<typeof vmConfigResult>[number];
