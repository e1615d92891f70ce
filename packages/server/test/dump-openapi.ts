/**
 * Writes the OpenAPI document `buildApp` makes to `fixtures/openapi-before-registry.json`
 * (`documentText`: keys in the document's order, one line per path). Run once before the module registry
 * (issue 23) changed how the app is built: `npx tsx packages/server/test/dump-openapi.ts`.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, documentText } from './openapi-document.js';

const target = fileURLToPath(new URL('./fixtures/openapi-before-registry.json', import.meta.url));
const doc = await buildOpenApiDocument();
await writeFile(target, documentText(doc));
console.log(`wrote ${target}`);
