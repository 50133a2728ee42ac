/**
 * The layer order of src/ (docs/architecture.md, "Layers"), checked by `npm run lint:imports`.
 * From the outside in: process → listener → composition → http → plugins → schema → context → loaders → cache → upstream → config, with
 * telemetry and live beside them. An import may only go inwards (or stay in its layer); nothing imports
 * the simulator (packages/simulator) and the simulator imports no gateway code.
 */
const LAYERS = [
  // The door, in the order a request meets it (docs/architecture.md, "The door"): the process's entry,
  // the listeners (HTTP and graphql-ws, the metrics port), the composition that builds the gateway, then
  // the entry stages and edge checks it wires. No loop: a stage names no type of the composition above.
  { name: 'process', path: ['^src/server\\.ts$'] },
  { name: 'listener', path: ['^src/http/(server|graphql-ws|metrics-server)\\.ts$'] },
  { name: 'composition', path: ['^src/(gateway|gateway-types)\\.ts$'] },
  { name: 'http', path: ['^src/edge/', '^src/http/(?!(server|graphql-ws|metrics-server)\\.ts$)'] },
  { name: 'plugins', path: ['^src/plugins/', '^src/graphiql/'] },
  { name: 'schema', path: ['^src/schema/'] },
  // The per-request context, and the admin verdict it decides once per request for the schema to read.
  { name: 'context', path: ['^src/context\\.ts$', '^src/admin-auth\\.ts$'] },
  { name: 'loaders', path: ['^src/loaders/'] },
  { name: 'cache', path: ['^src/cache/'] },
  // The client-visible errors sit with the UpstreamError they map, so every layer above can make one.
  { name: 'upstream', path: ['^src/upstream/(?!compute-units)', '^src/errors\\.ts$'] },
  // The published compute-unit price table is a fact about the upstream, like the specs' enumerations:
  // it imports nothing, and config reads it (plan names). The simulator keeps its own copy.
  {
    name: 'config',
    path: [
      '^src/config[^/]*\\.ts$',
      '^src/spec/',
      '^src/heap-limit\\.ts$',
      '^src/upstream/compute-units',
    ],
  },
];
const TELEMETRY = ['^src/telemetry/', '^src/metrics\\.ts$'];
const LIVE = ['^src/live/'];
const pathsOf = (layers) => layers.flatMap((l) => l.path);

/**
 * Imports allowed to break the rules, each named with its reason (none today). Any violation not listed
 * here fails, and a listed one that is gone is named as stale. Kept as dependency-cruiser's known
 * violations, which scripts/lint-imports.ts reads and compares.
 */
const EXCEPTIONS = [];

/** No layer imports a layer outside it (closer to the client). */
const upward = LAYERS.slice(1).map((layer, i) => ({
  name: `no-upward-${layer.name}`,
  comment: `${layer.name} imports only inward layers (docs/architecture.md, "Layers")`,
  severity: 'error',
  from: { path: layer.path },
  to: { path: pathsOf(LAYERS.slice(0, i + 1)) },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'telemetry-imports',
      comment: 'telemetry is beside every layer: it imports only config',
      severity: 'error',
      from: { path: TELEMETRY },
      to: { path: '^src/', pathNot: [...TELEMETRY, ...LAYERS.at(-1).path] },
    },
    {
      name: 'live-imports',
      comment: 'live is beside the layers: it imports only cache, upstream, config and telemetry',
      severity: 'error',
      from: { path: LIVE },
      to: {
        path: '^src/',
        pathNot: [...LIVE, ...TELEMETRY, ...pathsOf(LAYERS.slice(LAYERS.length - 3))],
      },
    },
    {
      name: 'live-importers',
      comment: 'live is wired by the composition root (http) and read by the schema, nothing else',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: [...LIVE, ...pathsOf(LAYERS.slice(0, 4)), '^src/schema/', '^src/context\\.ts$'],
      },
      to: { path: LIVE },
    },
    {
      name: 'context-names-live',
      comment:
        "the context carries live's handles to the schema: it names their types, runs none of live",
      severity: 'error',
      from: { path: '^src/context\\.ts$' },
      to: { path: LIVE, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'entry-not-plugins',
      comment: 'the entry stages (src/edge) share with Yoga plugins through modules below both',
      severity: 'error',
      from: { path: ['^src/edge/', '^src/http/'] },
      to: { path: '^src/plugins/' },
    },
    {
      name: 'entry-not-context',
      comment: 'the entry stages do not reach into the per-request context module',
      severity: 'error',
      from: { path: ['^src/edge/', '^src/http/'] },
      to: { path: '^src/context\\.ts$' },
    },
    {
      name: 'context-types-only',
      comment: 'plugins take the context type from context.ts, never values',
      severity: 'error',
      from: { path: ['^src/plugins/'] },
      to: { path: '^src/context\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'sim-apart',
      comment:
        'gateway code never imports the simulator (packages/simulator, a workspace of its own)',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: ['^packages/simulator/', '@avalanche-gateway/simulator'] },
    },
    {
      name: 'sim-imports',
      comment:
        'the simulator imports nothing of the gateway: its prices and specs are its own copies',
      severity: 'error',
      from: { path: '^packages/simulator/' },
      to: { path: '^(src|test|scripts|bench|examples)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    knownViolations: EXCEPTIONS.map((e) => ({
      from: e.from,
      to: e.to,
      rule: { name: e.rule, severity: 'error' },
    })),
  },
};
