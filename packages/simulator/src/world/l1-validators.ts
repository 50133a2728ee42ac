import { cb58, toHex } from './encoding.js';
import type { Rng } from './prng.js';
import type { L1Info, L1ValidatorRecord } from './types-primary.js';
import { randomBls, randomNodeId } from './validators.js';

/** L1 validators (ACP-77): per L1 a set of validators, about one in ten inactive. */
export function createL1Validators(
  rng: Rng,
  l1s: { l1: L1Info; count: number }[],
  o: { now: number; selfNodeId: string; owners: string[] },
): L1ValidatorRecord[] {
  const out: L1ValidatorRecord[] = [];
  for (const { l1, count } of l1s) {
    for (let i = 0; i < count; i++) {
      const idBytes = rng.bytes(32);
      const owner = { addresses: [rng.pick(o.owners)], threshold: 1 };
      out.push({
        validationId: cb58(idBytes),
        validationIdHex: `0x${toHex(idBytes)}`,
        nodeId: i === 0 && l1.evmChainId ? o.selfNodeId : randomNodeId(rng),
        subnetId: l1.subnetId,
        weight: rng.int(1, 100) * 20,
        remainingBalance: rng.int(0, 5000) * 1_000_000_000 + rng.int(0, 999_999_999),
        creationTimestamp: o.now - rng.int(1, 280) * 86_400 - rng.int(0, 86_399),
        bls: randomBls(rng),
        remainingBalanceOwner: owner,
        deactivationOwner: rng.chance(0.7)
          ? owner
          : { addresses: [rng.pick(o.owners), rng.pick(o.owners)], threshold: 1 },
        active: i === 0 || !rng.chance(0.1),
      });
    }
  }
  return out.sort(
    (a, b) =>
      a.creationTimestamp - b.creationTimestamp || a.validationId.localeCompare(b.validationId),
  );
}
