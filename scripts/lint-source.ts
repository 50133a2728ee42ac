import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { readSource, report, sourceFiles } from './source-files.js';

/**
 * Three rules for the gateway's sources (src/; the simulator is its own package): a file stays within MAX_LINES lines
 * (split it by responsibility); GraphQL errors are made only in ERRORS_MODULE, with a code from its
 * `ErrorCode` union: no `new GraphQLError` (of any copy of graphql-js) or Yoga's `createGraphQLError`
 * elsewhere, and no `code: '…'` or `gqlCode = '…'` outside the union; and an exported function,
 * constructor or method names a bag parameter (options, deps, args…) with a word, not one letter.
 */
export const MAX_LINES = 300;
export const ERRORS_MODULE = join('src', 'errors.ts');

/** Files over the limit today, each to be split by the named step; a stale entry is reported too. */
export const LONG_EXCEPTIONS: readonly string[] = [];

export function longFiles(files: { path: string; text: string }[]): string[] {
  return files
    .map(({ path, text }) => ({
      path,
      lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0),
    }))
    .filter((f) => f.lines > MAX_LINES)
    .map((f) => `${f.path} (${f.lines} lines, over ${MAX_LINES}: split it by responsibility)`);
}

/** The members of `export type ErrorCode = 'A' | 'B' | …` in the errors module's text. */
export function errorCodesIn(text: string): Set<string> {
  const file = ts.createSourceFile(ERRORS_MODULE, text, ts.ScriptTarget.Latest, true);
  const codes = new Set<string>();
  for (const s of file.statements)
    if (ts.isTypeAliasDeclaration(s) && s.name.text === 'ErrorCode' && ts.isUnionTypeNode(s.type))
      for (const t of s.type.types)
        if (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal)) codes.add(t.literal.text);
  return codes;
}

/** Errors constructed outside the errors module, and codes outside its union, in one file. */
export function errorFindingsIn(path: string, text: string, codes: Set<string>): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) =>
    `${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const constructs = (callee: ts.Node) =>
    (ts.isIdentifier(callee) || ts.isPropertyAccessExpression(callee)) &&
    /GraphQLError$/.test(callee.getText(file));
  const codeLiteral = (name: ts.Node, value: ts.Node | undefined) =>
    value !== undefined &&
    (ts.isIdentifier(name) || ts.isStringLiteral(name)) &&
    (name.text === 'code' || name.text === 'gqlCode') &&
    ts.isStringLiteral(value) &&
    /^[A-Z][A-Z_]+$/.test(value.text) &&
    !codes.has(value.text);
  const visit = (node: ts.Node) => {
    if (path !== ERRORS_MODULE) {
      if (ts.isNewExpression(node) && constructs(node.expression))
        found.push(`${at(node)} (a GraphQLError made outside ${ERRORS_MODULE})`);
      if (ts.isCallExpression(node) && node.expression.getText(file) === 'createGraphQLError')
        found.push(`${at(node)} (a GraphQLError made outside ${ERRORS_MODULE})`);
    }
    if (
      (ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node)) &&
      codeLiteral(node.name, node.initializer)
    )
      found.push(`${at(node)} (a code outside ErrorCode in ${ERRORS_MODULE})`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * A bag is an object type literal or a type named like one; Pothos's `ObjectFields` is not, its
 * conventional `t` stays.
 */
const BAG_TYPE = /(Options|Deps|Args|Input|Fields|Env|Limits|Config)$/;
const isBag = (type: ts.TypeNode | undefined, file: ts.SourceFile) =>
  type !== undefined &&
  (ts.isTypeLiteralNode(type) ||
    (ts.isTypeReferenceNode(type) &&
      BAG_TYPE.test(type.typeName.getText(file)) &&
      type.typeName.getText(file) !== 'ObjectFields'));

/** One-letter bag parameters of the exported functions, arrow functions and classes of one file. */
export function shortParameterFindingsIn(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const has = (node: ts.Node, kind: ts.SyntaxKind) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === kind) ?? false);
  const exported = (node: ts.Node) => has(node, ts.SyntaxKind.ExportKeyword);
  const check = (fn: ts.SignatureDeclaration, name: string) => {
    for (const p of fn.parameters)
      if (ts.isIdentifier(p.name) && p.name.text.length === 1 && isBag(p.type, file)) {
        const line = file.getLineAndCharacterOfPosition(p.name.getStart()).line + 1;
        found.push(
          `${path}:${line} (parameter '${p.name.text}' of exported ${name}: name it for what it holds, e.g. options or deps)`,
        );
      }
  };
  for (const s of file.statements) {
    if (ts.isFunctionDeclaration(s) && s.name && exported(s)) check(s, s.name.text);
    if (ts.isVariableStatement(s) && exported(s))
      for (const d of s.declarationList.declarations)
        if (
          d.initializer &&
          (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))
        )
          check(d.initializer, d.name.getText(file));
    if (ts.isClassDeclaration(s) && s.name && exported(s))
      for (const m of s.members)
        if (
          (ts.isConstructorDeclaration(m) || ts.isMethodDeclaration(m)) &&
          !has(m, ts.SyntaxKind.PrivateKeyword) &&
          !(m.name !== undefined && ts.isPrivateIdentifier(m.name))
        )
          check(m, `${s.name.text}.${m.name?.getText(file) ?? 'constructor'}`);
  }
  return found;
}

export function sourceFindings(dir = 'src'): {
  long: string[];
  errors: string[];
  names: string[];
} {
  const files = sourceFiles(dir).map((path) => ({ path, text: readSource(path) }));
  const codes = errorCodesIn(readSource(ERRORS_MODULE));
  const long = longFiles(files);
  const stale = LONG_EXCEPTIONS.filter((e) => !long.some((f) => f.startsWith(`${e} `)));
  return {
    long: [
      ...long.filter((f) => !LONG_EXCEPTIONS.some((e) => f.startsWith(`${e} `))),
      ...stale.map((e) => `${e} (a stale exception in scripts/lint-source.ts: delete it)`),
    ],
    errors: files.flatMap(({ path, text }) => errorFindingsIn(path, text, codes)),
    names: files.flatMap(({ path, text }) => shortParameterFindingsIn(path, text)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { long, errors, names } = sourceFindings();
  report('lint:source', [...long, ...errors, ...names], 'see scripts/lint-source.ts');
}
