/**
 * Remote MMAs for the tests (issue 27; `modules/mma-agents`): a registration
 * token made by the admin through the API, and an MMA registered with one
 * (its id and authentication token). The permission matrix's fixtures of the
 * MMA routes (`permission-fixtures.ts`) are made with these.
 */
import { gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { CLASS_EXPERIMENTAL, CLASS_ON_PREMISE, type TMmaAgentRegisterResponse, type TMmaClaimResponse, type TMmaClass, type TMmaRegistrationToken, type TOperationTypeName } from '@fleet/contracts';
import { createSimulatedCloud } from '../src/engine/cloud/simulated.js';
import { createOperationQueue } from '../src/engine/operations/queue.js';
import { insertAccount, insertMachine } from './fixtures.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import type { TestApp } from './harness.js';
import { startAgentFixture, type AgentFixture } from './operation-fixtures.js';
import type { OperationMachine } from '../src/engine/operations/queue.js';
import { TEST_DATA_KEY, TEST_JWT_SECRET } from './db-url.js';

let registered = 0;

/** A site server status with every flag true, as an MMA reports a healthy machine. */
export const HEALTHY_SITE_SERVER = { status: 'Running', operational: true, diskSpaceOk: true, interServerCommOk: true, libraryImportOk: true, mongoOk: true, rabbitMqOk: true };

/** A registration token of class `classId` (default Experimental), made by the admin. */
export async function newRegistrationToken(t: TestApp, classId = CLASS_EXPERIMENTAL): Promise<string> {
  const res = await t.call({ method: 'POST', url: `/mma/classes/${classId}/registration-tokens`, as: 'admin' });
  if (res.statusCode !== 200) throw new Error(`registration token: ${res.statusCode} ${res.body}`);
  return (res.json() as TMmaRegistrationToken).token;
}

/** The body of `POST /mma-agent/register` with a fresh registration token of class `classId`. */
export async function newRegistration(t: TestApp, classId = CLASS_EXPERIMENTAL) {
  registered += 1;
  return { token: await newRegistrationToken(t, classId), host: `mma-${registered}.fleet.example`, version: '1.0.0' };
}

/** An MMA of class `classId` (default Experimental), registered: its id, class and authentication token. */
export async function newMmaAgent(t: TestApp, classId = CLASS_EXPERIMENTAL): Promise<TMmaAgentRegisterResponse> {
  const res = await t.call({ method: 'POST', url: '/mma-agent/register', body: await newRegistration(t, classId) });
  if (res.statusCode !== 200) throw new Error(`MMA registration: ${res.statusCode} ${res.body}`);
  return res.json() as TMmaAgentRegisterResponse;
}

/** An operation a remote MMA claimed: its lease, its machine, the offset of its output's next append, and the MMA's token. */
export interface ClaimedOperation {
  operationId: number;
  /** Its machine (of the MMA's class: the one its reports name). */
  machineId: number;
  attempt: number;
  outputOffset: number;
  token: string;
}

/**
 * Class On Premise switched to remote (standby off), an MMA of it, a fresh
 * machine of the class (a launcher; a site master too with `siteMaster`) with a running instance, and an operation
 * on it (a SmokeTest unless `typeName` says) that the MMA claimed through
 * `POST /mma-agent/operations/claim`.
 */
export async function newClaimedOperation(
  t: TestApp,
  o: { typeName?: TOperationTypeName; params?: Record<string, unknown>; siteMaster?: boolean } = {},
): Promise<ClaimedOperation> {
  const db = t.database.db;
  await db.execute(sql`update mma_instances set mode = 'remote', standby = false where class_id = ${CLASS_ON_PREMISE}`);
  const agent = await newMmaAgent(t, CLASS_ON_PREMISE);
  registered += 1;
  const account = await insertAccount(db, { name: `MMA claimed ${registered}`, classId: CLASS_ON_PREMISE });
  const machine = await insertMachine(db, { accountId: account.id, classId: CLASS_ON_PREMISE, instanceTypeId: 2, isLauncher: true, isSiteMaster: o.siteMaster ?? false });
  const cloud = createSimulatedCloud({ db, delayMs: 0 });
  const { cloudId } = await cloud.launch({ machineId: machine.id, region: 'us-east-1', instanceTypeId: 2, clientToken: `claimed-${machine.id}` });
  await cloud.describe(cloudId);
  const on = { id: machine.id, accountId: account.id, classId: CLASS_ON_PREMISE, accountClassId: CLASS_ON_PREMISE, operationMode: machine.operationMode, failCounter: 0 };
  return claimOn(t, agent.token, on, o.typeName ?? 'SmokeTest', o.params);
}

/** Queues `typeName` on `machine` and has the MMA of `token` claim it. */
async function claimOn(t: TestApp, token: string, machine: OperationMachine, typeName: TOperationTypeName, params?: Record<string, unknown>): Promise<ClaimedOperation> {
  const queue = createOperationQueue({ announce: () => undefined });
  const [queued] = await t.database.db.transaction((tx) => queue.enqueue(tx, [{ machine, typeName, user: 'admin', activityId: null, params }]));
  const res = await t.call({ method: 'POST', url: '/mma-agent/operations/claim', token, body: { waitSeconds: 0, maxOperations: 64 } });
  const claimed = (res.json() as TMmaClaimResponse).operations.find((c) => c.operationId === queued!.operation.id);
  if (!claimed) throw new Error(`the MMA did not claim operation ${queued!.operation.id}: ${res.statusCode} ${res.body}`);
  return { operationId: claimed.operationId, machineId: machine.id, attempt: claimed.attempt, outputOffset: claimed.outputOffset, token };
}

/** A PublishSampleData an MMA claimed, on a site master, publishing a file of a name of its own. */
export const newClaimedPublish = (t: TestApp) =>
  newClaimedOperation(t, { typeName: 'PublishSampleData', siteMaster: true, params: { fileName: `mma-published-${++registered}.zip` } });

/** A CreateJumpStartAmi an MMA claimed (a valid name and IRMN version): its image call is allowed. */
export async function newClaimedJumpStart(t: TestApp): Promise<ClaimedOperation> {
  const [irmn] = (await t.database.db.execute<{ name: string }>(sql`select name from irmn_versions order by id limit 1`)).rows;
  return newClaimedOperation(t, { typeName: 'CreateJumpStartAmi', params: { name: `js-claimed-${++registered}`, description: 'A test image', irmnVersion: irmn!.name } });
}

/** A zip's worth of bytes, as an MMA's PublishSampleData uploads them. */
export const SAMPLE_DATA_FILE_BYTES = Buffer.from('PK\u0003\u0004 sample data exported by a remote MMA');

/** A small gzip'd dump, as an MMA's Backup uploads one. */
export const BACKUP_FILE_BYTES = gzipSync(Buffer.from('-- launcher dump made by a remote MMA\n'));

/**
 * A RestoreBackup a remote MMA claimed, of the launcher backup file a remote
 * Backup of the same machine uploaded (and finished SUCCESS) just before: its
 * download is allowed.
 */
export async function newClaimedRestore(t: TestApp): Promise<ClaimedOperation> {
  const backup = await newClaimedOperation(t, { typeName: 'Backup' });
  const headers = { authorization: `Bearer ${backup.token}`, 'content-type': 'application/gzip' };
  const uploaded = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/mma-agent/operations/${backup.operationId}/backup-files/launcher?attempt=${backup.attempt}`,
    headers,
    payload: BACKUP_FILE_BYTES,
  });
  if (uploaded.statusCode !== 200) throw new Error(`backup upload: ${uploaded.statusCode} ${uploaded.body}`);
  const finished = await t.call({ method: 'POST', url: `/mma-agent/operations/${backup.operationId}/finish`, token: backup.token, body: { attempt: backup.attempt, status: 'SUCCESS' } });
  if (finished.statusCode !== 200) throw new Error(`backup finish: ${finished.statusCode} ${finished.body}`);
  const [m] = (await t.database.db.execute<OperationMachine & Record<string, unknown>>(sql`
    select m.id, m.account_id as "accountId", m.class_id as "classId", a.class_id as "accountClassId", m.operation_mode as "operationMode", m.fail_counter as "failCounter"
    from machines m join accounts a on a.id = m.account_id where m.id = ${backup.machineId}`)).rows;
  return claimOn(t, backup.token, m!, 'RestoreBackup', { launcherBackupFile: (uploaded.json() as { name: string }).name });
}

/**
 * The real app beside a running operation engine (`startAgentFixture`) on one
 * test database, and the admin's authorization header: how the MMA tests see
 * the worker leave a remote class alone while an MMA calls the protocol.
 */
export async function startAppBesideAgent(): Promise<{ f: AgentFixture; app: FastifyInstance; admin: Record<string, string> }> {
  const f = await startAgentFixture({ passMs: 200, anomalyFailures: 1_000 });
  const app = await buildApp({
    db: f.database.db,
    config: { jwtSecret: TEST_JWT_SECRET, dataKey: TEST_DATA_KEY, webDist: '/nonexistent', rateLimit: { perUser: 1_000_000, perAddress: 1_000_000 } },
  });
  await app.ready();
  const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { username: 'admin', password: 'admin' } });
  return { f, app, admin: { authorization: `Bearer ${login.json().accessToken.token as string}` } };
}

/** Switches class `classId` to remote (standby off) as the MMA screen's class form does, through the app as the admin. */
export async function switchClassToRemote(app: FastifyInstance, admin: Record<string, string>, classId: number): Promise<void> {
  const list = (await app.inject({ method: 'GET', url: '/api/v1/mma/classes', headers: admin })).json() as TMmaClass[];
  const c = list.find((x) => x.id === classId)!;
  const i = c.mmaInstance!;
  const body = { name: c.name, image: c.image, deployerBranch: i.deployerBranch, deployerVersion: i.deployerVer, standby: false, priorityGroup: i.priorityGroup, caaHost: i.caaHost, mode: 'remote' };
  const res = await app.inject({ method: 'PUT', url: `/api/v1/mma/classes/${classId}`, headers: admin, payload: body });
  if (res.statusCode !== 200) throw new Error(`switching class ${classId} to remote: ${res.statusCode} ${res.body}`);
}

/** An MMA of class `classId` on `host`, registered through the app with a registration token the admin made. */
export async function registerMma(app: FastifyInstance, admin: Record<string, string>, classId: number, host: string): Promise<TMmaAgentRegisterResponse> {
  const made = await app.inject({ method: 'POST', url: `/api/v1/mma/classes/${classId}/registration-tokens`, headers: admin });
  const res = await app.inject({ method: 'POST', url: '/api/v1/mma-agent/register', payload: { token: made.json().token, host, version: '1.0.0' } });
  if (res.statusCode !== 200) throw new Error(`MMA registration: ${res.statusCode} ${res.body}`);
  return res.json() as TMmaAgentRegisterResponse;
}
