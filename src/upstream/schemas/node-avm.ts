import { z } from 'zod';
import { hexBytes } from './node-codec.js';
import { u32, u64 } from './node-common.js';

/**
 * Results of the X-Chain API (`/ext/bc/X`, gorilla service `avm` — the seed's neutral `xvm.` prefix is
 * `avm.` on a real node), after avalanchego vms/avm/service.go and the
 * node's avm examples (SPEC_DIR `examples/node/avm/`).
 * The shared-memory UTXO page shape is also what the C-Chain's `avax.getUTXOs` answers.
 */

export const heightResult = z.object({ height: u64 });

/** `getBlock`/`getBlockByHeight`/`getTx` with `encoding: "hex"`: the checksummed hex bytes. */
export const hexBlockResult = z.object({
  block: z.string().refine((s) => hexBytes(s) !== undefined, 'not in the checksummed hex encoding'),
  encoding: z.string(),
});
export const hexTxResult = z.object({ tx: z.string().startsWith('0x'), encoding: z.string() });

const id = z.string();
/** Secp256k1fx outputs carry these four; NFT and property outputs carry others (kept out of the contract). */
const txOutput = z.object({
  assetID: id,
  fxID: id.optional(),
  output: z.object({
    addresses: z
      .array(z.string())
      .nullable()
      .optional()
      .transform((v) => v ?? []),
    amount: u64.optional(),
    locktime: u64.optional(),
    threshold: u32.optional(),
  }),
});
export type XTxOutput = z.output<typeof txOutput>;

const txInput = z.object({
  txID: id,
  outputIndex: u32,
  assetID: id,
  fxID: id.optional(),
  input: z.object({
    amount: u64.optional(),
    signatureIndices: z
      .array(u32)
      .nullable()
      .optional()
      .transform((v) => v ?? []),
  }),
});
export type XTxInput = z.output<typeof txInput>;

const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullable()
    .optional()
    .transform((v) => v ?? []);

/**
 * The `json` encoding of a signed X-Chain tx. Base fields are common to every tx type; export txs add
 * `destinationChain`/`exportedOutputs`, import txs `sourceChain`/`importedInputs`, asset creation
 * `name`/`symbol`/`denomination`.
 */
export const xTxJson = z.object({
  unsignedTx: z.object({
    networkID: u32,
    blockchainID: id,
    outputs: list(txOutput),
    inputs: list(txInput),
    memo: z.string().optional(),
    destinationChain: id.optional(),
    exportedOutputs: list(txOutput),
    sourceChain: id.optional(),
    importedInputs: list(txInput),
    name: z.string().optional(),
    symbol: z.string().optional(),
    denomination: u32.optional(),
  }),
  credentials: list(
    z.object({
      fxID: id.optional(),
      credential: z.object({ signatures: list(z.string()) }),
    }),
  ),
  id,
});
export type XTxJson = z.output<typeof xTxJson>;

export const jsonTxResult = z.object({ tx: xTxJson, encoding: z.literal('json') });

/** The `json` encoding of a post-Cortina StandardBlock. */
export const xBlockJson = z.object({
  /** The block id (StandardBlock's `BlockID`, json "id"). */
  id: id.optional(),
  parentID: id,
  height: u64,
  time: u64,
  merkleRoot: id.optional(),
  txs: list(xTxJson),
});
export type XBlockJson = z.output<typeof xBlockJson>;
export const jsonBlockResult = z.object({ block: xBlockJson, encoding: z.literal('json') });

/** Deprecated as of AvalancheGo v1.10.0. */
export const txStatusResult = z.object({ status: z.string() });

export const avmTxFeeResult = z.object({ txFee: u64, createAssetTxFee: u64 });

/** One page of `getUTXOs`: `endIndex` is passed back as `startIndex` to continue. */
export const utxoPageResult = z.object({
  numFetched: u32,
  utxos: z
    .array(z.string())
    .nullable()
    .transform((v) => v ?? []),
  endIndex: z.object({ address: z.string(), utxo: z.string() }),
  sourceChain: z.string().optional(),
  encoding: z.string(),
});
export type UtxoPageResult = z.output<typeof utxoPageResult>;

/** The spec spells it assetId in the signature and assetID in the example; both occur. */
export const assetDescriptionResult = z
  .object({
    assetID: z.string().optional(),
    assetId: z.string().optional(),
    name: z.string(),
    symbol: z.string(),
    denomination: u32,
  })
  .refine((a) => (a.assetID ?? a.assetId) !== undefined, 'expected assetID')
  .transform((a) => ({
    assetId: (a.assetID ?? a.assetId)!,
    name: a.name,
    symbol: a.symbol,
    denomination: a.denomination,
  }));
export type AssetDescription = z.output<typeof assetDescriptionResult>;

/** Deprecated as of AvalancheGo v1.9.12. */
export const balanceResult = z.object({
  balance: u64,
  utxoIDs: z
    .array(z.object({ txID: z.string(), outputIndex: u32 }))
    .nullable()
    .optional()
    .transform((v) => v ?? []),
});
export type BalanceResult = z.output<typeof balanceResult>;

/** Deprecated as of AvalancheGo v1.9.12. */
export const allBalancesResult = z.object({
  balances: z
    .array(z.object({ asset: z.string(), balance: u64 }))
    .nullable()
    .transform((v) => v ?? []),
});

export const issueTxResult = z.object({ txID: z.string() });
