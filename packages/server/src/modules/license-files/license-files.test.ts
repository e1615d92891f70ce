/**
 * The downloaded license file verifies with the server's public key, through the
 * documented command too; a changed file does not (spec 1 §2 Download License).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import type { TLicenseFile } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { seededAccountId } from '../../../test/account-fixtures.js';
import { accounts } from '../../db/schema.js';
import { verifyLicenseSignature } from '../../lib/license-signing.js';

let t: TestApp;
let dir: string;
const ids = { parent: 0, cp: 0 };
const CLI = fileURLToPath(new URL('../../cli/verify-license.ts', import.meta.url));

beforeAll(async () => {
  t = await startTestApp();
  dir = await mkdtemp(join(tmpdir(), 'fleet-license-'));
  const addOn = await seededAccountId(t, { classId: 200 });
  const [row] = await t.database.db.select({ parentId: accounts.parentId }).from(accounts).where(eq(accounts.id, addOn));
  ids.parent = row!.parentId!;
  ids.cp = await seededAccountId(t, { classId: 5 });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const verifyWithCli = async (file: string, key: string) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', CLI, file, key]).then(
    (r) => ({ code: 0, out: r.stdout }),
    (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
  );

describe('GET /accounts/{id}/files/license', () => {
  it("downloads '{urlFriendlyName} license.dat' signed by the server, with the add-ons' licenses", async () => {
    const res = await t.call({ method: 'GET', url: `/accounts/${ids.parent}/files/license`, as: 'admin' });
    expect(res.statusCode, res.body).toBe(200);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, ids.parent));
    expect(res.headers['content-disposition']).toContain(`filename="${account!.urlFriendlyName} license.dat"`);
    const file = JSON.parse(res.body) as TLicenseFile;
    expect(file.payload.account).toMatchObject({ id: ids.parent, urlFriendlyName: account!.urlFriendlyName });
    // The add-ons are the parent's add-on accounts, each with its own license.
    const addOns = await t.database.db.execute<{ id: number; name: string; site: string }>(sql`
      select a.id, a.name, s.license_config->>'addOnSiteName' as site from accounts a join account_settings s on s.account_id = a.id
      where a.parent_id = ${ids.parent} and a.deleted_at is null order by a.id`);
    expect(addOns.rows.length).toBeGreaterThan(0);
    const sorted = [...file.payload.addOns].sort((x, y) => x.id - y.id);
    expect(sorted.map((a) => ({ id: a.id, name: a.name, site: a.license.addOnSiteName }))).toEqual(addOns.rows);

    const key = (await t.call({ method: 'GET', url: '/license/public-key', as: 'viewer' })).json() as { keyId: string; publicKeyPem: string };
    expect(key.keyId).toBe(file.keyId);
    expect(verifyLicenseSignature(file, key.publicKeyPem)).toBe(true);
    const tampered = { ...file, payload: { ...file.payload, license: { ...file.payload.license, cloudCredits: 1000000 } } };
    expect(verifyLicenseSignature(tampered, key.publicKeyPem)).toBe(false);

    const keyPath = join(dir, 'license-key.pem');
    await writeFile(keyPath, key.publicKeyPem);
    const good = join(dir, `${account!.urlFriendlyName} license.dat`);
    await writeFile(good, res.body);
    const ok = await verifyWithCli(good, keyPath);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^valid: /);
    const bad = join(dir, 'tampered license.dat');
    await writeFile(bad, JSON.stringify(tampered));
    expect((await verifyWithCli(bad, keyPath)).code).toBe(1);
  });

  it('answers 404 for hidden accounts', async () => {
    expect((await t.call({ method: 'GET', url: `/accounts/${ids.cp}/files/license`, as: 'operator' })).statusCode).toBe(404);
  });
});
