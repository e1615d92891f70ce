/**
 * Backup files over the MMA protocol (issue 27 point 2; `backup-files.ts`)
 * through the real app beside the worker's operation engine: a remote MMA's
 * Backup uploads a file per software (named as the simulated agent names
 * them, listed among the account's backups, a second upload answering the
 * first file), its SUCCESS with a file missing ends FAILURE, and its
 * RestoreBackup downloads the chosen files with the simulated agent's checks
 * (another account's file, a file in Glacier, a software not chosen); a
 * remote PublishSampleData publishes the zip it uploads (once; a taken name
 * or a SUCCESS without it fails); a remote CreateJumpStartAmi has the server
 * image its machine once and registers the image at its SUCCESS; every call
 * fenced by the lease and the class, and bad bodies refused.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  CLASS_CUSTOMER_STAGING,
  CLASS_EXPERIMENTAL,
  type TBackupFilesResponse,
  type TMmaAgentRegisterResponse,
  type TMmaBackupFileUploaded,
  type TMmaClaimResponse,
} from '@fleet/contracts';
import type { AgentFixture } from '../../../test/operation-fixtures.js';
import { registerMma, startAppBesideAgent, switchClassToRemote } from '../../../test/mma-agent-fixtures.js';

let f: AgentFixture;
let app: FastifyInstance;
let admin: Record<string, string>;
let mma: TMmaAgentRegisterResponse;
let experimental: TMmaAgentRegisterResponse;

const register = (classId: number, host: string) => registerMma(app, admin, classId, host);

beforeAll(async () => {
  ({ f, app, admin } = await startAppBesideAgent());
  await switchClassToRemote(app, admin, CLASS_CUSTOMER_STAGING);
  mma = await register(CLASS_CUSTOMER_STAGING, 'staging-backups.fleet.example');
  experimental = await register(CLASS_EXPERIMENTAL, 'experimental-backups.fleet.example');
}, 60_000);
afterAll(async () => {
  await app?.close();
  await f?.close();
});

const as = (agent: TMmaAgentRegisterResponse) => ({ authorization: `Bearer ${agent.token}` });
const claimOne = async () => {
  const res = await app.inject({ method: 'POST', url: '/api/v1/mma-agent/operations/claim', headers: as(mma), payload: { waitSeconds: 0, maxOperations: 1 } });
  expect(res.statusCode, res.body).toBe(200);
  const [claimed] = (res.json() as TMmaClaimResponse).operations;
  expect(claimed).toBeDefined();
  return claimed!;
};
const fileUrl = (id: number, software: string, attempt = 1) => `/api/v1/mma-agent/operations/${id}/backup-files/${software}?attempt=${attempt}`;
const upload = (id: number, software: string, bytes: Buffer, o: { attempt?: number; agent?: TMmaAgentRegisterResponse; type?: string } = {}) =>
  app.inject({
    method: 'PUT',
    url: fileUrl(id, software, o.attempt),
    headers: { ...as(o.agent ?? mma), 'content-type': o.type ?? 'application/gzip' },
    payload: bytes,
  });
const download = (id: number, software: string, o: { attempt?: number; agent?: TMmaAgentRegisterResponse } = {}) =>
  app.inject({ method: 'GET', url: fileUrl(id, software, o.attempt), headers: as(o.agent ?? mma) });
const finish = (id: number, status: 'SUCCESS' | 'FAILURE') =>
  app.inject({ method: 'POST', url: `/api/v1/mma-agent/operations/${id}/finish`, headers: as(mma), payload: { attempt: 1, status } });
const dump = (software: string) => gzipSync(Buffer.from(`-- ${software} dump made by a remote MMA\ncreate table t (id int);\n`));
const staging = (values: Record<string, unknown> = {}) => f.machine({ classId: CLASS_CUSTOMER_STAGING, ...values });

describe('a remote Backup', () => {
  it('uploads a file per software, named by the backup time fixed at the claim; a retried upload answers the first file; SUCCESS lists them', async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'Backup', { params: { category: 'daily' } });
    const claimed = await claimOne();
    expect(claimed).toMatchObject({ operationId: id, typeName: 'Backup' });
    const backupAt = claimed.params.backupAt as string;
    expect(new Date(backupAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await f.row(id)).params).toMatchObject({ backupAt });

    const uploaded: TMmaBackupFileUploaded[] = [];
    for (const software of ['launcher', 'siteMaster', 'auditChangeLog']) {
      const res = await upload(id, software, dump(software));
      expect(res.statusCode, res.body).toBe(200);
      uploaded.push(res.json() as TMmaBackupFileUploaded);
    }
    const stamp = backupAt.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const { name } = await f.machineRow(machine.id);
    expect(uploaded.map((u) => u.name)).toEqual([
      `${name}_launcher-db_${stamp}_op${id}.sql.gz`,
      `${name}_sitemaster-db_${stamp}_op${id}.sql.gz`,
      `${name}_audit-changelog_${stamp}_op${id}.sql.gz`,
    ]);
    expect(uploaded.map((u) => [u.size, u.created])).toEqual(['launcher', 'siteMaster', 'auditChangeLog'].map((s) => [dump(s).length, true]));

    const again = await upload(id, 'launcher', Buffer.from('other bytes'));
    expect(again.json()).toEqual({ ...uploaded[0], created: false });

    expect((await finish(id, 'SUCCESS')).json()).toMatchObject({ status: 'SUCCESS' });
    const listed = await app.inject({ method: 'GET', url: `/api/v1/accounts/${machine.accountId}/backups?machineId=${machine.id}`, headers: admin });
    expect(listed.statusCode, listed.body).toBe(200);
    const files = (listed.json() as TBackupFilesResponse).items.filter((b) => b.name.includes(`_op${id}.`));
    expect(files.map((b) => [b.name, b.category, b.size]).sort()).toEqual(uploaded.map((u) => [u.name, 'daily', u.size]).sort());
  });

  it('ends FAILURE when it finishes SUCCESS with a software left without its file (counted toward Panic)', async () => {
    const machine = await staging();
    const id = await f.enqueue(machine, 'Backup');
    await claimOne();
    expect((await upload(id, 'launcher', dump('launcher'))).statusCode).toBe(200);
    const res = await finish(id, 'SUCCESS');
    expect(res.json()).toMatchObject({ status: 'FAILURE' });
    const row = await f.row(id);
    expect(row.output).toContain('The MMA finished without uploading the siteMaster, auditChangeLog backup file');
    expect((await f.machineRow(machine.id)).failCounter).toBe(1);
  });

  it('refuses a software the machine does not run, an operation that is not a Backup, a lost lease, another class and a body that is not the file', async () => {
    const launcherOnly = await staging({ isSiteMaster: false });
    const id = await f.enqueue(launcherOnly, 'Backup');
    await claimOne();
    const notRun = await upload(id, 'siteMaster', dump('siteMaster'));
    expect(notRun.statusCode).toBe(422);
    expect(notRun.json().detail).toContain(`Machine ${(await f.machineRow(launcherOnly.id)).name} does not run the siteMaster software`);
    expect((await upload(id, 'launcher', dump('launcher'), { attempt: 2 })).statusCode).toBe(409);
    expect((await upload(id, 'launcher', dump('launcher'), { agent: experimental })).statusCode).toBe(404);
    const json = await upload(id, 'launcher', Buffer.from('{"a":1}'), { type: 'application/json' });
    expect(json.statusCode).toBe(415);
    const badSoftware = await upload(id, 'everything', dump('x'));
    expect(badSoftware.statusCode).toBe(400);
    expect(badSoftware.json().errors.map((e: { propertyName: string }) => e.propertyName)).toContain('software');
    const noAttempt = await app.inject({ method: 'PUT', url: `/api/v1/mma-agent/operations/${id}/backup-files/launcher`, headers: { ...as(mma), 'content-type': 'application/gzip' }, payload: dump('launcher') });
    expect(noAttempt.statusCode).toBe(400);
    expect((await upload(id, 'launcher', dump('launcher'))).statusCode).toBe(200);
    expect((await finish(id, 'SUCCESS')).json()).toMatchObject({ status: 'SUCCESS' });

    const smoke = await f.enqueue(await staging(), 'SmokeTest');
    await claimOne();
    const wrongType = await upload(smoke, 'launcher', dump('launcher'));
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json().detail).toContain('is a SmokeTest, not a Backup');
    await finish(smoke, 'SUCCESS');
  });
});

describe('a remote RestoreBackup', () => {
  /** A Backup of `machine` run through the protocol: the file names of each software. */
  async function backedUp(machine: Awaited<ReturnType<typeof staging>>) {
    const id = await f.enqueue(machine, 'Backup');
    await claimOne();
    const names: Record<string, string> = {};
    for (const software of ['launcher', 'siteMaster', 'auditChangeLog']) names[software] = ((await upload(id, software, dump(software))).json() as TMmaBackupFileUploaded).name;
    expect((await finish(id, 'SUCCESS')).json()).toMatchObject({ status: 'SUCCESS' });
    return names;
  }

  it('downloads each chosen file as it was uploaded; refuses a software not chosen', async () => {
    const machine = await staging();
    const names = await backedUp(machine);
    const id = await f.enqueue(machine, 'RestoreBackup', { params: { launcherBackupFile: names.launcher, siteMasterBackupFile: names.siteMaster } });
    await claimOne();
    for (const software of ['launcher', 'siteMaster']) {
      const res = await download(id, software);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/gzip');
      expect(res.headers['content-disposition']).toContain(names[software]);
      expect(res.rawPayload.equals(dump(software))).toBe(true);
    }
    const notChosen = await download(id, 'auditChangeLog');
    expect(notChosen.statusCode).toBe(422);
    expect(notChosen.json().detail).toBe('No auditChangeLog backup file was chosen to restore');
    expect((await download(id, 'launcher', { attempt: 3 })).statusCode).toBe(409);
    expect((await download(id, 'launcher', { agent: experimental })).statusCode).toBe(404);
    expect((await finish(id, 'SUCCESS')).json()).toMatchObject({ status: 'SUCCESS' });
  });

  it("refuses another account's file and a file in Glacier, with the simulated agent's words", async () => {
    const [machine, other] = [await staging(), await staging()];
    const mine = await backedUp(machine);
    const theirs = await backedUp(other);

    const foreign = await f.enqueue(machine, 'RestoreBackup', { params: { launcherBackupFile: theirs.launcher } });
    await claimOne();
    const refused = await download(foreign, 'launcher');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toBe(`Backup file ${theirs.launcher} belongs to another account`);
    await finish(foreign, 'FAILURE');

    await f.database.db.execute(sql`update backup_files set storage_class = 'Glacier' where name = ${mine.siteMaster}`);
    const frozen = await f.enqueue(machine, 'RestoreBackup', { params: { launcherBackupFile: mine.launcher, siteMasterBackupFile: mine.siteMaster } });
    await claimOne();
    const glacier = await download(frozen, 'launcher');
    expect(glacier.statusCode, 'every chosen file is checked before any is downloaded').toBe(422);
    expect(glacier.json().detail).toBe(`Backup file ${mine.siteMaster} is in Glacier: it must be restored from Glacier first`);
    await finish(frozen, 'FAILURE');
  });
});

describe('a remote PublishSampleData', () => {
  // The failures above count toward the anomaly rule, which may have put the class on standby: back on, as an admin would.
  beforeEach(() => switchClassToRemote(app, admin, CLASS_CUSTOMER_STAGING));
  const zip = Buffer.from('PK\u0003\u0004 a sample data export');
  const uploadSample = (id: number, bytes: Buffer, o: { attempt?: number; type?: string } = {}) =>
    app.inject({
      method: 'PUT',
      url: `/api/v1/mma-agent/operations/${id}/sample-data-file?attempt=${o.attempt ?? 1}`,
      headers: { ...as(mma), 'content-type': o.type ?? 'application/zip' },
      payload: bytes,
    });

  it('publishes the uploaded zip under its file name, once; a SUCCESS without it, or a name already taken, fails', async () => {
    const machine = await staging();
    const fileName = `remote-sample-${machine.id}.zip`;
    const id = await f.enqueue(machine, 'PublishSampleData', { params: { fileName } });
    await claimOne();
    const first = await uploadSample(id, zip);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ name: fileName, size: zip.length, created: true });
    expect((await uploadSample(id, Buffer.from('other'))).json()).toEqual({ name: fileName, size: zip.length, created: false });
    expect((await uploadSample(id, zip, { attempt: 2 })).statusCode).toBe(409);
    expect((await uploadSample(id, Buffer.from('{}'), { type: 'application/json' })).statusCode).toBe(415);
    expect((await finish(id, 'SUCCESS')).json()).toMatchObject({ status: 'SUCCESS' });
    const files = (await app.inject({ method: 'GET', url: '/api/v1/sample-data-files', headers: admin })).json() as { name: string; size: number; sourceMachineId: number | null }[];
    expect(files.find((file) => file.name === fileName)).toMatchObject({ size: zip.length, sourceMachineId: machine.id });

    const again = await f.enqueue(await staging(), 'PublishSampleData', { params: { fileName } });
    await claimOne();
    const taken = await uploadSample(again, zip);
    expect(taken.statusCode).toBe(422);
    expect(taken.json().detail).toBe(`A sample data file named ${fileName} already exists`);
    expect((await finish(again, 'SUCCESS')).json()).toMatchObject({ status: 'FAILURE' });
    expect((await f.row(again)).output).toContain('The MMA finished without uploading the sample data file');
  });

  it('refuses a machine without a site master and an operation that is not a PublishSampleData', async () => {
    const launcherOnly = await staging({ isSiteMaster: false });
    const id = await f.enqueue(launcherOnly, 'PublishSampleData', { params: { fileName: `no-site-master-${launcherOnly.id}.zip` } });
    await claimOne();
    const refused = await uploadSample(id, zip);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toBe(`Machine ${(await f.machineRow(launcherOnly.id)).name} has no site master data to publish`);
    await finish(id, 'FAILURE');
    await switchClassToRemote(app, admin, CLASS_CUSTOMER_STAGING);
    const backup = await f.enqueue(await staging(), 'Backup');
    await claimOne();
    const wrongType = await uploadSample(backup, zip);
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json().detail).toContain('is a Backup, not a PublishSampleData');
    await finish(backup, 'FAILURE');
  });
});

describe('a remote CreateJumpStartAmi', () => {
  beforeEach(() => switchClassToRemote(app, admin, CLASS_CUSTOMER_STAGING));
  const irmnName = async () => (await f.database.db.execute<{ name: string }>(sql`select name from irmn_versions order by id limit 1`)).rows[0]!.name;
  const image = (id: number, attempt = 1) => app.inject({ method: 'POST', url: `/api/v1/mma-agent/operations/${id}/image`, headers: as(mma), payload: { attempt } });

  it('images the machine once, however often asked, and registers the jump-start image at its SUCCESS', async () => {
    const machine = await staging();
    const name = `js-remote-${machine.id}`;
    const id = await f.enqueue(machine, 'CreateJumpStartAmi', { params: { name, description: 'Made by a remote MMA', irmnVersion: await irmnName() } });
    await claimOne();
    const first = await image(id);
    expect(first.statusCode, first.body).toBe(200);
    const made = first.json() as { imageId: string; status: string; region: string };
    expect(made).toMatchObject({ imageId: expect.stringMatching(/^ami-/), status: 'available', region: 'us-east-1' });
    expect((await image(id)).json()).toEqual(made);
    expect((await f.row(id)).params).toMatchObject({ imageId: made.imageId });
    const images = await f.database.db.execute(sql`select 1 from cloud_images where client_token = ${`operation-${id}`}`);
    expect(images.rows).toHaveLength(1);
    expect((await finish(id, 'SUCCESS')).json()).toMatchObject({ status: 'SUCCESS' });
    const registered = await f.database.db.execute<{ name: string; region: string }>(sql`select name, region from saas_images where cloud_image = ${made.imageId}`);
    expect(registered.rows).toEqual([{ name, region: 'us-east-1' }]);
  });

  it('ends FAILURE when it finishes SUCCESS without an image, and refuses an unknown IRMN version and another type', async () => {
    const id = await f.enqueue(await staging(), 'CreateJumpStartAmi', { params: { name: 'js-never-imaged', description: '', irmnVersion: await irmnName() } });
    await claimOne();
    expect((await finish(id, 'SUCCESS')).json()).toMatchObject({ status: 'FAILURE' });
    expect((await f.row(id)).output).toContain('The MMA finished without asking the server for the image');

    await switchClassToRemote(app, admin, CLASS_CUSTOMER_STAGING);
    const unknown = await f.enqueue(await staging(), 'CreateJumpStartAmi', { params: { name: 'js-unknown-irmn', description: '', irmnVersion: 'no-such-version' } });
    await claimOne();
    const refused = await image(unknown);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toBe("Unknown IRMN version 'no-such-version'");
    expect((await image(unknown, 2)).statusCode).toBe(409);
    await finish(unknown, 'FAILURE');

    await switchClassToRemote(app, admin, CLASS_CUSTOMER_STAGING);
    const smoke = await f.enqueue(await staging(), 'SmokeTest');
    await claimOne();
    const wrongType = await image(smoke);
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json().detail).toContain('is a SmokeTest, not a CreateJumpStartAmi');
    await finish(smoke, 'SUCCESS');
  });
});
