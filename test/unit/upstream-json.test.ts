import { describe, expect, it } from 'vitest';
import { parseUpstreamJson } from '../../src/upstream/json.js';

describe('parseUpstreamJson', () => {
  it('keeps integers above 2^53 as exact decimal strings, everything else as JSON.parse gives it', () => {
    const text =
      '{"w":18446744073709551615,"n":-9007199254740993,"s":9007199254740991,"f":0.12345678901234567891,"e":1e21,"t":"123456789012345678","a":[12345678901234567890]}';
    expect(parseUpstreamJson(text)).toEqual({
      w: '18446744073709551615',
      n: '-9007199254740993',
      s: 9007199254740991,
      f: Number('0.12345678901234567891'),
      e: 1e21,
      t: '123456789012345678',
      a: ['12345678901234567890'],
    });
  });
  it('takes the plain path when no long integer literal is present', () => {
    const text = '{"a":1,"b":"x","c":[1.5,2]}';
    expect(parseUpstreamJson(text)).toEqual(JSON.parse(text));
  });
});

describe('Float fields of the contracts', () => {
  it('an active validator whose stakePercentage is a uint64-sized integer (spec: number, no maximum) parses, as the nearest float', async () => {
    const { activeValidator } = await import('../../src/upstream/schemas/primary.js');
    const body = parseUpstreamJson(
      '{"txHash":"t","nodeId":"NodeID-x","subnetId":"s","amountStaked":"1","startTimestamp":1,"endTimestamp":2,"stakePercentage":18446744073709551615,"delegatorCount":0,"uptimePerformance":99.5,"potentialRewards":{"validationRewardAmount":"0","delegationRewardAmount":"0"},"validationStatus":"active","validatorHealth":{"reachabilityPercent":100,"benchedPChainRequestsPercent":0,"benchedXChainRequestsPercent":0,"benchedCChainRequestsPercent":0},"geolocation":null}',
    ) as Record<string, unknown>;
    const parsed = activeValidator.safeParse(body);
    expect(parsed.error?.issues.filter((i) => i.path[0] === 'stakePercentage') ?? []).toEqual([]);
    if (parsed.success) expect(parsed.data.stakePercentage).toBe(Number('18446744073709551615'));
  });
});
