import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the docs show a reader to run, extracted so a test runs it (test/integration/docs-operations.test.ts):
 * every ```graphql block, every `curl` command of a shell block (its `query` too, from `-d '<json>'`),
 * and every UPPER_SNAKE name in code that looks like a setting.
 */
export interface DocExample {
  file: string;
  /** 1-based line of the block or command. */
  line: number;
  kind: 'graphql' | 'curl';
  /** The GraphQL text, or the curl command with its continuation lines joined. */
  text: string;
  /** A curl command's GraphQL document, from its `-d` JSON body. */
  query?: string;
}

/** README.md and docs/*.md, as [path, text]. */
export function docFiles(root: string): [string, string][] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return files.map((f) => [f, readFileSync(join(root, f), 'utf8')]);
}

interface Fence {
  lang: string;
  line: number;
  lines: string[];
}

function fences(markdown: string): Fence[] {
  const out: Fence[] = [];
  let open: Fence | undefined;
  markdown.split('\n').forEach((l, i) => {
    const m = /^\s*```\s*([\w-]*)/.exec(l);
    if (m) {
      if (open) {
        out.push(open);
        open = undefined;
      } else open = { lang: m[1]!.toLowerCase(), line: i + 1, lines: [] };
    } else open?.lines.push(l);
  });
  return out;
}

/** The body of a single-quoted `-d` / `--data` argument of a curl command, when it is JSON. */
function curlBody(command: string): unknown {
  const m = /(?:^|\s)(?:-d|--data|--data-raw|--data-binary)\s+'([^']*)'/.exec(command);
  if (!m) return undefined;
  try {
    return JSON.parse(m[1]!);
  } catch {
    return undefined;
  }
}

export function extractDocExamples(markdown: string, file: string): DocExample[] {
  const out: DocExample[] = [];
  for (const f of fences(markdown)) {
    if (f.lang === 'graphql' || f.lang === 'gql') {
      out.push({ file, line: f.line, kind: 'graphql', text: f.lines.join('\n') });
      continue;
    }
    if (!['sh', 'bash', 'shell', 'console', ''].includes(f.lang)) continue;
    for (let i = 0; i < f.lines.length; i++) {
      const first = f.lines[i]!.replace(/^\$\s+/, '');
      if (!/^curl\s/.test(first.trim())) continue;
      const start = i;
      let command = first;
      while (command.trimEnd().endsWith('\\') && i + 1 < f.lines.length)
        command = `${command.trimEnd().slice(0, -1)} ${f.lines[++i]!.trim()}`;
      const body = curlBody(command) as { query?: unknown } | undefined;
      out.push({
        file,
        line: f.line + 1 + start,
        kind: 'curl',
        text: command.trim(),
        query: typeof body?.query === 'string' ? body.query : undefined,
      });
    }
  }
  return out;
}

const NAME = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

/** UPPER_SNAKE names in the doc's code (inline code spans and fenced blocks), with their line. */
export function namesInCode(markdown: string): { name: string; line: number; text: string }[] {
  const out: { name: string; line: number; text: string }[] = [];
  let inFence = false;
  markdown.split('\n').forEach((l, i) => {
    if (/^\s*```/.test(l)) {
      inFence = !inFence;
      return;
    }
    const code = inFence ? [l] : [...l.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    for (const c of code)
      for (const m of c.matchAll(NAME)) out.push({ name: m[0], line: i + 1, text: l });
  });
  return out;
}
