import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { readSource, report, sourceFiles } from './source-files.js';

/**
 * Comments in src/ say why, never when: no dates (YYYY-MM-DD) and no history ("used to", "until 2026");
 * that belongs in docs/decisions/ and the commit log. Nor paths outside the repository, which a clone
 * does not have. Only comments are read, never strings.
 */
const RULES: { pattern: RegExp; what: string }[] = [
  { pattern: /\b\d{4}-\d{2}-\d{2}\b/, what: 'a date' },
  { pattern: /\bused to\b/i, what: '"used to"' },
  { pattern: /\buntil (19|20)\d{2}\b/i, what: '"until <year>"' },
  { pattern: /\.\.\/shared\//, what: 'a path outside the repository (name the spec, or SPEC_DIR)' },
];

/** Every comment of a TypeScript text (from the parsed tree, so strings and templates are never read). */
function commentsOf(path: string, text: string): ts.CommentRange[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, ts.CommentRange>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, r);
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(file);
  collect(ts.getLeadingCommentRanges(text, file.endOfFileToken.getFullStart()));
  return [...seen.values()].sort((a, b) => a.pos - b.pos);
}

/** Each comment line of a TypeScript text that breaks a rule, as `path:line (what)`. */
export function commentFindings(path: string, text: string): string[] {
  const found: string[] = [];
  for (const range of commentsOf(path, text)) {
    const first = text.slice(0, range.pos).split('\n').length;
    text
      .slice(range.pos, range.end)
      .split('\n')
      .forEach((line, i) => {
        for (const rule of RULES) {
          if (rule.pattern.test(line)) found.push(`${path}:${first + i} (${rule.what})`);
        }
      });
  }
  return found;
}

export function commentFindingsIn(dir: string): string[] {
  return sourceFiles(dir).flatMap((path) => commentFindings(path, readSource(path)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  report(
    'lint:comments',
    commentFindingsIn('src'),
    'comments say why, not when: no dates, no "used to" (history goes in docs/decisions/)',
  );
}
