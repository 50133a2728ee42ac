import { hashString, Rng } from '../world/prng.js';

/**
 * `SIM_VARY=<seed>` for the node's JSON-RPC answers (`/node`, packages/simulator/src/node-rpc): each result becomes
 * another answer the real node may send, within what avalanchego (gorilla services, `json.Uint64`
 * decimal strings, `omitempty` fields, Go sets marshalled as `[]`) and coreth/geth (0x-hex
 * quantities, `false` or a progress object for `eth_syncing`) send, after the examples in
 * the node examples (SPEC_DIR `examples/node/`). The node has no OpenAPI spec, so the rules are kept here, one
 * per method; a method without a rule is answered as is.
 *
 * - uint64 amounts (fees, balances, weights), which the node sends as decimal strings, may be 0,
 *   2^53 + 2 or uint64 max; EVM quantities (fees, balances) may be 0x0 or far above 2^53;
 * - `omitempty` fields may be absent (`publicIP`, `fxs`, `blockHeight` of a tx not yet in a block
 *   is not touched: it follows the status); Go sets and slices may be empty (a peer's tracked
 *   subnets, benched chains and ACPs; ACP supporters / objectors; a VM's aliases; the peer list);
 * - the newest upgrade at avalanchego's unscheduled activation time (`info.upgrades`), and a fork
 *   newer than the gateway knows in `eth_getChainConfig`;
 * - `numPeers` as the JSON number of older releases (the example) instead of json.Uint64's string;
 * - booleans both ways (`isBootstrapped`), `eth_syncing` as a progress object;
 * - percentages (float64 printed with 4 decimals) at 0 and 100;
 * - version strings in the other forms real nodes send (`avalanche/1.9.1` before the rename,
 *   an empty `gitCommit` when built without ldflags, coreth's `v0.x.y` / `v0.x.y-rc.z`).
 *
 * Identities are never touched: node ids, chain / VM / asset / tx / UTXO ids, block hashes and
 * numbers, heights, addresses, network ids, statuses. Each field's variant is a function of (seed,
 * method, the field's path, its value), never of time or call count, so the same upstream content
 * always gets the same variant.
 */

const UINT64_MAX = '18446744073709551615';
const ABOVE_2_53 = String(2 ** 53 + 2);
/** EVM quantities far above 2^53 (uint64 max, and a 256-bit balance). */
const HEX_BIG = ['0xffffffffffffffff', `0x${'f'.repeat(40)}`];
const P_VARY = 0.3;
/** avalanchego upgrade.UnscheduledActivationTime (9999-12-01T00:00:00Z), and as a Unix time. */
const UNSCHEDULED_ISO = '9999-12-01T00:00:00Z';
const UNSCHEDULED_UNIX = 253399622400;

type Json = Record<string, unknown>;
type Rule = (result: unknown, f: Fields) => unknown;

/** Per-field draws: a field at `path` with value `v` varies (or not) the same way every time. */
class Fields {
  constructor(
    readonly seed: string,
    readonly method: string,
  ) {}

  rng(path: string, v: unknown): Rng {
    return new Rng(`${this.seed}|${this.method}|${path}|${hashString(JSON.stringify(v) ?? '')}`);
  }

  /** True with probability P_VARY for this field and value. */
  hit(path: string, v: unknown): boolean {
    return this.rng(path, v).next() < P_VARY;
  }

  pick<T>(path: string, v: unknown, xs: readonly T[]): T {
    const r = this.rng(path, v);
    r.next();
    return r.pick(xs);
  }

  /** A uint64 decimal string (json.Uint64) at an edge, or as it is. */
  u64(path: string, v: unknown): unknown {
    if (typeof v !== 'string' || !/^\d+$/.test(v) || !this.hit(path, v)) return v;
    return this.pick(path, v, ['0', ABOVE_2_53, UINT64_MAX]);
  }

  /** A 0x-hex quantity at an edge, or as it is. */
  hex(path: string, v: unknown): unknown {
    if (typeof v !== 'string' || !/^0x[0-9a-f]+$/i.test(v) || !this.hit(path, v)) return v;
    return this.pick(path, v, ['0x0', ...HEX_BIG]);
  }

  /** A list (Go slice / set) emptied, or as it is. */
  list(path: string, v: unknown): unknown {
    return Array.isArray(v) && v.length > 0 && this.hit(`${path}#empty`, v) ? [] : v;
  }

  /** An `omitempty` field left out: `undefined` means delete. */
  omit(path: string, v: unknown): boolean {
    return v !== undefined && this.hit(`${path}#omit`, v);
  }
}

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Applies `fn` to the listed uint64 fields of an object. */
function u64Fields(o: unknown, f: Fields, keys: string[], prefix = ''): unknown {
  if (!isObj(o)) return o;
  for (const k of keys) if (k in o) o[k] = f.u64(`${prefix}${k}`, o[k]);
  return o;
}

const hexResult: Rule = (r, f) => f.hex('', r);

export const NODE_RULES: Record<string, Rule> = {
  'info.getNodeVersion': (r, f) => {
    if (!isObj(r)) return r;
    // Before v1.9.x the client name was `avalanche/`; the semantic version keeps its three parts.
    if (typeof r.version === 'string' && f.hit('version', r.version))
      r.version = r.version.replace(/^avalanchego\//, 'avalanche/');
    // A node built without the git commit ldflag answers an empty gitCommit.
    if (typeof r.gitCommit === 'string' && f.hit('gitCommit', r.gitCommit)) r.gitCommit = '';
    return r;
  },
  'info.isBootstrapped': (r, f) => {
    if (
      isObj(r) &&
      typeof r.isBootstrapped === 'boolean' &&
      f.hit('isBootstrapped', r.isBootstrapped)
    )
      r.isBootstrapped = !r.isBootstrapped;
    return r;
  },
  'info.peers': (r, f) => {
    if (!isObj(r) || !Array.isArray(r.peers)) return r;
    // No peer connected (yet): an empty list and numPeers "0".
    const ids = r.peers.map((p) => (isObj(p) ? p.nodeID : p));
    if (r.peers.length > 0 && f.list('peers', ids) !== ids) {
      r.peers = [];
      r.numPeers = typeof r.numPeers === 'number' ? 0 : '0';
      return r;
    }
    // Older releases (the docs' example) send numPeers as a JSON number.
    if (typeof r.numPeers === 'string' && f.hit('numPeers', r.numPeers))
      r.numPeers = Number(r.numPeers);
    for (const p of r.peers) {
      if (!isObj(p)) continue;
      const id = String(p.nodeID);
      // peer.Info: `publicIP` is omitempty; the Go sets marshal as [] when empty.
      if (f.omit(`${id}.publicIP`, p.publicIP)) delete p.publicIP;
      for (const k of ['trackedSubnets', 'supportedACPs', 'objectedACPs', 'benched'])
        if (k in p) p[k] = f.list(`${id}.${k}`, p[k]);
      if (typeof p.observedUptime === 'string' && f.hit(`${id}.observedUptime`, p.observedUptime))
        p.observedUptime = f.pick(`${id}.observedUptime`, p.observedUptime, ['0', '100']);
      if (typeof p.version === 'string' && f.hit(`${id}.version`, p.version))
        p.version = p.version.replace(/^avalanchego\//, 'avalanche/');
    }
    return r;
  },
  'info.uptime': (r, f) => {
    if (!isObj(r)) return r;
    for (const k of ['rewardingStakePercentage', 'weightedAveragePercentage']) {
      if (typeof r[k] === 'string' && f.hit(k, r[k]))
        r[k] = f.pick(k, r[k], ['0.0000', '100.0000']);
    }
    return r;
  },
  'info.getVMs': (r, f) => {
    if (!isObj(r)) return r;
    // `fxs` is newer than the docs' example (older nodes do not send it).
    if (f.omit('fxs', r.fxs)) delete r.fxs;
    if (isObj(r.vms))
      for (const id of Object.keys(r.vms)) r.vms[id] = f.list(`vms.${id}`, r.vms[id]);
    return r;
  },
  'info.getTxFee': (r, f) => {
    if (!isObj(r)) return r;
    return u64Fields(r, f, Object.keys(r));
  },
  'info.acps': (r, f) => {
    if (!isObj(r) || !isObj(r.acps)) return r;
    for (const [acp, pref] of Object.entries(r.acps)) {
      if (!isObj(pref)) continue;
      u64Fields(pref, f, ['supportWeight', 'objectWeight', 'abstainWeight'], `${acp}.`);
      for (const k of ['supporters', 'objectors'])
        if (k in pref) pref[k] = f.list(`${acp}.${k}`, pref[k]);
    }
    return r;
  },
  'avm.getTxFee': (r, f) => u64Fields(r, f, ['txFee', 'createAssetTxFee']),
  'avm.getBalance': (r, f) => u64Fields(r, f, ['balance']),
  'avm.getAllBalances': (r, f) => {
    if (!isObj(r) || !Array.isArray(r.balances)) return r;
    for (const b of r.balances) if (isObj(b)) u64Fields(b, f, ['balance'], `${String(b.asset)}.`);
    return r;
  },
  'avm.getAssetDescription': (r, f) => {
    // denomination is a json.Uint8: 0 (indivisible) is valid.
    if (isObj(r) && typeof r.denomination === 'string' && f.hit('denomination', r.denomination))
      r.denomination = '0';
    return r;
  },
  'info.upgrades': (r, f) => {
    // A node whose release schedules an upgrade but not its time answers avalanchego's
    // upgrade.UnscheduledActivationTime for it; only the newest upgrade can be unscheduled.
    if (!isObj(r)) return r;
    const times = Object.keys(r).filter((k) => k.endsWith('Time') && typeof r[k] === 'string');
    const last = times.sort((a, b) => String(r[a]).localeCompare(String(r[b]))).pop();
    if (last && f.hit(last, r[last])) r[last] = UNSCHEDULED_ISO;
    return r;
  },
  eth_getChainConfig: (r, f) => {
    // A newer coreth knows an upgrade this contract does not (`omitempty` pointers: present only
    // when set), at the unscheduled activation time.
    if (isObj(r) && f.hit('newerFork', r.chainId) && !('heliconTimestamp' in r))
      r.heliconTimestamp = UNSCHEDULED_UNIX;
    return r;
  },
  eth_baseFee: hexResult,
  eth_gasPrice: hexResult,
  eth_maxPriorityFeePerGas: hexResult,
  eth_getBalance: hexResult,
  eth_syncing: (r, f) =>
    // Still syncing: geth's progress object (more fields than these three on newer clients).
    r === false && f.hit('syncing', r)
      ? { startingBlock: '0x0', currentBlock: '0x1', highestBlock: HEX_BIG[0] }
      : r,
  web3_clientVersion: (r, f) =>
    typeof r === 'string' && f.hit('clientVersion', r)
      ? f.pick('clientVersion', r, ['v0.8.13', 'v0.15.4-rc.1'])
      : r,
};

/** Methods this varier knows (for tests and reports). */
export const VARIED_NODE_METHODS = Object.keys(NODE_RULES);

export class NodeVarier {
  readonly #seed: string;
  /** Methods answered with a (possibly unchanged) variant since start. */
  readonly variedMethods = new Set<string>();

  constructor(seed: string) {
    this.#seed = seed;
  }

  /**
   * A variant of a JSON-RPC reply (one envelope or a batch), given the methods of the request in
   * order; `body` is not modified. Error replies and unknown methods are left as they are.
   */
  vary(body: unknown, methods: readonly string[]): unknown {
    if (Array.isArray(body)) {
      // Batch replies come in request order; notifications (no reply) would misalign them.
      if (body.length !== methods.length) return body;
      return body.map((b, i) => this.#one(b, methods[i]!));
    }
    return methods.length === 1 ? this.#one(body, methods[0]!) : body;
  }

  #one(envelope: unknown, method: string): unknown {
    const rule = NODE_RULES[method];
    if (!rule || !isObj(envelope) || !('result' in envelope) || 'error' in envelope)
      return envelope;
    this.variedMethods.add(method);
    const copy = structuredClone(envelope);
    copy.result = rule(copy.result, new Fields(this.#seed, method));
    return copy;
  }
}
