/**
 * The command line's API types are those of the contract document: a route
 * changed on purpose (`npm run openapi:dump`) rewrites both, so a stale
 * `fleet-api.d.ts` (a document changed by hand, or a dump that did not run its
 * second half) fails here rather than in a command at run time.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypesText } from './generate.js';

describe('packages/cli/src/api/fleet-api.d.ts', () => {
  it('is what openapi-typescript makes of the contract document (npm run openapi:dump writes it)', async () => {
    expect(await readFile(API_TYPES_FILE, 'utf8')).toBe(await apiTypesText());
  });
});
