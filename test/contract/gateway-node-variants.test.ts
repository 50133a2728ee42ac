import { readFileSync } from 'node:fs';
import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import { VARIED_NODE_METHODS } from '@avalanche-gateway/simulator/vary/node-variation.js';
import { cb58 } from '@avalanche-gateway/simulator/world/index.js';
import { Rng } from '@avalanche-gateway/simulator/world/prng.js';
import { buildSchema, type ExecutionResult, Kind, parse } from 'graphql';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/cache/store.js';
import {
  type ArgValues,
  argValues,
  generatedSteps,
  harvestIds,
  operationSteps,
} from '../oracle/workload.js';
import { createTestGateway } from '../support/gateway.js';
import { SPEC_DIR } from '../support/specs.js';

/**
 * The gateway's node contracts (src/upstream/schemas/node-*.ts, src/upstream/node-rpc.ts) over varied
 * node answers (SIM_VARY, packages/simulator/src/vary/node-variation.ts): every query of schema/operations/node-*.graphql
 * and evm-node.graphql must render over a node with its admin API on. Node variants are drawn per field
 * and seed, so more seeds than gateway-variants.test.ts (the node queries are few and fast).
 */

const SEEDS = Array.from({ length: 10 }, (_, i) => `node-vary-${i}`);
const FILES = [
  'node-admin.graphql',
  'node-chains.graphql',
  'node-info.graphql',
  'evm-node.graphql',
];
const OPS_DIR = new URL('../../schema/operations/', import.meta.url);
const NODE_OPS = new Set(
  FILES.flatMap((f) =>
    parse(readFileSync(new URL(f, OPS_DIR), 'utf8')).definitions.flatMap((d) =>
      d.kind === Kind.OPERATION_DEFINITION && d.operation === 'query' && d.name
        ? [d.name.value]
        : [],
    ),
  ),
);

/** A C-Chain atomic tx id the simulated node knows (from an X-Chain UTXO the C-Chain exported). */
async function cAtomicTxId(sim: RunningSimulator): Promise<string> {
  const addresses = sim.world.primary.mainnet.xChain.addresses.slice(0, 12).map((a) => `X-${a}`);
  const res = await fetch(`${sim.nodeUrl}/ext/bc/X`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'avm.getUTXOs',
      params: { addresses, sourceChain: 'C' },
    }),
  });
  const utxo = ((await res.json()) as { result: { utxos: string[] } }).result.utxos[0]!;
  return cb58(Buffer.from(utxo.slice(6, 70), 'hex'));
}

const schemaSdl = buildSchema(
  readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'),
);
const failures: string[] = [];
const rpcCalled = new Set<string>();
const ran = new Set<string>();

afterAll(() => {
  for (const f of [...new Set(failures)]) console.log(`NODE CONTRACT FAILURE: ${f}`);
});

describe('gateway node contracts over varied node answers', () => {
  for (const seed of SEEDS) {
    it(`every node operation renders over SIM_VARY=${seed}`, async () => {
      const sim = await startSimulator({
        port: 0,
        seed: 'contract-world',
        vary: seed,
        adminEnabled: true,
        specDir: SPEC_DIR,
      });
      const gw = createTestGateway(sim, {
        store: new MemoryStore(),
        ttlOverrides: { immutable: 0, head: 0, tokenPage: 0, slow: 0, notFound: 0 },
      });
      try {
        const base = argValues(sim.world.fixtures, { selfNodeId: sim.world.selfNodeId, seed });
        const net = sim.world.primary.mainnet;
        const xTx = net.xChain.txs[7]!.id;
        const atomic = await cAtomicTxId(sim);
        // Arguments the oracle's workload does not fill (X-Chain asset / tx ids, a C-Chain atomic tx).
        const args: ArgValues = {
          get: (name, opName, type) =>
            name === 'asset'
              ? net.info.avaxAssetId
              : name === 'amount'
                ? '1000'
                : name === 'txId' || (name === 'id' && opName === 'XChainTransaction')
                  ? xTx
                  : name === 'id' && opName === 'CChainAtomicTransaction'
                    ? atomic
                    : base.get(name, opName, type),
        };
        const ids = new Set<string>();
        for (const s of generatedSteps(schemaSdl, args))
          harvestIds((await gw.query(s.query, s.variables)).data, ids);
        const idList = [...ids].sort();
        const steps = operationSteps(
          schemaSdl,
          args,
          () => idList,
          new Rng(`node|${seed}`),
        ).steps.filter((s) => NODE_OPS.has(s.name));
        for (const step of steps) {
          sim.reset();
          const r = (await gw.query(step.query, step.variables)) as ExecutionResult;
          for (const m of Object.keys(sim.stats().byRpcMethod)) rpcCalled.add(m.split(' ').pop()!);
          ran.add(step.name);
          for (const e of r.errors ?? []) {
            const code = String(e.extensions?.code);
            // A contract failure is UPSTREAM_ERROR on a 2xx answer (no upstreamStatus); INTERNAL means the answer did not render.
            if (
              (code === 'UPSTREAM_ERROR' && e.extensions?.upstreamStatus === undefined) ||
              code === 'INTERNAL'
            ) {
              failures.push(`${seed} ${step.name} ${(e.path ?? []).join('.')}: ${e.message}`);
            }
          }
        }
      } finally {
        await gw.close();
        await sim.close();
      }
    }, 60_000);
  }

  it('ran every node query, called the varied node methods, and no contract rejected a valid node answer', () => {
    const varied = VARIED_NODE_METHODS.filter((m) => rpcCalled.has(m));
    console.log(
      `node contracts: ${ran.size}/${NODE_OPS.size} node queries over ${SEEDS.length} seeds; varied methods called: ${varied.join(', ')}`,
    );
    expect([...NODE_OPS].filter((n) => !ran.has(n))).toEqual([]);
    expect(varied.length).toBeGreaterThanOrEqual(8);
    expect(failures).toEqual([]);
  });
});
