import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { decodeGlobalId, encodeGlobalId, STABLE_ID_TYPES } from '../../src/schema/global-id.js';
import { buildSchema } from '../../src/schema/index.js';

// The schema's copy of graphql-js (src/edge/coerce-variables.ts says why).
const { isInterfaceType, isObjectType } = createRequire(import.meta.url)(
  'graphql',
) as typeof import('graphql');

/**
 * Relay ids stable for an entity's life (docs/schema-conventions.md): a status-typed entity's id
 * names its interface, so it does not change when the status does, and decodes to a type whose loader
 * answers every status. Old status-named ids still decode to their own type.
 */
describe('global ids of status-typed entities', () => {
  const schema = buildSchema();

  it('one id per validation period, delegation and ICM message, whatever its status', () => {
    const key = 'mainnet:NodeID-abc:0xdead';
    const ids = [
      'PendingValidator',
      'ActiveValidator',
      'CompletedValidator',
      'RemovedValidator',
    ].map((t) => encodeGlobalId(t, key));
    expect(new Set(ids).size).toBe(1);
    expect(Buffer.from(ids[0]!, 'base64url').toString()).toBe(`Validator:${key}`);
    expect(encodeGlobalId('PendingIcmMessage', 'ab')).toBe(
      encodeGlobalId('DeliveredIcmMessage', 'ab'),
    );
    expect(encodeGlobalId('ActiveDelegator', 'x')).toBe(encodeGlobalId('CompletedDelegator', 'x'));
    // Other types keep their own name.
    expect(Buffer.from(encodeGlobalId('Block', '43114:1'), 'base64url').toString()).toBe(
      'Block:43114:1',
    );
  });

  it('a stable id decodes to a node type; an old status-named id to its own type', () => {
    for (const [status, name] of STABLE_ID_TYPES) {
      const decoded = decodeGlobalId(encodeGlobalId(status, 'k'));
      const type = schema.getType(decoded.typename);
      expect(isObjectType(type) && type.getInterfaces().some((i) => i.name === name)).toBe(true);
      const old = Buffer.from(`${status}:k`).toString('base64url');
      expect(decodeGlobalId(old)).toEqual({ typename: status, id: 'k' });
    }
  });

  it('covers every Node type of the schema that shares a status interface', () => {
    // A new status type (e.g. a fourth ICM status) must join the table, or its ids would move.
    for (const name of new Set(STABLE_ID_TYPES.values())) {
      const iface = schema.getType(name);
      expect(isInterfaceType(iface)).toBe(true);
      const implementations = schema.getPossibleTypes(iface as never).map((t) => t.name);
      expect(implementations.sort()).toEqual(
        [...STABLE_ID_TYPES]
          .filter(([, n]) => n === name)
          .map(([t]) => t)
          .sort(),
      );
    }
  });
});
