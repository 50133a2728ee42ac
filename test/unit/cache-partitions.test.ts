import { describe, expect, it } from 'vitest';
import { cachePartitions } from '../../src/cache/keys.js';

const upstreams = {
  dataApiUrl: 'http://data.example',
  metricsApiUrl: 'http://metrics.example',
  nodes: [{ name: 'default', url: 'http://node.example' }],
};

describe('cache partitions, composed in one place', () => {
  it("a caller's own key gets its own Data API partition, never the key's text", () => {
    const parts = cachePartitions(upstreams);
    const operator = parts.upstreamFor(null);
    const caller = parts.upstreamFor('secret-key-123');
    expect(caller('data-api')).not.toBe(operator('data-api'));
    expect(caller('data-api')).not.toMatch(/secret/);
    // Metrics answers do not depend on the caller's key; node keys carry their node already.
    expect(caller('metrics-api')).toBe(operator('metrics-api'));
    expect(operator('node')).toBeUndefined();
    expect(parts.response('secret-key-123')).not.toBe(parts.response(null));
  });

  it('another configuration never shares a partition', () => {
    const a = cachePartitions(upstreams);
    const b = cachePartitions({ ...upstreams, dataApiUrl: 'http://other.example' });
    const c = cachePartitions({ ...upstreams, nodes: [{ name: 'default', url: 'http://n2' }] });
    expect(b.upstreamFor(null)('data-api')).not.toBe(a.upstreamFor(null)('data-api'));
    expect(b.upstreamFor(null)('metrics-api')).toBe(a.upstreamFor(null)('metrics-api'));
    expect(c.response(null)).not.toBe(a.response(null));
    expect(c.upstreamFor(null)('data-api')).toBe(a.upstreamFor(null)('data-api'));
  });
});
