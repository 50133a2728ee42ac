import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderConfigDoc, settingDocs } from '../../scripts/config-doc.js';
import { expectedConfigDoc } from '../../scripts/docs-config.js';
import { configSchema } from '../../src/config.js';
import { ACCEPTS } from '../../src/config-accepts.js';

/** docs/configuration.md is generated from src/config.ts (`npm run docs:config`) and cannot drift. */
const path = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const sources = {
  accepts: ACCEPTS,
  configFile: path('src/config.ts'),
  docFiles: [path('src/config-shape.ts'), path('src/telemetry/tracing.ts')],
};

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` generates from the code', () => {
    const { current, expected } = expectedConfigDoc();
    expect(current, 'docs/configuration.md is stale: run `npm run docs:config`').toBe(expected);
  });

  it('documents every setting: what it accepts and one line of what it does', () => {
    const missing = settingDocs({ ...sources, schema: configSchema }).filter(
      (s) => s.accepts === '' || s.doc === '',
    );
    expect(missing.map((s) => s.name)).toEqual([]);
  });

  it('picks up a setting added to the schema, with its default', () => {
    const schema = z.object({ ...configSchema.shape, EXTRA_WAIT_MS: z.coerce.number().default(7) });
    const settings = settingDocs({ ...sources, schema });
    expect(settings.at(-1)).toMatchObject({ name: 'EXTRA_WAIT_MS', default: '`7`' });
    const doc = renderConfigDoc(settings, expectedConfigDoc().current);
    expect(doc).toContain('| `EXTRA_WAIT_MS` | `7` |');
    expect(doc, 'the hand-written notes are kept').toContain('## Notes on the settings');
  });
});
