import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APQ_TTL_MS } from '../../src/plugins/use-apq.js';

/** Issue 42, item 5: docs/security.md said an APQ registration lives 1 h, docs/caching.md 7 days. */
describe('the APQ lifetime in the docs', () => {
  const doc = (name: string) =>
    readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
  const hours = APQ_TTL_MS / 3_600_000;

  it('is what use-apq.ts keeps, in both documents', () => {
    expect(hours).toBe(1);
    const apqParagraph = (text: string) =>
      text.split('\n').filter((l) => /APQ|persistedQuery/.test(l) && /\bkept\b|\bfor \d/.test(l));
    for (const name of ['security.md', 'caching.md']) {
      const lines = apqParagraph(doc(name));
      expect(lines.length, name).toBeGreaterThan(0);
      for (const l of lines) {
        expect(l, name).toMatch(/\b1 h(our)?\b/);
        expect(l, name).not.toMatch(/\d+ days?\b/);
      }
    }
  });
});
