import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No object literal in the gateway's sources defines an accessor (`{ get x() { … } }`). Each such
 * literal gets an accessor pair and a hidden class of its own, which V8 keeps in the old generation;
 * from there the getter's closure and everything it reaches survive every young-generation collection
 * until a full one. Two were on every connection's path (an edge's `cursor`, a page's `pageInfo`) and
 * made every cold block query promote its whole upstream page (bench/README.md, "What a request leaves
 * behind"; test/unit/connection-garbage.test.ts measures that case). A class, whose accessors live
 * once on its prototype, does not. The simulator (src/sim) is not the gateway and is not checked.
 */
function accessorLiterals(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    if (path.includes(`${join('src', 'sim')}/`)) continue;
    found.push(...accessorLiteralsIn(path, readFileSync(path, 'utf8')));
  }
  return found;
}

function accessorLiteralsIn(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) &&
      ts.isObjectLiteralExpression(node.parent)
    )
      found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('accessors in object literals', () => {
  it('are found by the check (a literal getter and setter; class accessors are not)', () => {
    const sample = `
      const page = { edges: [], get endCursor() { return null; }, set x(v) {} };
      class Kept { get startCursor() { return null; } }`;
    expect(accessorLiteralsIn('sample.ts', sample)).toEqual(['sample.ts:2', 'sample.ts:2']);
  });

  it('appear nowhere in the gateway’s sources', () => {
    expect(accessorLiterals('src')).toEqual([]);
  });
});
