/**
 * The OpenAPI document (DESIGN §5) changes only on purpose: it must equal
 * `fixtures/openapi.json`, path by path, with the tags and their descriptions in
 * the same order. A contract change made on purpose is dumped with
 * `npm run openapi:dump` and reviewed in the commit's diff like any other code.
 *
 * History: the fixture was first dumped from the hand-wired `app.ts` before the
 * module registry (issue 23), to prove that the registry builds the same document;
 * the changes since then are the 503 of every operation and the health body of
 * `GET /health` 503 (issue 23, the process survives its database) and the bounds
 * of `create-ami`'s image name and an MMA class's CAA host (issue 23, contracts).
 *
 * The key order of `paths` is not compared: JSON and OpenAPI give it no meaning,
 * and routes are registered in the module list's order (`modules/index.ts`).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi-document.js';

interface Document {
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

describe('the OpenAPI document', () => {
  it('equals fixtures/openapi.json: every path, operation and schema, the tags in their order (npm run openapi:dump after a change made on purpose)', async () => {
    const expected = JSON.parse(await readFile(new URL('./fixtures/openapi.json', import.meta.url), 'utf8')) as Document;
    const actual = (await buildOpenApiDocument()) as Document;

    expect(actual.tags).toStrictEqual(expected.tags);
    expect(Object.keys(actual.paths).sort()).toStrictEqual(Object.keys(expected.paths).sort());
    // Path by path first, so that a difference names its path.
    for (const [path, operations] of Object.entries(expected.paths)) expect(actual.paths[path], path).toStrictEqual(operations);
    expect(actual).toStrictEqual(expected);
  });
});
