import { it } from 'vitest';
import { MISSING_SPECS } from './specs.js';

// Run instead of the contract suite when the specs are absent outside CI (vitest.config.ts).
console.warn(`contract suite skipped: ${MISSING_SPECS}`);
it.skip(`contract suite: ${MISSING_SPECS}`, () => {});
