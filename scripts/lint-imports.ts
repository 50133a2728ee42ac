import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/**
 * The import rules of .dependency-cruiser.cjs (the layer order of docs/architecture.md) over src/ and the
 * simulator package:
 * fails on any violation that is not one of the config's named exceptions (its `knownViolations`), and
 * names the exceptions whose import is gone so they can be deleted.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

interface Exception {
  from: string;
  to: string;
  rule: { name: string };
}

export interface ImportReport {
  unexpected: string[];
  excepted: string[];
  stale: string[];
}

const describe = (v: { from: string; to: string; rule: { name: string } }) =>
  `${v.rule.name}: ${v.from} → ${v.to}`;

/** The gateway's sources and the simulator package's, whose imports of each other are forbidden. */
const CHECKED = ['src', 'packages/simulator/src'];

export async function checkImports(paths: string[] = CHECKED): Promise<ImportReport> {
  const config = require(`${root}.dependency-cruiser.cjs`);
  const exceptions: Exception[] = config.options.knownViolations ?? [];
  const { knownViolations: _, ...options } = config.options;
  const cwd = process.cwd();
  process.chdir(root);
  try {
    const result = await cruise(
      paths,
      { ...options, validate: true, ruleSet: { forbidden: config.forbidden } },
      {},
      { tsConfig: extractTSConfig(`${root}tsconfig.json`) },
    );
    const violations = (result.output as ICruiseResult).summary.violations as IViolation[];
    const found = violations.map(describe);
    const allowed = new Set(exceptions.map(describe));
    return {
      unexpected: found.filter((v) => !allowed.has(v)),
      excepted: found.filter((v) => allowed.has(v)),
      stale: [...allowed].filter((v) => !found.includes(v)),
    };
  } finally {
    process.chdir(cwd);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await checkImports(process.argv.slice(2).length ? process.argv.slice(2) : CHECKED);
  for (const v of report.stale)
    console.log(`stale exception (the import is gone; delete it): ${v}`);
  for (const v of report.unexpected) console.error(`import rule broken: ${v}`);
  console.log(
    `lint:imports: ${report.unexpected.length} unexpected violations, ${report.excepted.length} named exceptions (.dependency-cruiser.cjs)`,
  );
  if (report.unexpected.length > 0) process.exit(1);
}
