import { decodeBytes, encodeBytes, idOf } from './codec.js';
import { EMPTY_ID } from './go-args.js';
import { type GorillaService, method, NodeRpcError } from './gorilla.js';
import { ledgerOf } from './ledger.js';
import type { NodeState } from './node-state.js';
import { GET_UTXOS_ARGS, getUtxos } from './utxo-service.js';

/**
 * `/ext/bc/C/avax` (service `avax`, coreth plugin/evm/atomic/vm/api.go): the C-Chain's shared
 * memory. `getUTXOs` needs `sourceChain` and returns the atomic UTXOs exported to the C-Chain
 * (addresses `C-avax1…`); `getAtomicTx`/`getAtomicTxStatus` know the C-Chain ExportTxs of the
 * ledger (accepted in a block of 43114) and txs issued through `avax.issueTx` (Processing).
 */

export function avaxService(state: NodeState): GorillaService {
  const info = state.net.info;
  const ledger = ledgerOf(state.world);
  const requireTxId = (txID: string) => {
    if (txID === EMPTY_ID) throw new NodeRpcError('nil transaction ID');
  };
  return {
    name: 'avax',
    methods: {
      getUTXOs: method(GET_UTXOS_ARGS, (args) =>
        getUtxos(
          state,
          { id: info.cChainId, alias: 'C' },
          args,
          (source) => ledger.atomic.C.get(source) ?? new Map(),
          true,
        ),
      ),
      issueTx: method({ tx: 'string', encoding: 'encoding' }, ({ tx, encoding }) => {
        let bytesHex: string;
        try {
          bytesHex = decodeBytes(encoding, tx);
        } catch (e) {
          throw new NodeRpcError(`problem decoding transaction: ${(e as Error).message}`);
        }
        if (bytesHex.length < 12 || !bytesHex.startsWith('0000')) {
          throw new NodeRpcError(
            `problem parsing transaction: ${bytesHex.length < 12 ? "couldn't unmarshal interface: insufficient length for input" : 'unknown codec version'}`,
          );
        }
        const txID = idOf(bytesHex);
        state.issued.set(txID, { id: txID, bytesHex, chain: 'C' });
        return { txID };
      }),
      getAtomicTxStatus: method({ txID: 'id' }, ({ txID }) => {
        requireTxId(txID);
        const tx = ledger.cAtomicTxs.get(txID);
        if (tx) return { status: 'Accepted', blockHeight: String(tx.blockHeight) };
        return { status: state.issued.get(txID)?.chain === 'C' ? 'Processing' : 'Unknown' };
      }),
      getAtomicTx: method({ txID: 'id', encoding: 'encoding' }, ({ txID, encoding }) => {
        requireTxId(txID);
        const tx = ledger.cAtomicTxs.get(txID);
        const issued = state.issued.get(txID);
        if (!tx && issued?.chain !== 'C') throw new NodeRpcError(`could not find tx ${txID}`);
        const reply: { tx: string; encoding: string; blockHeight?: string } = {
          tx: encodeBytes(encoding, tx ? tx.bytesHex : issued!.bytesHex),
          encoding,
        };
        if (tx) reply.blockHeight = String(tx.blockHeight);
        return reply;
      }),
    },
  };
}
