import type { GatewayNetwork } from '../../upstream/schemas/primary.js';
import {
  type CChainAtomicTxRaw,
  type CChainExportTxRaw,
  type CChainImportTxRaw,
  isExport,
} from '../../upstream/schemas/primary-atomic.js';
import { builder } from '../builder.js';
import { carries, type ObjectFields } from '../builder-types.js';
import { exposed, refList } from '../expose.js';
import { AddressRef, type AddressShape } from './address.js';
import {
  C_CHAIN_EVM_ID,
  type CChainAtomicTx,
  CChainExportTransactionRef,
  type CChainExportTx,
  CChainImportTransactionRef,
  type CChainImportTx,
  IndexedPrimaryTransactionRef,
  loadCChainTx,
  type Net,
  refetch,
} from './atomic-transaction.js';
import { BlockRef } from './block.js';
import { AssetAmountRef } from './primary-asset.js';
import { IndexedUtxoRef } from './primary-utxo.js';

/**
 * The C-Chain's atomic transactions (exports from EVM accounts into atomic memory, imports from it into
 * EVM accounts), linked to their EVM block and accounts on the network's C-Chain. Types declared in
 * atomic-transaction.ts (the union's members), implemented here.
 */
/** The C-Chain side of an atomic tx: its EVM block, on the network's C-Chain. */
export const CChainIndexedAtomicTransactionRef = builder.interfaceRef<CChainAtomicTx>(
  'CChainIndexedAtomicTransaction',
);
CChainIndexedAtomicTransactionRef.implement({
  description: 'A C-Chain atomic transaction: AVAX crossing between the C-Chain and the X/P-Chain.',
  interfaces: [IndexedPrimaryTransactionRef],
  fields: (t) => ({
    ...exposed(t, {
      txType: ['String', 'ExportTx or ImportTx.'],
      sourceChain: ['String', 'The chain (id) AVAX left.'],
      destinationChain: ['String', 'The chain (id) AVAX went to.'],
      blockHeight: ['Int', 'Height of its C-Chain block.'],
      blockHash: ['String', 'Hash of its C-Chain block.'],
    }),
    block: t.field({
      type: BlockRef,
      nullable: true,
      description: "Its C-Chain block, as the EVM `Block` of the network's C-Chain.",
      resolve: (tx) => `${C_CHAIN_EVM_ID[tx.network]}:${tx.blockHeight}`,
    }),
  }),
});

const evmAccount = (network: GatewayNetwork, address: string): AddressShape => ({
  chainId: C_CHAIN_EVM_ID[network],
  address: address.toLowerCase(),
});

type EvmInput = CChainExportTxRaw['evmInputs'][number] & Net;
type EvmOutput = CChainImportTxRaw['evmOutputs'][number] & Net;

/** What an EVM input or output names: its address on the network's C-Chain, and the AVAX it moved. */
const accountAndAsset = <S extends EvmInput | EvmOutput>(
  t: ObjectFields<S>,
  addressOf: (x: S) => string,
  moved: string,
) => ({
  account: t.field({
    type: AddressRef,
    description: 'That address on the network’s C-Chain.',
    resolve: (x) => evmAccount(x.network, addressOf(x)),
  }),
  asset: t.field({ type: AssetAmountRef, description: moved, resolve: (x) => x.asset }),
});

const EvmInputRef = builder.objectRef<EvmInput>('CChainEvmInput').implement({
  description: 'A C-Chain account an export took AVAX from.',
  fields: (t) => ({
    ...exposed(t, { fromAddress: ['EvmAddress', 'The EVM address, lower-case 0x hex.'] }),
    ...accountAndAsset(t, (i) => i.fromAddress, 'What it gave.'),
  }),
});

const EvmOutputRef = builder.objectRef<EvmOutput>('CChainEvmOutput').implement({
  description: 'A C-Chain account an import credited.',
  fields: (t) => ({
    ...exposed(t, { toAddress: ['EvmAddress', 'The EVM address, lower-case 0x hex.'] }),
    ...accountAndAsset(t, (o) => o.toAddress, 'What it got.'),
  }),
});

builder.node(CChainExportTransactionRef, {
  description: 'A C-Chain atomic export: AVAX from EVM accounts into UTXOs for the X- or P-Chain.',
  id: { resolve: (tx) => `${tx.network}:${tx.txHash}` },
  loadMany: refetch<CChainExportTx>('C-Chain export', loadCChainTx, (tx: CChainAtomicTxRaw) =>
    isExport(tx),
  ),
  isTypeOf: carries('evmInputs'),
  interfaces: [IndexedPrimaryTransactionRef, CChainIndexedAtomicTransactionRef],
  fields: (t) => ({
    evmInputs: t.field({
      type: [EvmInputRef],
      description: 'The EVM accounts it debited.',
      resolve: (tx) => tx.evmInputs.map((i) => ({ ...i, network: tx.network })),
    }),
    ...exposed(t, { emittedUtxos: refList(IndexedUtxoRef, 'UTXOs it created in atomic memory.') }),
  }),
});

builder.node(CChainImportTransactionRef, {
  description: 'A C-Chain atomic import: AVAX from X- or P-Chain UTXOs into EVM accounts.',
  id: { resolve: (tx) => `${tx.network}:${tx.txHash}` },
  loadMany: refetch<CChainImportTx>(
    'C-Chain import',
    loadCChainTx,
    (tx: CChainAtomicTxRaw) => !isExport(tx),
  ),
  isTypeOf: carries('evmOutputs'),
  interfaces: [IndexedPrimaryTransactionRef, CChainIndexedAtomicTransactionRef],
  fields: (t) => ({
    evmOutputs: t.field({
      type: [EvmOutputRef],
      description: 'The EVM accounts it credited.',
      resolve: (tx) => tx.evmOutputs.map((o) => ({ ...o, network: tx.network })),
    }),
    ...exposed(t, { consumedUtxos: refList(IndexedUtxoRef, 'UTXOs it spent from atomic memory.') }),
  }),
});
