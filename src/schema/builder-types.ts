import type { builder } from './builder.js';

/** The gateway's Pothos schema types, for helpers that build fields shared by several object types. */
export type GatewayTypes =
  typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The field builder of an object type whose parent value is `Shape` (the `t` of `fields: (t) => …`). */
export type ObjectFields<Shape> = PothosSchemaTypes.ObjectFieldBuilder<GatewayTypes, Shape>;

/** The `isTypeOf` of a member told apart from its siblings by a property only it carries. */
export const carries =
  (key: string) =>
  (value: unknown): boolean =>
    typeof value === 'object' && value !== null && key in value;
