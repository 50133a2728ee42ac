import { get } from './journeys.js';

/**
 * The bench's freshness check: answers compared with the simulator's truth at the heads around the
 * moment they were given, so a run that saves CUs by serving old data shows it. Checked, for every
 * answer of these views in a window (or a sample of `max`):
 * - an address's native balance (`ExplorerAddressSummary`, `WalletPortfolio`: the Data API's
 *   `balances:getNative`): it must equal the balance the Data API gives at some block from
 *   `nativeBoundBlocks` before the head the request was sent at to the head its answer arrived at.
 *   The bound is what docs/caching.md declares for a value no block shows (AVAX a contract pays a plain
 *   address): the touch window, plus the Data API's indexing lag, plus the head in flight.
 * - an account's state at a pinned head (`WalletState`: `evmState { blockNumber account { balance
 *   nonce } }`): the head must be no more than `headBoundBlocks` behind the one the request was sent
 *   at, and the balance and nonce the node's own at that block, exactly.
 * The truth is asked of the same simulator after the window's CUs are counted (the Data API's
 * `blockNumber` parameter and the node's JSON-RPC at a block number), so it is not charged to the run.
 */
export interface FreshnessSample {
  operation: string;
  chainId: string;
  address: string;
  /** The head the bench had made when it sent the request, and when the answer arrived. */
  sentAt: number;
  answeredAt: number;
  balance?: string;
  /** The answer said it was served stale (`extensions.cache.stale`: stale-if-error, its own bound). */
  flaggedStale?: boolean;
  /** WalletState only: the pinned head and the account's nonce there. */
  pinned?: number;
  nonce?: string;
}

export interface FreshnessReport {
  checked: number;
  violations: number;
  /** Of the violations, answers that said they were stale (served on an upstream error). */
  flaggedStale: number;
  examples: string[];
}

type Data = Record<string, unknown> | undefined;

/** The sample an answer gives, or undefined for views the check does not read. */
export function sampleOf(
  operation: string,
  variables: Record<string, unknown> | undefined,
  data: Data,
  sentAt: number,
  answeredAt: number,
): FreshnessSample | undefined {
  const chainId = variables?.chainId;
  const address = variables?.address;
  if (typeof chainId !== 'string' || typeof address !== 'string' || !data) return undefined;
  const base = { operation, chainId, address: address.toLowerCase(), sentAt, answeredAt };
  if (operation === 'ExplorerAddressSummary' || operation === 'WalletPortfolio') {
    const balance = get(data, 'address', 'balance', 'balance');
    return typeof balance === 'string' ? { ...base, balance } : undefined;
  }
  if (operation === 'WalletState') {
    const pinned = Number(get(data, 'evmState', 'blockNumber'));
    const balance = get(data, 'evmState', 'account', 'balance');
    const nonce = get(data, 'evmState', 'account', 'nonce');
    if (!Number.isSafeInteger(pinned) || typeof balance !== 'string' || typeof nonce !== 'string')
      return undefined;
    return { ...base, pinned, balance, nonce };
  }
  return undefined;
}

export interface Truth {
  /** The Data API's native balance of `address` at `block`; undefined when it has not indexed it. */
  dataApiBalance(chainId: string, address: string, block: number): Promise<string | undefined>;
  /** The node's balance and nonce of `address` at `block`. */
  nodeAccount(address: string, block: number): Promise<{ balance: string; nonce: string }>;
}

export async function checkFreshness(
  samples: readonly FreshnessSample[],
  truth: Truth,
  bounds: { nativeBoundBlocks: number; headBoundBlocks: number; max: number },
): Promise<FreshnessReport> {
  // Evenly spread over the window when there are more than `max`.
  const step = Math.max(1, samples.length / bounds.max);
  const picked: FreshnessSample[] = [];
  for (let i = 0; i < samples.length && picked.length < bounds.max; i += step)
    picked.push(samples[Math.floor(i)]!);
  const report: FreshnessReport = { checked: 0, violations: 0, flaggedStale: 0, examples: [] };
  const violation = (s: FreshnessSample, why: string) => {
    report.violations++;
    if (s.flaggedStale) report.flaggedStale++;
    if (report.examples.length < 5)
      report.examples.push(
        `${s.operation} ${s.address} (sent at head ${s.sentAt}${s.flaggedStale ? ', flagged stale' : ''}): ${why}`,
      );
  };
  const queue = [...picked];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let s = queue.shift(); s; s = queue.shift()) {
        report.checked++;
        if (s.pinned !== undefined) {
          if (s.pinned < s.sentAt - bounds.headBoundBlocks)
            violation(s, `pinned head ${s.pinned} is older than its bound`);
          else {
            const node = await truth.nodeAccount(s.address, s.pinned);
            if (node.balance !== s.balance || node.nonce !== s.nonce)
              violation(
                s,
                `balance ${s.balance} nonce ${s.nonce} at ${s.pinned}, the node's ${node.balance} / ${node.nonce}`,
              );
          }
          continue;
        }
        let ok = false;
        for (let b = s.answeredAt; b >= s.sentAt - bounds.nativeBoundBlocks && !ok; b--)
          ok = (await truth.dataApiBalance(s.chainId, s.address, b)) === s.balance;
        if (!ok)
          violation(
            s,
            `balance ${s.balance} is none of the Data API's from block ${s.sentAt - bounds.nativeBoundBlocks} to ${s.answeredAt}`,
          );
      }
    }),
  );
  return report;
}

/** The truth of a running simulator, read through its public routes (after the window's count). */
export function simulatorTruth(sim: { dataApiUrl: string; nodeUrl: string }): Truth {
  const rpc = async (method: string, params: unknown[]) => {
    const r = await fetch(`${sim.nodeUrl}/ext/bc/C/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await r.json()) as { result?: string; error?: { message?: string } };
    if (typeof body.result !== 'string') throw new Error(`${method}: ${body.error?.message}`);
    return body.result;
  };
  return {
    async dataApiBalance(chainId, address, block) {
      const r = await fetch(
        `${sim.dataApiUrl}/v1/chains/${chainId}/addresses/${address}/balances:getNative?blockNumber=${block}`,
      );
      if (r.status === 400) return undefined;
      if (!r.ok) throw new Error(`getNative at ${block}: HTTP ${r.status}`);
      const body = (await r.json()) as { nativeTokenBalance: { balance: string } };
      return body.nativeTokenBalance.balance;
    },
    async nodeAccount(address, block) {
      const tag = `0x${block.toString(16)}`;
      const [balance, nonce] = await Promise.all([
        rpc('eth_getBalance', [address, tag]),
        rpc('eth_getTransactionCount', [address, tag]),
      ]);
      return { balance: BigInt(balance).toString(), nonce: BigInt(nonce).toString() };
    },
  };
}
