import { describe, expect, it } from 'vitest';
import { fromUpstreamError } from '../../src/errors.js';
import { clientSafeText, misfitWhere } from '../../src/upstream/client-text.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { NodeMethodUnavailableError } from '../../src/upstream/node-rpc-call.js';
import { HOSTILE_UPSTREAM_TEXTS } from '../support/hostile-texts.js';

/**
 * Issue 32, finding 15 and issue 42, item 5: an upstream's text reaches a client only when it fits a
 * sentence the allow-list knows (src/upstream/client-text.ts); the old deny-list let four of six
 * hostile messages through.
 */
const X_ADDRESS = 'X-avax1qyqszqgpqyqszqgpqyqszqgpqyqszqgp83vh5p';
const CB58_TX = '46WPtSJH9Mc1rNbRaWo6k2v6Bm8dc1FuCFxS2n6gFo7L5vAy5';

describe('clientSafeText (the allow-list)', () => {
  it("keeps the Data API's validation sentences, with the client's own values in them", () => {
    for (const text of [
      'Invalid address format',
      'Invalid address',
      'pageSize must not be greater than 100',
      'pageSize must be an integer number',
      'property foo should not exist',
      'sortOrder must be one of the following values: asc, desc',
      'minDelegationFee must be less than or equal to maxDelegationFee',
      'l1ValidationId must be a hex or cb58 string',
      'blockNumber 12 is after the latest indexed block 10',
      `Transaction ${CB58_TX} not found on chain 43114`,
      `Block 0x${'ab'.repeat(32)} not found`,
      'Chain 999999 not found. Use the /v1/chains endpoint to list supported chains.',
      'message is not a valid warp message: unpacking failed',
    ])
      expect(clientSafeText('data-api', text), text).toBe(text);
    expect(
      clientSafeText('data-api', 'pageSize must not be less than 1; property x should not exist'),
    ).toBe('pageSize must not be less than 1; property x should not exist');
  });

  it("keeps the node's own sentences, after the method the gateway names", () => {
    for (const text of [
      'avm.getTx: not found',
      'eth_chainId: invalid argument 0: hex string without 0x prefix',
      'eth_blockNumber: execution reverted: paused',
      'admin.startCPUProfiler: cpu profiler already running',
      `avax.getTx: could not find tx ${CB58_TX}`,
      'avm.getUTXOs: expected hrp "avax" but got "fuji"',
      'avm.getUTXOs: couldn\'t parse address "X-fuji1qqqq": expected hrp "avax" but got "fuji"',
      'rpc: unrecognized Content-Type: text/plain',
      'the method info.getNodeID does not exist/is not available',
      'block number 10 is before the earliest allowed block number for queries 20 (window of 32 blocks)',
    ])
      expect(clientSafeText('node', text), text).toBe(text);
  });

  it.each(HOSTILE_UPSTREAM_TEXTS)(
    'refuses %j alone, in a known sentence and in an array',
    (bad) => {
      expect(clientSafeText('data-api', bad)).toBeUndefined();
      expect(clientSafeText('node', bad)).toBeUndefined();
      expect(clientSafeText('node', `eth_call: ${bad}`)).toBeUndefined();
      expect(clientSafeText('node', `eth_call: execution reverted: ${bad}`)).toBeUndefined();
      expect(clientSafeText('data-api', `Block ${bad} not found`)).toBeUndefined();
      expect(clientSafeText('data-api', `property ${bad} should not exist`)).toBeUndefined();
      // a message array: the known part stays, the hostile one goes
      expect(clientSafeText('data-api', `Invalid address format; ${bad}`)).toBe(
        'Invalid address format',
      );
    },
  );

  it('checks the checksum of an id or an address in a slot: a key shaped like one is refused', () => {
    expect(clientSafeText('data-api', `Transaction ${CB58_TX} not found`)).toBeDefined();
    expect(clientSafeText('data-api', `Asset ${X_ADDRESS} not found`)).toBeDefined();
    // the same length and alphabet, a checksum that fails
    const forged = `${CB58_TX.slice(0, -3)}abc`;
    expect(clientSafeText('data-api', `Transaction ${forged} not found`)).toBeUndefined();
    expect(
      clientSafeText('data-api', `Asset ${X_ADDRESS.slice(0, -1)}q not found`),
    ).toBeUndefined();
  });

  it("a body's misfit names only the path's names and indexes, never the upstream's keys", () => {
    expect(misfitWhere({ path: ['erc20Transfers', 0, 'value'], message: 'Invalid input' })).toBe(
      'erc20Transfers.0.value: Invalid input',
    );
    expect(
      misfitWhere({
        path: ['password=hunter2', 'x'],
        message: 'Unrecognized key: "db-internal-3.corp.local:5432"',
        code: 'unrecognized_keys',
      }),
    ).toBe('?.x: unrecognized keys');
  });
});

describe('fromUpstreamError', () => {
  it.each(HOSTILE_UPSTREAM_TEXTS)('%j: the code, status and request id, not the text', (bad) => {
    for (const [kind, status] of [
      ['status', 400],
      ['status', 500],
      ['status', 503],
      ['rpc', undefined],
    ] as const) {
      const e = fromUpstreamError(
        new UpstreamError(kind === 'rpc' ? 'node' : 'data-api', kind, {
          status,
          rpcCode: kind === 'rpc' ? -32000 : undefined,
          upstreamMessage: bad,
          requestId: 'c0ffee-42',
        }),
      );
      expect(e.message).not.toContain(bad.slice(0, 12));
      expect(JSON.stringify(e.extensions)).not.toMatch(
        /hunter2|corp\.local|SELECT|ak_9f8e|10\.0\.3/,
      );
      expect(e.extensions).toMatchObject({ upstreamRequestId: 'c0ffee-42' });
      expect(typeof e.extensions.code).toBe('string');
    }
  });

  it("a node's refusal of a node-specific method names the method, the refusal only when known", () => {
    const refusal = (upstreamMessage: string) =>
      new UpstreamError('node', 'rpc', { rpcCode: -32601, upstreamMessage });
    const known = fromUpstreamError(
      new NodeMethodUnavailableError(
        'main',
        'info.getNodeID',
        refusal('the method info.getNodeID does not exist/is not available'),
      ),
    );
    expect(known.message).toMatch(/does not serve info\.getNodeID \(the method info\.getNodeID/);
    const hostile = fromUpstreamError(
      new NodeMethodUnavailableError('main', 'info.getNodeID', refusal('password=hunter2')),
    );
    expect(hostile.message).toMatch(/does not serve info\.getNodeID \(rpc\)/);
    expect(hostile.message).not.toMatch(/hunter2/);
  });
});
