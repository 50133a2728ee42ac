import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type DefinitionNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  visit,
} from 'graphql';

/**
 * The persisted-operations manifest: one entry per operation of `schema/operations/*.graphql` and
 * `examples/operations/*.graphql`, the
 * operation plus the fragments it uses, keyed by the SHA-256 (hex) of that printed document — the hash a
 * client sends as `extensions.persistedQuery.sha256Hash` (or `documentId`). Built at build time into
 * `schema/persisted-operations.json` (`npm run persisted:print`; `npm test` fails when it is stale).
 */
export type PersistedManifest = Record<string, string>;

export const MANIFEST_PATH = fileURLToPath(
  new URL('../../schema/persisted-operations.json', import.meta.url),
);
const OPERATIONS_DIRS = [
  fileURLToPath(new URL('../../schema/operations', import.meta.url)),
  fileURLToPath(new URL('../../examples/operations', import.meta.url)),
];

export function buildPersistedManifest(
  dirs: readonly string[] = OPERATIONS_DIRS,
): PersistedManifest {
  const files = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.graphql'))
      .sort()
      .map((f) => join(dir, f)),
  );
  const definitions: DefinitionNode[] = files.flatMap(
    (f) => parse(readFileSync(f, 'utf8')).definitions,
  );
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of definitions)
    if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const manifest: PersistedManifest = {};
  for (const op of definitions) {
    if (op.kind !== Kind.OPERATION_DEFINITION) continue;
    const text = [
      op,
      ...usedFragments(op, fragments).sort((a, b) => a.name.value.localeCompare(b.name.value)),
    ]
      .map((d) => print(d))
      .join('\n\n');
    manifest[persistedHash(text)] = text;
  }
  return Object.fromEntries(Object.entries(manifest).sort(([a], [b]) => a.localeCompare(b)));
}

/** The fragments an operation uses, directly or through other fragments (each once). */
export function usedFragments(
  op: OperationDefinitionNode,
  all: ReadonlyMap<string, FragmentDefinitionNode>,
): FragmentDefinitionNode[] {
  const used = new Map<string, FragmentDefinitionNode>();
  const collect = (node: DefinitionNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const f = all.get(spread.name.value);
        if (f && !used.has(f.name.value)) {
          used.set(f.name.value, f);
          collect(f);
        }
      },
    });
  collect(op);
  return [...used.values()];
}

export const persistedHash = (document: string) =>
  createHash('sha256').update(document).digest('hex');

export function loadPersistedManifest(path = MANIFEST_PATH): PersistedManifest {
  return JSON.parse(readFileSync(path, 'utf8')) as PersistedManifest;
}
