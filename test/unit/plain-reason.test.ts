import { describe, expect, it } from 'vitest';
import { plainReason } from '../../src/errors.js';

// Issue 32, finding 15: an upstream's text reaches a client only when it is a plain reason.
describe('plainReason', () => {
  it('keeps a one-line reason, with the client’s own addresses and hashes in it', () => {
    expect(plainReason('message is not a valid warp message: unpacking failed')).toBe(true);
    expect(plainReason('eth_chainId: invalid argument 0: hex string without 0x prefix')).toBe(true);
    expect(plainReason(`execution reverted at 0x${'ab'.repeat(20)}`)).toBe(true);
    expect(
      plainReason('expected hrp "avax" but got "fuji": X-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq'),
    ).toBe(true);
  });

  it('refuses an internal URL, a key, a stack frame, markup, several lines or a long text', () => {
    expect(plainReason('failed to reach http://10.0.3.7:9650/ext/bc/C/rpc')).toBe(false);
    expect(plainReason('invalid key ak_9f8e7d6c5b4a39281706f5e4d3c2b1a0ZYXWVUTS')).toBe(false);
    expect(plainReason('TypeError: x is undefined at handler (/srv/app/index.js:12:7)')).toBe(
      false,
    );
    expect(plainReason('panic: nil map at service.go:212')).toBe(false);
    expect(plainReason('<html><body>404 Not Found</body></html>')).toBe(false);
    expect(plainReason('bad input\nstack follows')).toBe(false);
    expect(plainReason('x'.repeat(301))).toBe(false);
    expect(plainReason('db pool exhausted at 10.1.2.3')).toBe(false);
    expect(plainReason('dial tcp redis-main.internal:6379: connection refused')).toBe(false);
  });
});
