import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, and the TypeScript files under one of its folders (paths relative to the root). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function sourceFiles(dir: string, skip: (path: string) => boolean = () => false): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter((path) => !skip(path))
    .sort();
}

/** A listed file's text, or '' when it is gone since the listing (another process removed it). */
export function readSource(path: string): string {
  try {
    return readFileSync(join(ROOT, path), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw err;
  }
}

/** Runs a check over files and prints its findings; exits 1 when there are any. */
export function report(name: string, findings: string[], rule: string): void {
  for (const f of findings) console.error(`${f}: ${rule}`);
  console.log(`${name}: ${findings.length} found`);
  if (findings.length > 0) process.exit(1);
}
