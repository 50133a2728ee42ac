import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, parse, print } from 'graphql';
import type { Documents } from './driver.js';
import {
  type Ask,
  CHAIN,
  headOf,
  type Journey,
  type JourneyOptions,
  STAKING_FILTERS,
} from './journeys.js';

/**
 * The peer's side of the same journeys (bench/workload/peer/peer.graphql): the views runJourney asks with
 * `views: 'peer'`, as Mesh's root fields. Independent components of one page go in one request where
 * the peer needs no answer in between (its fields run in parallel), as a Mesh user would write them.
 */
export function peerDocuments(): Documents {
  const here = dirname(fileURLToPath(import.meta.url));
  const out: Documents = {};
  for (const def of parse(readFileSync(join(here, 'peer', 'peer.graphql'), 'utf8')).definitions)
    if (def.kind === Kind.OPERATION_DEFINITION && def.name) out[def.name.value] = print(def);
  return out;
}

const SORT: Record<string, string> = {
  DELEGATION_CAPACITY: 'delegationCapacity',
  UPTIME_PERFORMANCE: 'uptimePerformance',
  DELEGATION_FEE: 'delegationFee',
  TIME_REMAINING: 'timeRemaining',
};
type Any = Record<string, any> | undefined;
const at = <T>(list: T[] | undefined, u: number): T | undefined =>
  list?.length ? list[Math.floor(u * list.length)] : undefined;

export async function runPeerJourney(j: Journey, ask: Ask, o: JourneyOptions): Promise<void> {
  const c = CHAIN;
  const a = j.address;
  switch (j.kind) {
    case 'explorer-home':
      await ask('PeerHome', { c });
      return;
    case 'explorer-block': {
      const id = o.pop.blockNumber(j.blockRank, headOf(j, o));
      const b = (await ask('PeerBlock', { c, id })) as Any;
      const tx = at<{ txHash: string }>(b?.getTransactionsForBlock?.transactions, j.pick);
      if (tx) await ask('PeerTransaction', { c, hash: tx.txHash });
      return;
    }
    case 'explorer-address': {
      await ask('PeerAddressSummary', { c, a });
      const p1 = (await ask('PeerAddressNative', { c, a })) as Any;
      const token = p1?.listNativeTransactions?.nextPageToken;
      if (token) await ask('PeerAddressNative', { c, a, token });
      return;
    }
    case 'wallet': {
      await ask('PeerWalletPortfolio', { c, a });
      const p1 = (await ask('PeerWalletHistory', { c, a })) as Any;
      const token = p1?.listTransactions?.nextPageToken;
      if (token) await ask('PeerWalletHistory', { c, a, token });
      return;
    }
    case 'staking': {
      const f = STAKING_FILTERS[j.filter]!;
      await ask('PeerStakingValidators', { ...f, sortBy: SORT[String(f.sortBy)] });
      await ask('PeerStakingValidator', { nodeId: j.nodeId });
      await ask('PeerStakingRewards', { nodeId: j.nodeId });
      return;
    }
    case 'icm': {
      const list = (await ask('PeerIcmByAddress', { a })) as Any;
      const m = at<{ messageId?: string }>(list?.listIcmMessagesByAddress?.messages, j.pick);
      if (!m?.messageId) return;
      const msg = ((await ask('PeerIcmMessage', { id: m.messageId })) as Any)?.getIcmMessage;
      if (!msg?.sourceTransaction?.txHash) return;
      await ask('PeerIcmSides', {
        src: msg.sourceEvmChainId,
        dst: msg.destinationEvmChainId,
        srcTx: msg.sourceTransaction.txHash,
      });
      return;
    }
  }
}
