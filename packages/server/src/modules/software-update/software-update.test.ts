/** API tests of `POST /software-update/validate` (spec 1 §5, §7). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { TInstanceSettings, TSoftwareUpdateIssue } from '@fleet/contracts';
import { startTestApp, type TestApp } from '../../../test/harness.js';
import { createAccount, creationPayload, seededAccountId } from '../../../test/account-fixtures.js';
import { libraryFiles, machines, softwareBranches, softwareCommits } from '../../db/schema.js';

let t: TestApp;
let accountId = 0;
const hashes = { newer: '', older: '', breaking: '' };

beforeAll(async () => {
  t = await startTestApp();
  const db = t.database.db;
  const release = (software: string) =>
    db
      .select({ shortHash: softwareCommits.shortHash })
      .from(softwareCommits)
      .innerJoin(softwareBranches, eq(softwareBranches.id, softwareCommits.branchId))
      .where(and(eq(softwareCommits.software, software), eq(softwareBranches.name, 'release/8.1')))
      .orderBy(desc(softwareCommits.timestamp));
  const siteMaster = await release('siteMaster');
  hashes.newer = siteMaster[0]!.shortHash;
  hashes.older = siteMaster.at(-1)!.shortHash;
  hashes.breaking = (await release('reporting'))[0]!.shortHash;
  await db.update(softwareCommits).set({ isBreaking: true, breakingMsg: 'Drops TLS 1.1' }).where(eq(softwareCommits.shortHash, hashes.breaking));

  accountId = await createAccount(
    t,
    creationPayload({
      name: 'Validate Target',
      licenseConfig: { instancePolicy: 'InstancePerSiteMaster' },
      sites: [{ name: 'One' }],
      machineConfig: { vmImageName: 'irmn-8.1.3-win2022-use1', siteMasterVersionMode: 'Select', siteMasterVersion: `release/8.1|${hashes.newer}` },
    }),
  );
  const [first] = await db.select({ id: machines.id }).from(machines).where(eq(machines.accountId, accountId)).orderBy(asc(machines.id));
  await db.update(machines).set({ stop: true }).where(eq(machines.id, first!.id));
});
afterAll(() => t.close());

const validate = async (body: Record<string, unknown>, as = 'admin') => {
  const res = await t.call({ method: 'POST', url: '/software-update/validate', as, body });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { issues: TSoftwareUpdateIssue[] }).issues;
};

describe('POST /software-update/validate', () => {
  it('answers no issues when nothing changes', async () => {
    const s = (await t.call({ method: 'GET', url: `/accounts/${accountId}/instance-settings`, as: 'admin' })).json() as TInstanceSettings;
    expect(await validate({ ...s, accountId })).toEqual([]);
  });

  it('lists breaking commits, downgrades, unknown versions, deployer, branches, libraries and machines held back', async () => {
    const s = (await t.call({ method: 'GET', url: `/accounts/${accountId}/instance-settings`, as: 'admin' })).json() as TInstanceSettings;
    const [devFile] = await t.database.db.select().from(libraryFiles).where(eq(libraryFiles.version, '8.2')).limit(1);
    const issues = await validate({
      ...s,
      accountId,
      siteMasterVersion: `release/8.1|${hashes.older}`,
      reportingVersionMode: 'Select',
      reportingVersion: `release/8.1|${hashes.breaking}`,
      clientVersionMode: 'Select',
      clientVersion: 'master|fffffff',
      launcherVersionMode: 'Latest',
      launcherVersion: 'develop|latest',
      deployerVersionMode: 'Latest',
      deployerVersion: 'master|latest',
      mainLibraryMode: 'Select',
      mainLibraryFiles: [devFile!.id],
    });
    const kinds = issues.map((i) => i.kind);
    expect(kinds).toEqual(expect.arrayContaining(['Downgrade', 'BreakingCommit', 'UnknownVersion', 'DeployerVersion', 'BranchMismatch', 'LibraryVersion', 'MachineNotUpdated']));
    const text = (kind: string) => issues.find((i) => i.kind === kind)!.description;
    expect(text('BreakingCommit')).toBe(`Reporting commit ${hashes.breaking} is breaking: Drops TLS 1.1`);
    expect(text('Downgrade')).toMatch(new RegExp(`^Site Master goes back from ${hashes.newer} \\(\\d{4}-\\d{2}-\\d{2}\\) to ${hashes.older}`));
    expect(text('UnknownVersion')).toBe('Web Client version master|fffffff is not a known commit');
    expect(text('DeployerVersion')).toContain('inconsistent state');
    expect(text('BranchMismatch')).toBe('Launcher follows develop and Site Master follows release/8.1');
    expect(text('LibraryVersion')).toBe(`Main library file ${devFile!.name} is for IRMN 8.2; the image runs IRMN 8.1`);
    expect(text('MachineNotUpdated')).toBe('Machine validatetarget-launcher is stopped; it will be updated when it starts');
  });

  it('answers 404 for hidden accounts, 422 for add-ons, 403 for viewers, 400 without an account', async () => {
    const cp = await seededAccountId(t, { classId: 5 });
    const addOn = await seededAccountId(t, { classId: 200 });
    expect((await t.call({ method: 'POST', url: '/software-update/validate', as: 'operator', body: { accountId: cp } })).statusCode).toBe(404);
    expect((await t.call({ method: 'POST', url: '/software-update/validate', as: 'admin', body: { accountId: addOn } })).statusCode).toBe(422);
    expect((await t.call({ method: 'POST', url: '/software-update/validate', as: 'viewer', body: { accountId } })).statusCode).toBe(403);
    expect((await t.call({ method: 'POST', url: '/software-update/validate', as: 'admin', body: {} })).statusCode).toBe(400);
  });
});
