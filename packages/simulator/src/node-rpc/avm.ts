import { cb58, type XTx, type XUtxo } from '../world/index.js';
import { parseServiceAddress } from './addresses.js';
import { decodeBytes, encodeBytes, idOf } from './codec.js';
import { cb58Decode, EMPTY_ID } from './go-args.js';
import { type GorillaService, method, NodeRpcError } from './gorilla.js';
import { ledgerOf } from './ledger.js';
import type { NodeState } from './node-state.js';
import { GET_UTXOS_ARGS, getUtxos } from './utxo-service.js';

/**
 * `/ext/bc/X` (service `avm`, vms/avm/service.go) over the world's mainnet X-Chain: its assets,
 * linear blocks, transfer txs and UTXOs, plus atomic UTXOs from the P- and C-Chain
 * (`sourceChain`). Txs issued through `avm.issueTx` are accepted at once.
 */

const TX_FEE = '1000000';
const CREATE_ASSET_TX_FEE = '10000000';
const SECP_FX_ID = 'spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ';

export function avmService(state: NodeState): GorillaService {
  const x = state.net.xChain;
  const info = state.net.info;
  const ledger = ledgerOf(state.world);
  const utxoById = new Map<string, XUtxo>();
  for (const list of x.utxosByAddress.values()) for (const u of list) utxoById.set(u.utxoId, u);
  const heightIndex = new Map(x.blocks.map((b) => [b.height, b]));

  const lookupAsset = (asset: string) => {
    const found = x.assets.find((a) => a.assetId === asset || a.symbol === asset);
    if (found && (found.assetId === asset || found.symbol === 'AVAX')) return found.assetId;
    const bytes = cb58Decode(asset);
    if (bytes?.length === 32) return asset;
    throw new NodeRpcError(`asset '${asset}' not found`);
  };
  const ownUtxos = (address: string, includePartial: boolean) => {
    const hex = (() => {
      try {
        return parseServiceAddress(state, info.xChainId, address);
      } catch (e) {
        throw new NodeRpcError(`problem parsing address '${address}': ${(e as Error).message}`);
      }
    })();
    const list = [...(ledger.xUtxos.get(hex) ?? [])].map((u) => utxoById.get(u.id)!);
    return list.filter(
      (u) => includePartial || (u.addresses.length === 1 && u.locktime <= state.world.now),
    );
  };
  const txJson = (tx: XTx) => {
    const outs = tx.utxoIds.map((id) => utxoById.get(id)!);
    const parts = ledger.xTx(tx);
    return {
      unsignedTx: {
        networkID: info.networkId,
        blockchainID: info.xChainId,
        outputs: outs.map((u) => ({
          assetID: u.assetId,
          fxID: SECP_FX_ID,
          output: {
            addresses: u.addresses.map((a) => `X-${a}`),
            amount: Number(u.amount),
            locktime: u.locktime,
            threshold: u.threshold,
          },
        })),
        inputs: parts.ins.map((i) => ({
          txID: cb58(Buffer.from(i.txIdHex, 'hex')),
          outputIndex: i.outputIndex,
          assetID: cb58(Buffer.from(i.assetIdHex, 'hex')),
          fxID: SECP_FX_ID,
          input: { amount: Number(i.amount), signatureIndices: [0] },
        })),
        memo: `0x${Buffer.from(tx.memo).toString('hex')}`,
      },
      credentials: parts.sigs.map((sig) => ({
        fxID: SECP_FX_ID,
        credential: { signatures: [`0x${sig}`] },
      })),
      id: tx.id,
    };
  };
  const blockReply = (
    id: string | undefined,
    missing: string,
    encoding: 'hex' | 'hexc' | 'hexnc' | 'json',
  ) => {
    const block = id ? x.blockById.get(id) : undefined;
    if (!block) throw new NodeRpcError(missing);
    if (encoding === 'json') {
      const txs = block.txIds.map((t) => txJson(x.txById.get(t)!));
      return {
        block: {
          parentID: block.parentId,
          height: block.height,
          time: block.timestamp,
          merkleRoot: EMPTY_ID,
          txs,
          id: block.id,
        },
        encoding,
      };
    }
    return { block: encodeBytes(encoding, ledger.xBlockHex(block)), encoding };
  };
  const requireTxId = (txID: string) => {
    if (txID === EMPTY_ID) throw new NodeRpcError('nil transaction ID');
  };

  return {
    name: 'avm',
    methods: {
      getAllBalances: method(
        { address: 'string', includePartial: 'bool' },
        ({ address, includePartial }) => {
          const totals = new Map<string, bigint>();
          for (const u of ownUtxos(address, includePartial))
            totals.set(u.assetId, (totals.get(u.assetId) ?? 0n) + u.amount);
          const balances = [...totals.entries()]
            .map(([assetId, balance]) => ({
              asset: assetId === info.avaxAssetId ? 'AVAX' : assetId,
              balance: String(balance),
            }))
            .sort((a, b) =>
              a.asset === 'AVAX' ? -1 : b.asset === 'AVAX' ? 1 : a.asset.localeCompare(b.asset),
            );
          return { balances };
        },
      ),
      getAssetDescription: method({ assetID: 'string' }, ({ assetID }) => {
        const id = lookupAsset(assetID);
        const asset = x.assets.find((a) => a.assetId === id);
        if (!asset) {
          if (x.txById.has(id)) throw new NodeRpcError("transaction doesn't create an asset");
          throw new NodeRpcError('not found');
        }
        return {
          assetID: asset.assetId,
          name: asset.name,
          symbol: asset.symbol,
          denomination: String(asset.denomination),
        };
      }),
      getBalance: method({ address: 'string', assetID: 'string', includePartial: 'bool' }, (a) => {
        const owned = ownUtxos(a.address, a.includePartial);
        const assetId = lookupAsset(a.assetID);
        const mine = owned.filter((u) => u.assetId === assetId);
        return {
          balance: String(mine.reduce((s, u) => s + u.amount, 0n)),
          utxoIDs: mine.map((u) => ({ txID: u.txId, outputIndex: u.outputIndex })),
        };
      }),
      getBlock: method({ blockID: 'id', encoding: 'encoding' }, ({ blockID, encoding }) =>
        blockReply(blockID, `couldn't get block with id ${blockID}: not found`, encoding),
      ),
      getBlockByHeight: method(
        { height: 'uint64', encoding: 'encoding' },
        ({ height, encoding }) => {
          const block = heightIndex.get(Number(height));
          return blockReply(
            block?.id,
            `couldn't get block at height ${height}: not found`,
            encoding,
          );
        },
      ),
      getHeight: method({}, () => ({ height: String(x.blocks.at(-1)!.height) })),
      getTx: method({ txID: 'id', encoding: 'encoding' }, ({ txID, encoding }) => {
        requireTxId(txID);
        const issued = state.issued.get(txID);
        if (issued?.chain === 'X') {
          if (encoding === 'json') throw new NodeRpcError('unsupported encoding in method');
          return { tx: encodeBytes(encoding, issued.bytesHex), encoding };
        }
        const tx = x.txById.get(txID);
        if (!tx) throw new NodeRpcError('not found');
        if (encoding === 'json') return { tx: txJson(tx), encoding };
        return { tx: encodeBytes(encoding, ledger.xTx(tx).hex), encoding };
      }),
      getTxFee: method({}, () => ({ txFee: TX_FEE, createAssetTxFee: CREATE_ASSET_TX_FEE })),
      getTxStatus: method({ txID: 'id' }, ({ txID }) => {
        requireTxId(txID);
        const known = x.txById.has(txID) || state.issued.get(txID)?.chain === 'X';
        return { status: known ? 'Accepted' : 'Unknown' };
      }),
      getUTXOs: method(GET_UTXOS_ARGS, (args) =>
        getUtxos(
          state,
          { id: info.xChainId, alias: 'X' },
          args,
          (source) =>
            source === info.xChainId ? ledger.xUtxos : (ledger.atomic.X.get(source) ?? new Map()),
          false,
        ),
      ),
      issueTx: method({ tx: 'string', encoding: 'encoding' }, ({ tx, encoding }) => {
        let bytesHex: string;
        try {
          bytesHex = decodeBytes(encoding, tx);
        } catch (e) {
          throw new NodeRpcError(`problem decoding transaction: ${(e as Error).message}`);
        }
        if (bytesHex.length < 12)
          throw new NodeRpcError("couldn't unmarshal interface: insufficient length for input");
        if (!bytesHex.startsWith('0000')) throw new NodeRpcError('unknown codec version');
        const txID = idOf(bytesHex);
        state.issued.set(txID, { id: txID, bytesHex, chain: 'X' });
        return { txID };
      }),
    },
  };
}
