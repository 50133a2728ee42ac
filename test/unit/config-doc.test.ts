import { describe, expect, it } from 'vitest';
import { renderConfigDoc, settingDocs } from '../../scripts/config-doc.js';
import { expectedConfigDoc } from '../../scripts/docs-config.js';
import { loadConfig } from '../../src/config.js';
import { int } from '../../src/config-kinds.js';
import { SETTINGS } from '../../src/config-settings.js';

/** docs/configuration.md is generated from SETTINGS (`npm run docs:config`) and cannot drift. */
describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` generates from the code', () => {
    const { current, expected } = expectedConfigDoc();
    expect(current, 'docs/configuration.md is stale: run `npm run docs:config`').toBe(expected);
  });

  it('documents every setting: what it accepts and one line of what it does', () => {
    const missing = settingDocs(SETTINGS).filter((s) => s.accepts === '' || s.doc === '');
    expect(missing.map((s) => s.name)).toEqual([]);
  });

  it('has a row for every declared variable, and loadConfig reads no variable it does not declare', () => {
    const rows = [...expectedConfigDoc().current.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map(
      (m) => m[1],
    );
    expect(rows).toEqual(Object.keys(SETTINGS));
    const read = new Set<string>();
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (_, key) => {
        read.add(String(key));
        return undefined;
      },
      ownKeys: (target) => {
        read.add('(every key)');
        return Reflect.ownKeys(target);
      },
    });
    loadConfig(env);
    expect([...read].filter((key) => !(key in SETTINGS))).toEqual([]);
  });

  it('picks up a setting added to the table, with its default', () => {
    const settings = settingDocs({
      ...SETTINGS,
      EXTRA_WAIT_MS: int(0, 60_000).default(7).doc('How long to wait.'),
    });
    expect(settings.at(-1)).toMatchObject({ name: 'EXTRA_WAIT_MS', default: '`7`' });
    const doc = renderConfigDoc(settings, expectedConfigDoc().current);
    expect(doc).toContain('| `EXTRA_WAIT_MS` | `7` | an integer 0-60000 | How long to wait. |');
    expect(doc, 'the hand-written notes are kept').toContain('## Notes on the settings');
  });
});
