import type { Population } from './population.js';
import { type Rand, zipf } from './zipf.js';

/**
 * The user journeys: what a page asks, step by step, each step one user request (one operation of
 * bench/workload/*.graphql). A journey is drawn once (its address, block, validator and choices) and can
 * then be replayed on any side: the gateway, a frontend calling the Data API directly (direct.ts), or
 * the peer (peer-journeys.ts), so all three answer the same visits.
 */
export type Family = 'explorer' | 'wallet' | 'staking' | 'icm';
export type Kind =
  | 'explorer-home'
  | 'explorer-block'
  | 'explorer-address'
  | 'wallet'
  | 'staking'
  | 'icm';

export interface Journey {
  kind: Kind;
  family: Family;
  address: string;
  blockRank: number;
  nodeId: string;
  /** Which of the staking table's filter sets the user picked. */
  filter: number;
  /** A uniform draw in [0, 1): which row of a list the user clicks. */
  pick: number;
  /**
   * The chain head when the journey arrived (set by the driver): a replay (the floors) visits the block
   * the user visited, in the window's own time, not the block of the same rank at the replay's head.
   */
  head?: number;
}

/** The head a journey's block rank counts down from: its own arrival's, else the head now. */
export const headOf = (j: Journey, o: JourneyOptions): number => j.head ?? o.head();

export const CHAIN = '43114';
export const NETWORK = 'mainnet';

/** The families' shares of journeys (issue 33: 50 / 25 / 15 / 10) and the explorer's pages. */
const MIX: [Kind, Family, number][] = [
  ['explorer-home', 'explorer', 0.5 * 0.3],
  ['explorer-block', 'explorer', 0.5 * 0.35],
  ['explorer-address', 'explorer', 0.5 * 0.35],
  ['wallet', 'wallet', 0.25],
  ['staking', 'staking', 0.15],
  ['icm', 'icm', 0.1],
];

/** The staking table's filter sets a user picks from (sort, minimum capacity, uptime, fee). */
export const STAKING_FILTERS: Record<string, unknown>[] = [
  { sortBy: 'DELEGATION_CAPACITY' },
  { sortBy: 'UPTIME_PERFORMANCE', minUptimePerformance: 90 },
  { sortBy: 'DELEGATION_FEE', maxFeePercentage: 5 },
  { sortBy: 'TIME_REMAINING', minDelegationCapacity: '1000000000000' },
];

export function journeyDrawer(pop: Population, s = 1.1): (rand: Rand) => Journey {
  const rank = zipf(pop.size, s);
  return (rand) => {
    let u = rand();
    let row = MIX[MIX.length - 1]!;
    for (const m of MIX) {
      if (u < m[2]) {
        row = m;
        break;
      }
      u -= m[2];
    }
    return {
      kind: row[0],
      family: row[1],
      address: pop.address(rank(rand)),
      blockRank: rank(rand),
      nodeId: pop.nodeId(rank(rand)),
      filter: Math.floor(rand() * STAKING_FILTERS.length),
      pick: rand(),
    };
  };
}

/** One user request: an operation of bench/workload/*.graphql and its variables; resolves to `data`. */
export type Ask = (operation: string, variables: Record<string, unknown>) => Promise<unknown>;

export interface JourneyOptions {
  /** The chain head now (blocks are drawn below it). */
  head: () => number;
  pop: Population;
  /**
   * `peer`: only the views the peer can serve (Mesh's composition of the Data API spec has no ERC-20 or
   * ERC-721 lists, no Metrics API, no node): the same journeys for the peer comparison. @default 'all'
   */
  views?: 'all' | 'peer';
}

type Conn = {
  edges: { node: Record<string, unknown> }[];
  pageInfo?: { hasNextPage: boolean; endCursor: string | null };
};
/** The value at `path` in an answer's data (undefined where any step is missing). */
export const get = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined),
    o,
  );
const nextCursor = (c: unknown): string | undefined => {
  const p = (c as Conn | undefined)?.pageInfo;
  return p?.hasNextPage && p.endCursor ? p.endCursor : undefined;
};
const pickNode = (c: unknown, u: number): Record<string, unknown> | undefined => {
  const edges = (c as Conn | undefined)?.edges ?? [];
  return edges.length ? edges[Math.floor(u * edges.length)]!.node : undefined;
};

/** Runs one journey on the gateway (or any server of this schema): its steps in order. */
export async function runJourney(j: Journey, ask: Ask, o: JourneyOptions): Promise<void> {
  const chainId = CHAIN;
  const address = j.address;
  const peer = o.views === 'peer';
  switch (j.kind) {
    case 'explorer-home':
      await ask('ExplorerHomeLatest', { chainId });
      if (!peer) await ask('ExplorerHomeMetrics', { chainId });
      return;
    case 'explorer-block': {
      const id = o.pop.blockNumber(j.blockRank, headOf(j, o));
      const block = await ask('ExplorerBlock', { chainId, id });
      const tx = pickNode(get(block, 'block', 'transactions'), j.pick);
      if (tx) await ask('ExplorerTransaction', { chainId, hash: tx.hash });
      return;
    }
    case 'explorer-address': {
      await ask('ExplorerAddressSummary', { chainId, address });
      const [native, erc20] = await Promise.all([
        ask('ExplorerAddressNative', { chainId, address }),
        peer ? undefined : ask('ExplorerAddressErc20', { chainId, address }),
      ]);
      const n2 = nextCursor(get(native, 'address', 'nativeTransactions'));
      const e2 = nextCursor(get(erc20, 'address', 'erc20Transfers'));
      if (n2) await ask('ExplorerAddressNative', { chainId, address, after: n2 });
      if (e2) await ask('ExplorerAddressErc20', { chainId, address, after: e2 });
      return;
    }
    case 'wallet': {
      await ask(peer ? 'WalletPortfolioPeerViews' : 'WalletPortfolio', { chainId, address });
      const page1 = await ask('WalletHistory', { chainId, address });
      const after = nextCursor(get(page1, 'address', 'transactions'));
      if (after) await ask('WalletHistory', { chainId, address, after });
      if (!peer) await ask('WalletState', { chainId, address });
      return;
    }
    case 'staking': {
      const network = NETWORK;
      await ask('StakingValidators', { network, ...STAKING_FILTERS[j.filter] });
      await ask('StakingValidator', { network, nodeId: j.nodeId });
      await ask('StakingRewards', { network, nodeId: j.nodeId });
      if (!peer) await ask('StakingMetrics', { network });
      return;
    }
    case 'icm': {
      const list = await ask('IcmByAddress', { address });
      const m = pickNode(get(list, 'icmMessages'), j.pick);
      if (m) await ask('IcmMessageDetail', { id: m.messageId });
      return;
    }
  }
}
