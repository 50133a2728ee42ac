import { describe, expect, it } from 'vitest';
import { commentFindings, commentFindingsIn } from '../../scripts/lint-comments.js';

/** Self-test of the comment rule (`npm run lint:comments`): dates and history in comments, never strings. */
describe('comments in src (scripts/lint-comments.ts)', () => {
  it('flag dates, "used to", "until <year>" and paths outside the repository in comments', () => {
    const sample = [
      '// Measured on 2026-11-26.',
      '/**',
      ' * It used to travel in AsyncLocalStorage.',
      ' * Until 2026 this was ky.',
      ' */',
      'const x = 1; // trailing 2025-01-01',
      'const t = `/* not a comment 2024-01-01 */`;',
      "const s = 'a key used to sign, on 2024-01-01';",
      'const r = /used to/;',
      '// after `../shared/upstream/README.md`',
    ].join('\n');
    expect(commentFindings('sample.ts', sample)).toEqual([
      'sample.ts:1 (a date)',
      'sample.ts:3 ("used to")',
      'sample.ts:4 ("until <year>")',
      'sample.ts:6 (a date)',
      'sample.ts:10 (a path outside the repository (name the spec, or SPEC_DIR))',
    ]);
  });

  it('find nothing in src/', () => {
    expect(commentFindingsIn('src')).toEqual([]);
  });
});
