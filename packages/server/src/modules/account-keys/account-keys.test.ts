/**
 * Account key pairs through the API (spec 1 §2 Download Keys / Download CAA
 * Key, §7 generate-keys and the key downloads; DESIGN §5 secrets): real pairs
 * that load with node:crypto and match, private keys sealed at rest, write
 * needed, every read and generation audited, add-ons refused (422), hidden and
 * unknown accounts 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import {
  CLASS_ADD_ON,
  CLASS_CUSTOMER_PRODUCTION,
  KEYS_ZIP_ENTRIES,
  LICENSE_KEYS_ZIP_ENTRIES,
  type TGenerateKeysResponse,
  type TKeysManifest,
  type TLicenseKeysConfig,
  type TUserActivity,
} from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { TEST_DATA_KEY } from '../../../test/db-url.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { insertAccount } from '../../../test/fixtures.js';
import { accountKeys, accounts } from '../../db/schema.js';

let t: TestApp;
/** Opens what the server sealed with the test data key. */
const secrets = createSecretBox(TEST_DATA_KEY);
const ids = { plain: 0, fresh: 0, race: 0, addOn: 0, cp: 0 };
let urlName = '';

beforeAll(async () => {
  t = await startTestApp();
  const pick = async (where: ReturnType<typeof eq>) => {
    const [row] = await t.database.db.select({ id: accounts.id, url: accounts.urlFriendlyName }).from(accounts).where(where).orderBy(accounts.id).limit(1);
    return row!;
  };
  const plain = await pick(and(inArray(accounts.classId, [1, 2, 3, 4]), eq(accounts.isTemplate, false))!);
  ids.plain = plain.id;
  urlName = plain.url;
  ids.addOn = (await pick(eq(accounts.classId, CLASS_ADD_ON))).id;
  ids.cp = (await pick(eq(accounts.classId, CLASS_CUSTOMER_PRODUCTION))).id;
  ids.fresh = (await insertAccount(t.database.db, { name: 'Keys Fresh' })).id;
  ids.race = (await insertAccount(t.database.db, { name: 'Keys Race' })).id;
});
afterAll(() => t.close());

const get = (id: number, file: string, as = 'operator') => t.call({ method: 'GET', url: `/accounts/${id}/files/${file}`, as });
const generate = (id: number, as = 'operator', body: unknown = {}) => t.call({ method: 'POST', url: `/accounts/${id}/generate-keys`, as, body });

/** The account's activities of `action`, newest first. */
async function activitiesOf(accountId: number, action: string): Promise<TUserActivity[]> {
  const res = await t.call({ method: 'GET', url: '/user-activities', as: 'admin', query: { action, accountId: String(accountId), limit: '200' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TUserActivity[];
}

const der = (k: KeyObject) => k.export({ type: 'spki', format: 'der' }).toString('hex');

/** Both PEMs load, the public key derived from the private one is the given one, and a signature verifies. */
function expectMatchingPair(privatePem: string, publicPem: string, type: 'rsa' | 'ed25519') {
  const privateKey = createPrivateKey(privatePem);
  const publicKey = createPublicKey(publicPem);
  expect(privateKey.asymmetricKeyType).toBe(type);
  expect(publicKey.asymmetricKeyType).toBe(type);
  expect(der(createPublicKey(privateKey))).toBe(der(publicKey));
  const data = Buffer.from('fleet console key check');
  const algorithm = type === 'rsa' ? 'sha256' : null;
  expect(verify(algorithm, data, publicKey, sign(algorithm, data, privateKey))).toBe(true);
}

const unzip = (body: Buffer) => Object.fromEntries(Object.entries(unzipSync(new Uint8Array(body))).map(([name, bytes]) => [name, strFromU8(bytes)]));

const pemBlocks = (text: string) => text.match(/-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----\n?/g) ?? [];

describe('POST /accounts/{id}/generate-keys', () => {
  it('needs write: a viewer gets 403 and nothing is stored', async () => {
    expect((await generate(ids.plain, 'viewer')).statusCode).toBe(403);
    expect(await t.database.db.select().from(accountKeys).where(eq(accountKeys.accountId, ids.plain))).toEqual([]);
  });

  it('makes an RSA encryption pair, an Ed25519 CAA pair and an RSA license pair, sealed at rest and audited', async () => {
    const res = await generate(ids.plain);
    expect(res.statusCode, res.body).toBe(200);
    const { keys } = res.json() as TGenerateKeysResponse;
    expect(keys.map((k) => [k.kind, k.algorithm])).toEqual([
      ['encryption', 'rsa-2048'],
      ['caa', 'ed25519'],
      ['license', 'rsa-2048'],
    ]);
    for (const k of keys) {
      expect(k.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(k.createdBy).toBe('operator');
    }

    const rows = await t.database.db.select().from(accountKeys).where(eq(accountKeys.accountId, ids.plain));
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.privateKeyEnc).toMatch(/^v1:/);
      expect(row.privateKeyEnc).not.toContain('PRIVATE KEY');
      // Sealed, not encoded: no 16 characters of the key's PEM body appear in it.
      const body = secrets.open(row.privateKeyEnc).replace(/-----[^-]+-----|\s/g, '');
      expect(body.length).toBeGreaterThan(60);
      for (let i = 0; i + 16 <= body.length; i += 16) expect(row.privateKeyEnc).not.toContain(body.slice(i, i + 16));
      expect(row.publicKeyPem).toContain('-----BEGIN PUBLIC KEY-----');
      expect(row.fingerprint).toBe(keys.find((k) => k.kind === row.kind)!.fingerprint);
    }

    const [activity] = await activitiesOf(ids.plain, 'GenerateAccountKeys');
    expect(activity!.user).toBe('operator');
    expect(activity!.metadata.params).toMatchObject({ kinds: ['encryption', 'caa', 'license'] });
    expect(activity!.metadata.changes).toEqual(
      keys.map((k) => ({ entityName: 'AccountKey', propertyName: `${k.kind}.fingerprint`, oldValue: null, newValue: k.fingerprint })),
    );
  });

  it('replaces only the chosen kinds, and the audit names the old and new fingerprints', async () => {
    const before = await t.database.db.select().from(accountKeys).where(eq(accountKeys.accountId, ids.plain));
    const res = await generate(ids.plain, 'operator', { kinds: ['caa'] });
    expect(res.statusCode, res.body).toBe(200);
    const [caa] = (res.json() as TGenerateKeysResponse).keys;
    const oldCaa = before.find((r) => r.kind === 'caa')!;
    expect(caa!.fingerprint).not.toBe(oldCaa.fingerprint);
    const after = await t.database.db.select().from(accountKeys).where(eq(accountKeys.accountId, ids.plain));
    for (const kind of ['encryption', 'license']) {
      expect(after.find((r) => r.kind === kind)!.fingerprint).toBe(before.find((r) => r.kind === kind)!.fingerprint);
    }
    const [activity] = await activitiesOf(ids.plain, 'GenerateAccountKeys');
    expect(activity!.metadata.changes).toEqual([{ entityName: 'AccountKey', propertyName: 'caa.fingerprint', oldValue: oldCaa.fingerprint, newValue: caa!.fingerprint }]);
  });

  it('takes a call without a body; refuses an empty kinds list (400)', async () => {
    const res = await t.call({ method: 'POST', url: `/accounts/${ids.plain}/generate-keys`, as: 'operator' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as TGenerateKeysResponse).keys).toHaveLength(3);
    expect((await generate(ids.plain, 'operator', { kinds: [] })).statusCode).toBe(400);
    expect((await generate(ids.plain, 'operator', { kinds: ['ssh'] })).statusCode).toBe(400);
  });
});

describe('GET /accounts/{id}/files/keys, /caa-key, /license-keys', () => {
  it("'{urlFriendlyName} keys.zip' holds the stored encryption pair and keys.json", async () => {
    const res = await get(ids.plain, 'keys');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain(`filename="${urlName} keys.zip"`);
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(`${urlName} keys.zip`)}`);
    const files = unzip(res.rawPayload);
    expect(Object.keys(files).sort()).toEqual([KEYS_ZIP_ENTRIES.manifest, KEYS_ZIP_ENTRIES.privateKey, KEYS_ZIP_ENTRIES.publicKey].sort());
    expectMatchingPair(files[KEYS_ZIP_ENTRIES.privateKey]!, files[KEYS_ZIP_ENTRIES.publicKey]!, 'rsa');
    const manifest = JSON.parse(files[KEYS_ZIP_ENTRIES.manifest]!) as TKeysManifest;
    const [row] = await t.database.db.select().from(accountKeys).where(and(eq(accountKeys.accountId, ids.plain), eq(accountKeys.kind, 'encryption')));
    expect(manifest).toMatchObject({ account: { id: ids.plain, urlFriendlyName: urlName }, key: { kind: 'encryption', fingerprint: row!.fingerprint } });
    expect(['Default', 'Unique', 'GenerateNewKeys']).toContain(manifest.keyType);
    expect(files[KEYS_ZIP_ENTRIES.publicKey]).toBe(row!.publicKeyPem);
  });

  it("'{urlFriendlyName} caa-account.txt' holds the Ed25519 CAA pair as PEM after its header lines", async () => {
    const res = await get(ids.plain, 'caa-key');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`filename="${urlName} caa-account.txt"`);
    const [row] = await t.database.db.select().from(accountKeys).where(and(eq(accountKeys.accountId, ids.plain), eq(accountKeys.kind, 'caa')));
    expect(res.body).toContain(`account-id: ${ids.plain}\naccount: ${urlName}\n`);
    expect(res.body).toContain(`fingerprint: ${row!.fingerprint}\n`);
    const [privatePem, publicPem] = pemBlocks(res.body);
    expect(privatePem).toContain('BEGIN PRIVATE KEY');
    expectMatchingPair(privatePem!, publicPem!, 'ed25519');
  });

  it("'{urlFriendlyName} license keys.zip' holds id_rsa (PKCS#1), id_rsa.pub and config.json with the license verification key", async () => {
    const res = await get(ids.plain, 'license-keys');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain(`filename="${urlName} license keys.zip"`);
    const files = unzip(res.rawPayload);
    expect(files[LICENSE_KEYS_ZIP_ENTRIES.privateKey]).toContain('-----BEGIN RSA PRIVATE KEY-----');
    expectMatchingPair(files[LICENSE_KEYS_ZIP_ENTRIES.privateKey]!, files[LICENSE_KEYS_ZIP_ENTRIES.publicKey]!, 'rsa');
    const config = JSON.parse(files[LICENSE_KEYS_ZIP_ENTRIES.config]!) as TLicenseKeysConfig;
    const server = (await t.call({ method: 'GET', url: '/license/public-key', as: 'viewer' })).json() as { keyId: string; publicKeyPem: string };
    expect(config.licenseVerification).toEqual(server);
    expect(config).toMatchObject({ account: { id: ids.plain }, key: { kind: 'license', algorithm: 'rsa-2048' } });
  });

  it('audits every download; a viewer gets 403 and leaves no trace', async () => {
    const before = (await activitiesOf(ids.plain, 'DownloadAccountKeys')).length;
    for (const file of ['keys', 'caa-key', 'license-keys']) expect((await get(ids.plain, file)).statusCode).toBe(200);
    for (const file of ['keys', 'caa-key', 'license-keys']) expect((await get(ids.plain, file, 'viewer')).statusCode).toBe(403);
    const after = await activitiesOf(ids.plain, 'DownloadAccountKeys');
    expect(after.length).toBe(before + 3);
    expect(after.slice(0, 3).map((a) => a.metadata.params.file).sort()).toEqual(['caa-key', 'keys', 'license-keys']);
    expect(after[0]!.user).toBe('operator');
  });

  it('makes a missing pair on first download (audited) and serves the same pair afterwards', async () => {
    const first = await get(ids.fresh, 'keys');
    expect(first.statusCode, first.body).toBe(200);
    const rows = await t.database.db.select().from(accountKeys).where(eq(accountKeys.accountId, ids.fresh));
    expect(rows.map((r) => r.kind)).toEqual(['encryption']);
    const second = unzip((await get(ids.fresh, 'keys')).rawPayload);
    expect(second[KEYS_ZIP_ENTRIES.privateKey]).toBe(unzip(first.rawPayload)[KEYS_ZIP_ENTRIES.privateKey]);
    const generated = await activitiesOf(ids.fresh, 'GenerateAccountKeys');
    expect(generated).toHaveLength(1);
    expect(generated[0]!.metadata.params).toMatchObject({ kinds: ['encryption'], reason: 'first download' });
    expect(await activitiesOf(ids.fresh, 'DownloadAccountKeys')).toHaveLength(2);
  });

  it('keeps one pair when first downloads race', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => get(ids.race, 'caa-key')));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => pemBlocks(a.body)[0])).size).toBe(1);
    expect(await t.database.db.select().from(accountKeys).where(eq(accountKeys.accountId, ids.race))).toHaveLength(1);
    expect(await activitiesOf(ids.race, 'GenerateAccountKeys')).toHaveLength(1);
  });
});

describe('accounts without keys', () => {
  it('refuses add-on accounts with 422 and stores nothing', async () => {
    expect((await generate(ids.addOn)).statusCode).toBe(422);
    for (const file of ['keys', 'caa-key', 'license-keys']) {
      const res = await get(ids.addOn, file);
      expect(res.statusCode, file).toBe(422);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    expect(await t.database.db.select().from(accountKeys).where(eq(accountKeys.accountId, ids.addOn))).toEqual([]);
  });

  it('hides Customer Production accounts without the group (404), serves them with it', async () => {
    expect((await generate(ids.cp, 'operator')).statusCode).toBe(404);
    expect((await get(ids.cp, 'keys', 'operator')).statusCode).toBe(404);
    expect((await get(ids.cp, 'caa-key', 'admin')).statusCode).toBe(200);
  });

  it('answers 404 for an unknown account', async () => {
    expect((await generate(2_000_000_000)).statusCode).toBe(404);
    expect((await get(2_000_000_000, 'license-keys')).statusCode).toBe(404);
  });
});
