/**
 * The module registry (issue 23) builds the same OpenAPI document as the hand-wired
 * `app.ts` before it: every path, operation and schema, and the tags with their
 * descriptions in the same order. `fixtures/openapi-before-registry.json` was
 * written by `dump-openapi.ts` before the change. A change of the document made
 * on purpose is dumped the same way, from the hand-wired app (commit 80d6502)
 * with that change applied: so far the 503 of every operation and the health
 * body of `GET /health` 503 (issue 23, "The process survives its database").
 *
 * The key order of `paths` is not compared: routes are registered in the module
 * list's order, which is the tags' order (`modules/index.ts`), so a path can come
 * earlier or later in the object than before; JSON and OpenAPI give that order no
 * meaning.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi-document.js';

interface Document {
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

describe('the OpenAPI document built from the module list', () => {
  it('equals the document of the hand-wired app: every path, operation and schema, the tags in their order', async () => {
    const before = JSON.parse(await readFile(new URL('./fixtures/openapi-before-registry.json', import.meta.url), 'utf8')) as Document;
    const after = (await buildOpenApiDocument()) as Document;

    expect(after.tags).toStrictEqual(before.tags);
    expect(Object.keys(after.paths).sort()).toStrictEqual(Object.keys(before.paths).sort());
    // Path by path first, so that a difference names its path.
    for (const [path, operations] of Object.entries(before.paths)) expect(after.paths[path], path).toStrictEqual(operations);
    expect(after).toStrictEqual(before);
  });
});
