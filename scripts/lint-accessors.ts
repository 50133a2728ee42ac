import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { readSource, report, sourceFiles } from './source-files.js';

/**
 * No object literal in the gateway's sources defines an accessor (`{ get x() { … } }`). Each such
 * literal gets an accessor pair and a hidden class of its own, which V8 keeps in the old generation;
 * from there the getter's closure and everything it reaches survive every young-generation collection
 * until a full one (bench/README.md, "What a request leaves behind"; test/unit/connection-garbage.test.ts
 * measures the connection case). A class, whose accessors live once on its prototype, does not. The
 * simulator (packages/simulator) is not the gateway and is not checked.
 */
export function accessorLiteralsIn(path: string, text: string): string[] {
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

export function accessorLiterals(dir: string): string[] {
  return sourceFiles(dir).flatMap((path) => accessorLiteralsIn(path, readSource(path)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  report(
    'lint:accessors',
    accessorLiterals('src'),
    'an accessor in an object literal (use a class: its accessors live once, on its prototype)',
  );
}
