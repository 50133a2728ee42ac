import type { builder } from './builder.js';

/** The gateway's Pothos schema types, for helpers that build fields shared by several object types. */
export type GatewayTypes =
  typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The field builder of an object type whose parent value is `Shape` (the `t` of `fields: (t) => …`). */
export type ObjectFields<Shape> = PothosSchemaTypes.ObjectFieldBuilder<GatewayTypes, Shape>;
