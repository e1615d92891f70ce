/**
 * The OpenAPI description is good enough for a third party (issue 9, point 6):
 * - `@redocly/cli lint` with the recommended rules and `redocly.yaml` (descriptions,
 *   declared tags, problem details on every 4xx) finds no problem in the live document;
 * - the problem responses derived in `src/lib/openapi.ts` are there on a few
 *   operations whose rules are known, and the runtime answer matches them;
 * - types generated from the live document by openapi-typescript type-check a small
 *   openapi-fetch client (`openapi-client/client.ts`), which then signs in, lists
 *   accounts, lists an account's machines and reads one against the app on a port.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLIENT_DIR = fileURLToPath(new URL('./openapi-client/', import.meta.url));
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

interface Operation {
  operationId: string;
  description?: string;
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }>; headers?: Record<string, unknown> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  tags: { name: string; description: string }[];
}

/** Runs a command; answers its stdout and exit code instead of throwing on a non-zero exit. */
async function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // Redocly: no usage telemetry and no registry look-up for a newer version.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { env, cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? String(error) };
  }
}

/** What `openapi-client/client.ts` reads from a problem answer (its `ProblemSeen`). */
interface ProblemSeen {
  status: number;
  problemStatus: number | undefined;
  title: string | undefined;
  firstError?: { propertyName: string; attemptedValue: unknown };
}

let t: TestApp;
let doc: Document;
let operations: Map<string, Operation>;

beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  operations = new Map(Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => [op.operationId, op] as const)));
});
afterAll(() => t.close());

describe('the OpenAPI description', () => {
  it('passes @redocly/cli lint (recommended rules and redocly.yaml) with no error and no warning', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fleet-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      const lint = await run(bin('redocly'), ['lint', '--config', join(ROOT, 'redocly.yaml'), '--format=json', '--max-problems=10000', file]);
      const report = JSON.parse(lint.stdout) as {
        totals: { errors: number; warnings: number };
        problems: { ruleId: string; message: string; location: { pointer?: string }[] }[];
      };
      expect(report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      expect(lint.code).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('derives the problem responses from the route: validation, token, permission, id, declared statuses, rate limit, database away', () => {
    const statuses = (operationId: string) => Object.keys(operations.get(operationId)?.responses ?? {}).filter((s) => Number(s) >= 400 && Number(s) < 500);
    // Public, validated, 401 declared (wrong credentials), 403 declared (LOCAL_LOGIN=false), throttled.
    expect(statuses('login')).toEqual(['400', '401', '403', '429']);
    expect(operations.get('login')?.security).toEqual([]);
    expect(statuses('getHealth')).toEqual(['429']);
    // A read with no input: token only.
    expect(statuses('getMachineStats')).toEqual(['401', '429']);
    // A read by id: no 403.
    expect(statuses('getMachine')).toEqual(['400', '401', '404', '429']);
    // A read that reveals secrets: 403 (requireWrite).
    expect(statuses('getMachineCredential')).toEqual(['400', '401', '403', '404', '429']);
    // A self-service mutation: no 403.
    expect(statuses('changePassword')).toEqual(['400', '401', '429']);
    // A mutation by id with a stale-version conflict and an add-on rule.
    expect(statuses('pushInstanceSettings')).toEqual(['400', '401', '403', '404', '409', '422', '429']);
    // An enum path parameter is not an id: no 404.
    expect(statuses('listTemplates')).toEqual(['400', '401', '429']);
    // The id in the body: 404 declared.
    expect(statuses('createAccountFromDraft')).toEqual(['400', '401', '403', '404', '409', '422', '429']);

    // The database away: 503 with Retry-After on every operation, problem details but for health's own body.
    const health503 = operations.get('getHealth')?.responses['503'];
    expect(health503?.content?.['application/json']?.schema).toMatchObject({ properties: { database: { enum: ['down'] } } });
    for (const op of operations.values()) {
      expect(Object.keys(op.responses), op.operationId).toContain('503');
      expect(op.responses['503']?.headers, op.operationId).toHaveProperty('Retry-After');
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400 || (op.operationId === 'getHealth' && status === '503')) continue;
        expect(response.content?.['application/problem+json']?.schema?.$ref, `${op.operationId} ${status}`).toBe('#/components/schemas/ProblemDetails');
      }
      expect(op.description, op.operationId).toMatch(/\. (Public|Needs)\b[^.]*\.$/);
    }
  });

  it('sends what it documents: a 400 problem with every field error and its attempted value, a 404 problem', async () => {
    const bad = await t.call({ method: 'GET', url: '/accounts', as: 'admin', query: { limit: '0', startIndex: '-1' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(bad.json()).toMatchObject({
      status: 400,
      errors: expect.arrayContaining([
        expect.objectContaining({ propertyName: 'limit', attemptedValue: '0' }),
        expect.objectContaining({ propertyName: 'startIndex', attemptedValue: '-1' }),
      ]),
    });
    const missing = await t.call({ method: 'GET', url: '/machines/2147483647', as: 'admin' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404, title: 'Not Found' });
  });

  it('generates types (openapi-typescript) that type-check an openapi-fetch client, which then works against the app', { timeout: 180_000 }, async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const live = await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json();
    const types = astToString(await openapiTS(live));
    await writeFile(join(CLIENT_DIR, 'fleet-api.d.ts'), `// Generated by test/openapi.test.ts from the live document; not committed.\n${types}`);

    const tsc = await run(bin('tsc'), ['--noEmit', '-p', join(CLIENT_DIR, 'tsconfig.json')]);
    expect(tsc.stdout + tsc.stderr, 'tsc on openapi-client/client.ts').toBe('');
    expect(tsc.code).toBe(0);

    // A path the type checker does not follow: client.ts needs the generated types.
    const clientPath = join(CLIENT_DIR, 'client.ts');
    const client = (await import(clientPath)) as {
      walkthrough(baseUrl: string, username: string, password: string): Promise<{
        tokenExpiresAt: string;
        accounts: { totalItems: number; names: string[] };
        account: { id: number; machines: number };
        machine: { id: number; name: string; accountId: number; status: number };
        unknownMachine: ProblemSeen;
        badLimit: ProblemSeen;
        anonymous: ProblemSeen;
      }>;
    };
    const result = await client.walkthrough(baseUrl, 'admin', 'admin');
    expect(Date.parse(result.tokenExpiresAt)).toBeGreaterThan(Date.now());
    expect(result.accounts.totalItems).toBeGreaterThan(0);
    expect(result.accounts.names.length).toBeGreaterThan(0);
    expect(result.account.machines).toBeGreaterThan(0);
    expect(result.machine).toMatchObject({ status: 200, accountId: result.account.id });
    expect(result.machine.name).not.toBe('');
    expect(result.unknownMachine).toEqual({ status: 404, problemStatus: 404, title: 'Not Found' });
    expect(result.badLimit).toEqual({ status: 400, problemStatus: 400, title: 'Bad Request', firstError: { propertyName: 'limit', attemptedValue: '0' } });
    expect(result.anonymous).toEqual({ status: 401, problemStatus: 401, title: 'Unauthorized' });
  });
});
