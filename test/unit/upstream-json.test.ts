import { describe, expect, it } from 'vitest';
import { parseUpstreamJson } from '../../src/upstream/json.js';

describe('parseUpstreamJson', () => {
  it('keeps integers above 2^53 as exact decimal strings, everything else as JSON.parse gives it', () => {
    const text = '{"w":18446744073709551615,"n":-9007199254740993,"s":9007199254740991,"f":0.12345678901234567891,"e":1e21,"t":"123456789012345678","a":[12345678901234567890]}';
    expect(parseUpstreamJson(text)).toEqual({ w: '18446744073709551615', n: '-9007199254740993', s: 9007199254740991, f: 0.12345678901234567891, e: 1e21, t: '123456789012345678', a: ['12345678901234567890'] });
  });
  it('takes the plain path when no long integer literal is present', () => {
    const text = '{"a":1,"b":"x","c":[1.5,2]}';
    expect(parseUpstreamJson(text)).toEqual(JSON.parse(text));
  });
});
