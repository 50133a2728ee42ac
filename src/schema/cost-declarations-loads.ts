import {
  type CostDeclaration,
  data,
  free,
  loadsParent,
  paged,
  rpc,
  rpcCall,
} from './cost-helpers.js';

/**
 * The fields that read what their parent loads on demand (src/schema/cost-helpers.ts `loadsParent`): a
 * chain known by its id loads its info for its first descriptive field; an X-Chain transaction or block
 * known by its id loads its decoded form; an output shows its amount in its asset's denomination. Each
 * load is priced once per parent, whichever and however many of its fields are selected. Found by the
 * walk of every resolver that reads its context (test/unit/cost-declarations.test.ts). Beside them, the
 * X-Chain's other node calls.
 */
const each = (fields: readonly string[], d: CostDeclaration) =>
  Object.fromEntries(fields.map((f) => [f, d]));

const chainInfo = loadsParent(data('getChainInfo'));
/** The chain-info load, for the fields whose chains come with it (`carries`). */
export const CHAIN_INFO_LOAD = chainInfo.load!;
const CHAIN_INFO = [
  'description',
  'enabledFeatures',
  'explorerUrl',
  'isPrivate',
  'isTestnet',
  'logoUri',
  'multicallAddress',
  'name',
  'networkToken',
  'platformChainId',
  'rpcUrl',
  'status',
  'subnetId',
  'vmId',
  'vmName',
  'wsUrl',
].map((f) => `Chain.${f}`);

/** avm.getTx in its json encoding (the decoded transaction), unless its block carried it. */
const xTxDecoded = loadsParent(rpc('avm.getTx'));
const X_TX_LOAD = xTxDecoded.load!;
const X_TX_DECODED = [
  'blockchainId',
  'credentials',
  'destinationChain',
  'exportedOutputs',
  'importedInputs',
  'inputs',
  'kind',
  'memo',
  'networkId',
  'outputs',
  'sourceChain',
].map((f) => `XChainTransaction.${f}`);

/** avm.getBlock in its json encoding (the decoded block). */
const xBlockDecoded = loadsParent(rpc('avm.getBlock'));
const X_BLOCK_DECODED = [
  'blockId',
  'height',
  'merkleRoot',
  'parentId',
  'timestamp',
  'timestampIso',
  'txCount',
].map((f) => `XChainBlock.${f}`);

/** An X-Chain asset's description (avm.getAssetDescription), once per item however many fields read it. */
export const ASSET_DESCRIPTION = loadsParent(rpc('avm.getAssetDescription'));

/** avax.getAtomicTx: the C-Chain atomic transaction as the node holds it. */
const atomicTx = loadsParent(rpc('avax.getAtomicTx'));

export const LOAD_DECLARATIONS: Record<string, CostDeclaration> = {
  // The X-Chain on a configured node: one JSON-RPC call per resolution.
  'XChain.asset': rpcCall('avm.getAssetDescription'),
  'XChain.balance': rpcCall('avm.getBalance'),
  'XChain.balances': rpcCall('avm.getAllBalances'),
  'XChain.block': rpcCall('avm.getBlock'),
  'XChain.fees': rpcCall('avm.getTxFee'),
  'XChain.height': rpcCall('avm.getHeight'),
  'XChain.transaction': rpcCall('avm.getTx'),
  'XChain.utxos': paged(rpc('avm.getUTXOs')),
  'XChainAssetBalance.assetDescription': rpcCall('avm.getAssetDescription'),
  'XChainAssetDetails.transactions': paged(data('listAssetTransactions')),
  // The parent's id is in this block's decoded form; the parent's fields load the parent.
  'XChainBlock.parent': xBlockDecoded,
  // Read from the decoded block, each transaction decoded with it.
  'XChainBlock.transactions': { ...xBlockDecoded, carries: [X_TX_LOAD] },
  'XChainTxInput.asset': rpcCall('avm.getAssetDescription'),
  // References: the transaction's or block's own fields pay for what they load.
  'XChainTxInput.transaction': free(),
  'XChainTransaction.createdAsset': rpcCall('avm.getAssetDescription'),
  'XChainTxOutput.asset': ASSET_DESCRIPTION,

  ...each(CHAIN_INFO, chainInfo),
  ...each(X_TX_DECODED, xTxDecoded),
  // The signed bytes are the other encoding: a call of their own.
  'XChainTransaction.hex': rpcCall('avm.getTx'),
  'XChainTransaction.status': rpcCall('avm.getTxStatus'),
  ...each(X_BLOCK_DECODED, xBlockDecoded),
  'XChainBlock.hex': rpcCall('avm.getBlock'),
  'CChainAtomicTransaction.hex': atomicTx,
  'CChainAtomicTransaction.blockHeight': atomicTx,
  // An amount in its asset's denomination: the asset's description, shared with the asset itself.
  'Utxo.amountFormatted': ASSET_DESCRIPTION,
  'XChainTxOutput.amountFormatted': ASSET_DESCRIPTION,
};
