import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type RunningSimulator, startSimulator } from '@avalanche-gateway/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/upstream/errors.js';
import { classifyEvmError, EvmRevertError } from '../../src/upstream/evm-state.js';
import * as s from '../../src/upstream/schemas/evm-state.js';
import { hexQuantity } from '../../src/upstream/schemas/node-common.js';
import { NODE_EXAMPLES, SPEC_DIR, specPath } from '../support/specs.js';

/**
 * The simulator's EVM state methods against the node's error example (examples/node/errors, read in
 * place) and against the gateway's own contracts (the zod schemas its EVM state client parses
 * with). `geth.execution-reverted.json` holds placeholders (`<reason>`), so it cannot be replayed
 * verbatim: a revert of the simulated ERC-20 must come back in its shape (code 3, "execution
 * reverted: …", `data` the ABI-encoded Error(string), whose selector the example shows).
 */
const EXAMPLES = pathToFileURL(specPath(NODE_EXAMPLES));
const example = JSON.parse(
  readFileSync(new URL('errors/geth.execution-reverted.json', EXAMPLES), 'utf8'),
);
const RPC = '/ext/bc/C/rpc';
let sim: RunningSimulator;

async function rpc(method: string, params: unknown[]): Promise<any> {
  const res = await fetch(`${sim.nodeUrl}${RPC}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  expect(res.status).toBe(200);
  return res.json();
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, vary: process.env.SIM_VARY, specDir: SPEC_DIR });
});
afterAll(async () => {
  await sim.close();
});

describe('eth_call reverts as geth does (errors/geth.execution-reverted.json)', () => {
  it('same keys, code 3, "execution reverted: <reason>", Error(string) data', async () => {
    const f = sim.world.fixtures;
    const data = `0xa9059cbb000000000000000000000000${f.busyAddress.slice(2)}${'f'.repeat(64)}`;
    const got = await rpc('eth_call', [{ to: f.contracts.erc20, data }, 'latest']);
    expect(Object.keys(got).sort()).toEqual(Object.keys(example.response).sort());
    expect(Object.keys(got.error).sort()).toEqual(Object.keys(example.response.error).sort());
    expect(got.error.code).toBe(example.response.error.code);
    expect(got.error.message).toMatch(
      new RegExp(`^${example.response.error.message.replace('<reason>', '.+')}$`),
    );
    expect(got.error.data.slice(0, 10)).toBe(example.response.error.data.slice(0, 10));
    expect(got.error.data).toMatch(/^0x([0-9a-f]{2})+$/);
  });

  it('the gateway reads the example’s error as a revert', () => {
    const e = example.response.error;
    const err = classifyEvmError(
      new UpstreamError('node', 'rpc', {
        rpcCode: e.code,
        upstreamMessage: e.message,
        rpcData: e.data,
      }),
      'eth_call',
    );
    expect(err).toBeInstanceOf(EvmRevertError);
    expect((err as EvmRevertError).reason).toBe('EXECUTION_REVERTED');
  });
});

describe('the simulator’s EVM state answers fit the gateway’s contracts', () => {
  it(
    'getCode, getStorageAt, call, estimateGas, getProof, getLogs, feeHistory, ' +
      'getBlockByNumber',
    async () => {
      const f = sim.world.fixtures;
      const head = (await rpc('eth_blockNumber', [])).result as string;
      const at = `0x${(BigInt(head) - 5n).toString(16)}`;
      const cases: [string, unknown[], { safeParse: (v: unknown) => { success: boolean } }][] = [
        ['eth_getCode', [f.contracts.erc20, at], s.dataResult],
        ['eth_getCode', [f.busyAddress, { blockNumber: at }], s.dataResult],
        ['eth_getStorageAt', [f.contracts.erc20, '0x0', at], s.storageResult],
        ['eth_call', [{ to: f.contracts.erc20, data: '0x95d89b41' }, at], s.dataResult],
        ['eth_estimateGas', [{ to: f.busyAddress, data: '0x' }, at], hexQuantity],
        ['eth_getProof', [f.busyAddress, ['0x1'], at], s.proofResult],
        ['eth_getLogs', [{ fromBlock: at, toBlock: head }], s.logsResult],
        ['eth_feeHistory', ['0x4', at, [25, 75]], s.feeHistoryResult],
        ['eth_getBlockByNumber', [at, false], s.headerResult],
      ];
      for (const [method, params, schema] of cases) {
        const r = await rpc(method, params);
        expect(r.error, `${method}: ${JSON.stringify(r.error)}`).toBeUndefined();
        expect(
          schema.safeParse(r.result).success,
          `${method}: ${JSON.stringify(r.result).slice(0, 300)}`,
        ).toBe(true);
      }
    },
  );

  it(
    'a proof outside the archival window is a -32000 naming the window, which the gateway ' +
      'types',
    async () => {
      const r = await rpc('eth_getProof', [sim.world.fixtures.busyAddress, [], '0x0']);
      expect(r.error.code).toBe(-32000);
      const err = classifyEvmError(
        new UpstreamError('node', 'rpc', {
          rpcCode: r.error.code,
          upstreamMessage: r.error.message,
        }),
        'eth_getProof',
      );
      expect(err).toMatchObject({
        reason: 'PROOF_WINDOW_ARCHIVAL',
        window: { blocks: 43_200, requestedBlock: '0' },
      });
    },
  );
});
