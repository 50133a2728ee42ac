import { defineConfig } from 'vitest/config';
import { hasSpec, havePublishedSpecs, IN_CI, NODE_EXAMPLES } from './test/support/specs.js';

// The contract suite reads the upstreams' specs from SPEC_DIR (test/support/specs.ts). Without them,
// outside CI, it runs a placeholder that says what to run; in CI the suite runs and fails on what is missing.
const NODE_EXAMPLE_FILES = [
  'test/contract/node-rpc.test.ts',
  'test/contract/node-evm-state.test.ts',
];
const contractFiles = (): { include: string[]; exclude: string[] } => {
  if (IN_CI) return { include: ['test/contract/**/*.test.ts'], exclude: [] };
  if (!havePublishedSpecs())
    return { include: ['test/support/specs-missing.test.ts'], exclude: [] };
  return {
    include: ['test/contract/**/*.test.ts'],
    exclude: hasSpec(NODE_EXAMPLES) ? [] : NODE_EXAMPLE_FILES,
  };
};

// Layered suites (STYLE.md): unit = pure helpers in-process; sim = the upstream simulator's own tests;
// integration = the gateway in-process against the simulator on loopback and a real Redis;
// e2e = the gateway served on loopback as a federated subgraph under a real router;
// contract = simulator answers validated against the real OpenAPI specs (SPEC_DIR).
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // The suites mostly wait on loopback servers and Redis, so more workers than the 2 cores pay off:
    // `npm test` takes about 2 minutes with 4 (about 4 with the default of one per core).
    maxWorkers: 4,
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'sim',
          include: ['packages/simulator/test/**/*.test.ts', 'test/sim/**/*.test.ts'],
        },
      },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'contract', ...contractFiles() } },
      // The same contract suite over the spec-varied simulator: every variant must be spec-valid.
      {
        extends: true,
        test: {
          name: 'contract-vary',
          include: contractFiles().include,
          exclude: [
            ...contractFiles().exclude,
            'test/contract/gateway-variants.test.ts',
            'test/contract/gateway-node-variants.test.ts',
          ],
          env: { SIM_VARY: 'contract-7' },
        },
      },
      // The differential cache oracle at a small size (test/oracle; `npm run test:oracle` runs it large).
      { extends: true, test: { name: 'oracle', include: ['test/oracle/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
