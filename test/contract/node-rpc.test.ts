import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_EXAMPLES, SPEC_DIR, specPath } from '../support/specs.js';

/**
 * Every node method the simulator serves answers in the shape of its example in
 * the node examples in SPEC_DIR (examples/node/, read in place): same keys and JSON types, recursively. The
 * example requests are replayed with ids of the simulated world substituted where the example's
 * own ids cannot exist in it. The error examples (examples/node/errors) are replayed verbatim and
 * must come back exactly.
 *
 * Rules of the comparison: every key of the example must be present with the same JSON type;
 * extra keys are allowed (the examples come from older docs and the current node returns more
 * fields, e.g. `fxs` of info.getVMs, `upgradeTime` of a peer); an empty array on either side
 * matches any array; elements are compared with the example's first element; "map" objects
 * (keyed by ids or names) compare each value with the example's first value.
 */

const EXAMPLES = pathToFileURL(specPath(NODE_EXAMPLES));
const read = (rel: string) => JSON.parse(readFileSync(new URL(rel, EXAMPLES), 'utf8')) as any;

const DIRS = ['info', 'admin', 'health', 'avm', 'c-avax', 'c-admin', 'c-rpc'];
/** Example files of methods the simulated node does not serve, and why. */
const NOT_SERVED: Record<string, string> = {
  'c-rpc/eth_callDetailed.json':
    'eth_callDetailed is not simulated (eth_call is: test/contract/node-evm-state.test.ts)',
  'c-rpc/eth_getBadBlocks.json': 'not simulated; the example has no response',
  'c-rpc/warp_getBlockAggregateSignature.json':
    'the warp API is off on the simulated node (warp-api-enabled: false, as by default)',
  'c-rpc/warp_getBlockSignature.json': 'warp API off',
  'c-rpc/warp_getMessage.json': 'warp API off',
  'c-rpc/warp_getMessageAggregateSignature.json': 'warp API off',
  'c-rpc/warp_getMessageSignature.json': 'warp API off',
};
/** Objects keyed by ids or names (compared value by value). Paths are below `result`. */
const MAPS: Record<string, string[]> = {
  'info.acps': ['acps'],
  'info.getVMs': ['vms'],
  'admin.getLoggerLevel': ['loggerLevels'],
  'admin.loadVMs': ['newVMs', 'failedVMs'],
};
/** Keys the real node omits when empty (`omitempty`) or that belong to another variant of the result. */
const OPTIONAL: Record<string, string[]> = {
  'admin.loadVMs': ['failedVMs'],
  // network/peer.Info: `PublicIP netip.AddrPort json:"publicIP,omitempty"` (SIM_VARY leaves it out).
  'info.peers': ['peers[].publicIP'],
  // The example is an ExportTx; the simulated X-Chain's txs are BaseTxs, which have no export fields.
  'avm.getTx': ['tx.unsignedTx.destinationChain', 'tx.unsignedTx.exportedOutputs'],
};
/** Where the example (docs) and the node's code disagree on a JSON type, the code wins. */
const TYPE_OVERRIDES: Record<string, Record<string, string>> = {
  // api/info PeersReply.NumPeers is avalanchego json.Uint64, which marshals as a string; the example
  // (an older release) has a JSON number, which SIM_VARY also sends.
  'info.peers': { numPeers: 'string|number' },
};

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Differences between an example value and an actual one, as readable paths. */
function shapeDiff(
  expected: unknown,
  actual: unknown,
  path = '',
  rules: { maps?: string[]; optional?: string[]; types?: Record<string, string> } = {},
): string[] {
  const wants = (rules.types?.[path] ?? kind(expected)).split('|');
  if (!wants.includes(kind(actual)))
    return [`${path || '(root)'}: expected ${wants.join(' or ')}, got ${kind(actual)}`];
  const want = kind(actual);
  if (want === 'array') {
    const [e] = expected as unknown[];
    const a = actual as unknown[];
    if (e === undefined) return [];
    return a
      .flatMap((x, i) => shapeDiff(e, x, `${path}[${i}]`.replace(/\[\d+\]$/, '[]'), rules))
      .filter((d, i, all) => all.indexOf(d) === i);
  }
  if (want !== 'object' || kind(expected) !== 'object') return [];
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const child = (k: string) => (path ? `${path}.${k}` : k);
  if (rules.maps?.includes(path)) {
    const first = Object.values(e)[0];
    return first === undefined
      ? []
      : Object.entries(a).flatMap(([k, v]) => shapeDiff(first, v, `${path}.<${k}>`, rules));
  }
  return Object.keys(e).flatMap((k) => {
    if (!(k in a)) return rules.optional?.includes(child(k)) ? [] : [`${child(k)}: missing`];
    return shapeDiff(e[k], a[k], child(k), rules);
  });
}

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    adminEnabled: true,
    vary: process.env.SIM_VARY,
    specDir: SPEC_DIR,
  });
});
afterAll(() => sim.close());

async function send(endpoint: string, body: unknown) {
  const res = await fetch(`${sim.nodeUrl}${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as any };
}

/** The example's params with ids of the simulated world where the example's ids cannot exist. */
function worldParams(method: string, params: any): any {
  const w = sim.world;
  const net = w.primary.mainnet;
  const xAddr = `X-${w.fixtures.xChainAddress}`;
  const [cAtomicAddress] = [...net.cAtomicBalances.keys()];
  const xUtxo = net.xChain.utxosByAddress.get(w.fixtures.xChainAddress)![10]!;
  const tx = net.xChain.txs[7]!;
  const block = net.xChain.blocks[42]!;
  const txBody = `0000${'00000000'}${'00000001'}${'00'.repeat(36)}`;
  const checked = `0x${txBody}${createHash('sha256').update(Buffer.from(txBody, 'hex')).digest('hex').slice(-8)}`;
  switch (method) {
    case 'admin.aliasChain':
      return { ...params, chain: net.info.xChainId };
    case 'admin.getChainAliases':
      return { chain: net.info.xChainId };
    case 'avm.getAllBalances':
      return { address: xAddr };
    case 'avm.getBalance':
      return { address: xAddr, assetID: net.info.avaxAssetId };
    case 'avm.getBlock':
      return { ...params, blockID: block.id };
    case 'avm.getBlockByHeight':
      return { ...params, height: String(block.height) };
    case 'avm.getTx':
    case 'avm.getTxStatus':
      return { ...params, txID: tx.id };
    case 'avm.getUTXOs':
      return {
        ...params,
        addresses: [xAddr],
        ...(params.startIndex ? { startIndex: { address: xAddr, utxo: xUtxo.utxoId } } : {}),
      };
    case 'avm.issueTx':
    case 'avax.issueTx':
      return { tx: checked, encoding: 'hex' };
    case 'avax.getUTXOs':
      return { ...params, addresses: [`C-${cAtomicAddress}`], startIndex: undefined };
    default:
      return params;
  }
}

/** A C-Chain atomic tx id the simulated node knows (from an X-Chain atomic UTXO exported by the C-Chain). */
async function cAtomicTxId(): Promise<string> {
  const addrs = sim.world.primary.mainnet.xChain.addresses.slice(0, 12).map((a) => `X-${a}`);
  const r = await send('/ext/bc/X', {
    jsonrpc: '2.0',
    id: 1,
    method: 'avm.getUTXOs',
    params: { addresses: addrs, sourceChain: 'C' },
  });
  const { cb58 } = await import('@avalanche-gateway/simulator/world/index.js');
  return cb58(Buffer.from((r.json.result.utxos[0] as string).slice(6, 70), 'hex'));
}

const exampleFiles = DIRS.flatMap((d) =>
  readdirSync(new URL(`${d}/`, EXAMPLES))
    .filter((f) => f.endsWith('.json'))
    .map((f) => `${d}/${f}`),
);

describe('node methods answer in the shape of their examples', () => {
  it('finds the examples', () => expect(exampleFiles.length).toBeGreaterThan(40));

  for (const file of exampleFiles) {
    const skip = NOT_SERVED[file];
    it.skipIf(skip !== undefined)(`${file}${skip ? ` (${skip})` : ''}`, async () => {
      const ex = read(file);
      const method = ex.method as string;
      let params = worldParams(method, ex.request.params);
      if (method === 'avax.getAtomicTx' || method === 'avax.getAtomicTxStatus')
        params = { ...params, txID: await cAtomicTxId() };
      if (method === 'admin.stopCPUProfiler')
        await send(ex.endpoint, {
          jsonrpc: '2.0',
          id: 0,
          method: 'admin.startCPUProfiler',
          params: {},
        });
      const body = {
        jsonrpc: '2.0',
        id: ex.request.id ?? 1,
        method,
        ...(params !== undefined ? { params } : {}),
      };
      const { status, json } = await send(ex.endpoint, body);
      expect(status).toBe(200);
      expect(json.error, JSON.stringify(json.error)).toBeUndefined();
      expect(json.jsonrpc).toBe('2.0');
      expect(json.id).toEqual(body.id);
      if (!ex.response) {
        expect(kind(json.result)).toBe('object');
        return;
      }
      const diff = shapeDiff(ex.response.result, json.result, '', {
        maps: MAPS[method],
        optional: OPTIONAL[method],
        types: TYPE_OVERRIDES[method],
      });
      expect(diff, `${method}: ${JSON.stringify(json.result).slice(0, 400)}`).toEqual([]);
    });
  }
});

describe('the node error examples come back exactly', () => {
  const errorFiles = readdirSync(new URL('errors/', EXAMPLES)).filter((f) => f.endsWith('.json'));
  for (const file of errorFiles) {
    const reverted = file === 'geth.execution-reverted.json';
    it.skipIf(reverted)(
      `errors/${file}${reverted ? ' (placeholders; its shape: node-evm-state.test.ts)' : ''}`,
      async () => {
        const ex = read(`errors/${file}`);
        const { status, json } = await send(ex.endpoint, ex.request);
        expect(status).toBe(ex.httpStatus);
        if (file === 'geth.invalid-params-bad-arg.json') {
          // The example's message ends in a placeholder ("<decoder message>").
          expect(json.error.code).toBe(ex.response.error.code);
          expect(json.error.message).toMatch(/^invalid argument 0: /);
          return;
        }
        expect(json).toEqual(ex.response);
      },
    );
  }
});

describe('the shape comparator', () => {
  it('reports missing keys, type changes and element shapes', () => {
    expect(
      shapeDiff({ a: 1, b: [{ c: 'x' }] }, { a: 1, b: [{ c: 'y' }, { c: 2 }], extra: true }),
    ).toEqual(['b[].c: expected string, got number']);
    expect(
      shapeDiff({ a: { k1: { n: '1' } } }, { a: { z: { n: 1 } } }, '', { maps: ['a'] }),
    ).toEqual(['a.<z>.n: expected string, got number']);
    expect(shapeDiff({ a: 1, b: 2 }, { a: 1 })).toEqual(['b: missing']);
    expect(shapeDiff({ n: 3 }, { n: '3' }, '', { types: { n: 'string' } })).toEqual([]);
  });
});
