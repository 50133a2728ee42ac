import { createHash } from 'node:crypto';
import { createAddressBook } from '@avalanche-gateway/simulator/world/address-book.js';
import { cb58 } from '@avalanche-gateway/simulator/world/encoding.js';

/**
 * The 10,000 addresses, blocks and validators the journeys draw from (Zipf ranks 1..size). The
 * simulator's world has fewer addresses and validators than that, so the most popular ranks are the
 * world's own (addresses: its ordinary EOAs, relayers, then its busy EOAs; validators: the
 * network's, as its list returns them) and the rest are well-formed ids the world does not know, which
 * the upstream answers with empty lists and zero balances at the same price: every rank is a distinct
 * upstream question, as 10,000 real ones would be. Blocks are real: the chain is advanced to at least
 * `size` blocks before the run, and rank r is the block r − 1 below the head at the time of the visit.
 */
export interface Population {
  size: number;
  address(rank: number): string;
  nodeId(rank: number): string;
  blockNumber(rank: number, head: number): string;
  /** How many ranks are the world's own (the rest answer empty). */
  worldAddresses: number;
  worldValidators: number;
}

const synthetic = (label: string, bytes: number) =>
  createHash('sha256').update(label).digest().subarray(0, bytes);

export function createPopulation(seed: string, validatorIds: string[], size = 10_000): Population {
  const book = createAddressBook(seed);
  // Ordinary EOAs first: the simulator computes a balance by scanning the address's history, 50–280 ms
  // a call for its three busy EOAs once the chain is 10,000 blocks long, and at the top ranks that scan
  // (not the gateway) would set the run's latency. Which ids are popular does not change what one costs.
  const world = [...book.ordinary, ...book.relayers, ...book.busy];
  const addresses = Array.from({ length: size }, (_, i) =>
    i < world.length ? world[i]! : `0x${synthetic(`workload-address-${i}`, 20).toString('hex')}`,
  );
  const nodeIds = Array.from({ length: size }, (_, i) =>
    i < validatorIds.length
      ? validatorIds[i]!
      : `NodeID-${cb58(synthetic(`workload-validator-${i}`, 20))}`,
  );
  return {
    size,
    address: (rank) => addresses[rank - 1]!,
    nodeId: (rank) => nodeIds[rank - 1]!,
    blockNumber: (rank, head) => String(head - (rank - 1)),
    worldAddresses: Math.min(world.length, size),
    worldValidators: Math.min(validatorIds.length, size),
  };
}

/** Every validator node id the simulated Data API lists for mainnet (distinct, in its order). */
export async function listValidatorIds(dataApiUrl: string): Promise<string[]> {
  const ids = new Set<string>();
  let token: string | undefined;
  do {
    const q = new URLSearchParams({ pageSize: '100', ...(token ? { pageToken: token } : {}) });
    const r = await fetch(`${dataApiUrl}/v1/networks/mainnet/validators?${q}`);
    if (!r.ok) throw new Error(`listing validators: ${r.status}`);
    const body = (await r.json()) as { validators: { nodeId: string }[]; nextPageToken?: string };
    for (const v of body.validators) ids.add(v.nodeId);
    token = body.nextPageToken || undefined;
  } while (token);
  return [...ids];
}
