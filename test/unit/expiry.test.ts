import { describe, expect, it } from 'vitest';
import { readExpiry, withExpiry } from '../../src/cache/expiry.js';

describe('a shared-store value with its expiry in front', () => {
  it('round-trips any value, whatever it holds', () => {
    for (const value of [
      '{"freshUntil":1,"value":2}',
      '',
      'a|b|c',
      '{"data":{"x":"|"}}',
      '12|34',
    ]) {
      expect(readExpiry(withExpiry(value, 1_790_000_000_123))).toEqual({
        value,
        expiresAt: 1_790_000_000_123,
      });
    }
  });

  it('reads a value written without one as a value with no known expiry', () => {
    const entry = '{"freshUntil":1790000000123,"value":1}';
    expect(readExpiry(entry)).toEqual({ value: entry });
    expect(readExpiry('|x')).toEqual({ value: '|x' });
    expect(readExpiry('abc|x')).toEqual({ value: 'abc|x' });
  });

  it('does not depend on how the value orders its JSON keys', () => {
    const a = readExpiry(withExpiry('{"value":1,"freshUntil":5}', 99));
    const b = readExpiry(withExpiry('{"freshUntil":5,"value":1}', 99));
    expect([a.expiresAt, b.expiresAt]).toEqual([99, 99]);
  });
});
