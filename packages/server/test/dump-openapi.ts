/**
 * Writes the OpenAPI document `buildApp` makes to `fixtures/openapi.json`
 * (`documentText`: keys in the document's order, one line per path), the contract
 * `openapi-contract.test.ts` holds the app to. Run after a contract change made on
 * purpose: `npm run openapi:dump`. Then writes the command line's API types from it
 * (`packages/cli/src/api/fleet-api.d.ts`).
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument, documentText } from './openapi-document.js';
import { writeApiTypes } from '../../cli/src/api/generate.js';

const target = fileURLToPath(new URL('./fixtures/openapi.json', import.meta.url));
const doc = await buildOpenApiDocument();
await writeFile(target, documentText(doc));
console.log(`wrote ${target}`);
// The command line's API types follow the document (packages/cli/src/api/generate.ts).
console.log(`wrote ${await writeApiTypes()}`);
