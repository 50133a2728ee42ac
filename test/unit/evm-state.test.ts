import { parse } from 'graphql';
import { encodeErrorResult } from 'viem';
import { describe, expect, it } from 'vitest';
import { createCachePolicy } from '../../src/cache/policy.js';
import { loadConfig } from '../../src/config.js';
import { estimateCost } from '../../src/edge/cost.js';
import { parseBlockTag, parseSlot } from '../../src/schema/evm-inputs.js';
import { buildSchema } from '../../src/schema/index.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import {
  classifyEvmError,
  createEvmStateClient,
  EvmRevertError,
  ProofWindowError,
} from '../../src/upstream/evm-state.js';
import type { HttpClient } from '../../src/upstream/http.js';

/**
 * EVM state: the node's error texts as typed errors, the cache class of a pin, inputs, and the cost
 * model.
 */
const rpcError = (code: number, message: string, data?: unknown) =>
  new UpstreamError('node', 'rpc', { rpcCode: code, upstreamMessage: message, rpcData: data });
const ERROR_STRING = encodeErrorResult({
  abi: [{ type: 'error', name: 'Error', inputs: [{ type: 'string' }] }],
  errorName: 'Error',
  args: ['test'],
});

describe('classifyEvmError: one row per node answer', () => {
  const rows: [string, string, UpstreamError, Record<string, unknown> | undefined][] = [
    [
      'geth/coreth revert with reason',
      'eth_call',
      rpcError(3, 'execution reverted: test', ERROR_STRING),
      { reason: 'EXECUTION_REVERTED', revertData: ERROR_STRING },
    ],
    [
      'geth revert without data',
      'eth_estimateGas',
      rpcError(3, 'execution reverted'),
      { reason: 'EXECUTION_REVERTED', revertData: '0x' },
    ],
    [
      'Hardhat revert (data object)',
      'eth_call',
      rpcError(
        -32603,
        "Error: VM Exception while processing transaction: reverted with reason string 'test'",
        { message: 'x', data: ERROR_STRING },
      ),
      { reason: 'EXECUTION_REVERTED', revertData: ERROR_STRING },
    ],
    [
      'coreth archival proof window',
      'eth_getProof',
      rpcError(
        -32000,
        'block number 5 is before the earliest allowed block number for queries 100 (window of ' +
          '43200 blocks)',
      ),
      {
        reason: 'PROOF_WINDOW_ARCHIVAL',
        window: { blocks: 43_200, earliestBlock: '100', requestedBlock: '5' },
      },
    ],
    [
      'coreth pruning proof window',
      'eth_getProof',
      rpcError(
        -32000,
        'block number 5 is before the oldest allowed block number 68 (window of 32 blocks)',
      ),
      { reason: 'PROOF_WINDOW_PRUNING' },
    ],
    [
      'a window text on another method stays as is',
      'eth_getBalance',
      rpcError(
        -32000,
        'block number 5 is before the earliest allowed block number for queries 100 (window of ' +
          '32 blocks)',
      ),
      undefined,
    ],
    ['header not found stays as is', 'eth_call', rpcError(-32000, 'header not found'), undefined],
  ];
  for (const [name, method, e, expected] of rows) {
    it(name, () => {
      const out = classifyEvmError(e, method);
      if (!expected) return expect(out).toBe(e);
      expect(out).toBeInstanceOf(
        expected.reason === 'EXECUTION_REVERTED' ? EvmRevertError : ProofWindowError,
      );
      expect(out).toMatchObject(expected);
    });
  }
  it('a revert carries its decoded reason for the client', () => {
    const out = classifyEvmError(
      rpcError(3, 'execution reverted: test', ERROR_STRING),
      'eth_call',
    ) as EvmRevertError;
    expect(out.extensions).toEqual({ revertData: ERROR_STRING, revertReason: 'test' });
  });
});

describe('cache class of a read follows its pin', () => {
  const client = createEvmStateClient({
    node: 'n',
    url: 'http://n',
    path: '/ext/bc/C/rpc',
    http: {} as HttpClient,
  });
  const policy = createCachePolicy();
  it(
    'a named block is final; the block `latest` resolved to is head data; keys name hash or' +
      ' number',
    () => {
      expect(policy.classOf(client.balance(`0x${'1'.repeat(40)}`, { number: '7' }).resource)).toBe(
        'immutable',
      );
      expect(
        policy.classOf(client.balance(`0x${'1'.repeat(40)}`, { number: '7', head: true }).resource),
      ).toBe('head');
      expect(
        client.code(`0x${'1'.repeat(40)}`, { number: '7', hash: `0x${'a'.repeat(64)}` }).body,
      ).toEqual([`0x${'1'.repeat(40)}`, { blockHash: `0x${'a'.repeat(64)}` }]);
      expect(client.nonce(`0x${'1'.repeat(40)}`, { number: '255' }).body).toEqual([
        `0x${'1'.repeat(40)}`,
        '0xff',
      ]);
      expect(policy.classOf(client.blockNumber().resource)).toBe('head');
      expect(policy.classOf(client.chainId().resource)).toBe('slow');
    },
  );
});

describe('inputs', () => {
  it('block tags and slots', () => {
    expect(parseBlockTag('latest', 'b')).toBe('latest');
    expect(parseBlockTag('12', 'b')).toBe('12');
    expect(parseBlockTag(`0x${'A'.repeat(64)}`, 'b')).toBe(`0x${'a'.repeat(64)}`);
    for (const bad of ['pending', '-1', '0x12', '18446744073709551616'])
      expect(() => parseBlockTag(bad, 'b')).toThrow(/must be/);
    expect(parseSlot('0x1')).toBe(`0x${'0'.repeat(63)}1`);
    expect(parseSlot('10')).toBe(`0x${'0'.repeat(63)}a`);
    for (const bad of ['0x', 'zz', `0x1${'0'.repeat(64)}`])
      expect(() => parseSlot(bad)).toThrow(/slot/);
  });
});

describe('cost model', () => {
  const schema = buildSchema();
  it(
    'state(atBlock) { balance code nonce } of 20 addresses: an upper bound of 51 CU an address ' +
      '(the pin 10 and the endpoint’s eth_chainId 1, eth_getBalance 10, eth_getCode 20, ' +
      'eth_getTransactionCount 10)',
    () => {
      const field = (i: number) =>
        `a${i}: address(chainId: "43114", address: "0x${String(i).padStart(40, '0')}") ` +
        '{ state(atBlock: "5") { balance code nonce } }';
      const q = `{ ${Array.from({ length: 20 }, (_, i) => field(i)).join(' ')} }`;
      expect(estimateCost(schema, parse(q), undefined, {}).cu).toBe(20 * 51);
    },
  );
  it('logs are priced as a connection of eth_getLogs (200 CU a page); proofs, calls and ERC-20 reads per method', () => {
    expect(
      estimateCost(
        schema,
        parse('{ evmState(chainId: "1") { logs(first: 100) { edges { node { data } } } } }'),
        undefined,
        {},
      ).cu,
    ).toBe(10 + 1 + 200);
    const q =
      '{ evmState(chainId: "1") { stateRoot account(address: "0x") { proof { nonce } ' +
      'call(data: "0x") erc20 { symbol decimals } } } }';
    // The pin 10 and eth_chainId 1, stateRoot 10, eth_getProof 20, eth_call 10, two ERC-20 reads
    // (eth_call) 10 each.
    expect(estimateCost(schema, parse(q), undefined, {}).cu).toBe(10 + 1 + 10 + 20 + 10 + 10 + 10);
  });
});

describe('EVM_CHAINS', () => {
  const L1 = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
  it('names L1 EVM endpoints on configured nodes (the default node when unprefixed)', () => {
    const c = loadConfig({
      NODE_RPC_URL: 'a=http://a.test,b=http://b.test',
      EVM_CHAINS: `${L1}, b:${L1}`,
    });
    expect(c.evmChains).toEqual([
      { node: 'a', blockchainId: L1 },
      { node: 'b', blockchainId: L1 },
    ]);
    expect(loadConfig({}).evmChains).toEqual([]);
  });
  it('refuses an unknown node or a malformed id, naming the variable', () => {
    expect(() => loadConfig({ EVM_CHAINS: `nope:${L1}` })).toThrow(/EVM_CHAINS/);
    expect(() => loadConfig({ EVM_CHAINS: 'C/rpc' })).toThrow(/EVM_CHAINS/);
  });
});
