import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareSchemas, reportCompatibility } from '../../scripts/schema-compat.js';

/**
 * `npm run schema:breaking` (issue 45, item 5): the printed schema against the last release's
 * (schema/baseline.graphql) fails on a breaking change the reviewed file does not acknowledge.
 */
const BASE = `type Query { block(id: String!): Block  chains: [String!]! }
type Block { number: String!  hash: String! }`;

describe('schema compatibility with the baseline', () => {
  it('a planted breaking change fails; acknowledged in the reviewed file, it passes; a stale acknowledgement is named', () => {
    const removed = `type Query { block(id: String!): Block  chains: [String!]! }
type Block { number: String! }`;
    const c = compareSchemas(BASE, removed);
    expect(c.unacknowledged.map((b) => b.description)).toEqual(['Block.hash was removed.']);
    expect(reportCompatibility(c, 'base').ok).toBe(false);

    const ack = {
      type: 'FIELD_REMOVED',
      description: 'Block.hash was removed.',
      reason: 'test: agreed in review',
    };
    const acked = compareSchemas(BASE, removed, [ack]);
    expect(reportCompatibility(acked, 'base').ok).toBe(true);
    expect(compareSchemas(BASE, BASE, [ack]).unused).toEqual([ack]);
  });

  it('a deprecation with its replacement is not breaking, and is listed', () => {
    const deprecated = `type Query { block(id: String!): Block  chains: [String!]! }
type Block { number: String!  hash: String! @deprecated(reason: "Use id.")  id: String! }`;
    const c = compareSchemas(BASE, deprecated);
    expect(c.breaking).toEqual([]);
    expect(c.deprecations).toEqual(['Block.hash: Use id.']);
  });

  it('the printed schema has no unacknowledged breaking change against the baseline', () => {
    const { acknowledged } = JSON.parse(
      readFileSync('schema/breaking-acknowledged.json', 'utf8'),
    ) as { acknowledged: [] };
    const c = compareSchemas(
      readFileSync('schema/baseline.graphql', 'utf8'),
      readFileSync('schema/schema.graphql', 'utf8'),
      acknowledged,
    );
    expect(
      reportCompatibility(c, 'baseline').lines.filter((l) => l.startsWith('BREAKING')),
    ).toEqual([]);
    expect(c.unused).toEqual([]);
  });
});
