/**
 * The operation agent when its database goes away and comes back (issue 23;
 * `../README.md` "When the database goes away", and the invariant "A database
 * that went away" in `README.md` beside this file), against a real PostgreSQL.
 *
 * The engine connects through a proxy the test cuts and restores
 * (`test/database-proxy.ts`: open connections reset, new ones refused, as when
 * an external PostgreSQL restarts); the test's own reads go straight to the
 * database. `staleMs` is 60 s and passes run every 250 ms, so an operation
 * resumed within seconds of the database's return was released by the
 * engine's first pass that reached the database, not found stale:
 *
 * - an operation whose effect meets the database gone (a CreateJumpStartAmi
 *   between its steps and its image) is handed over, resumed (attempt 2)
 *   within {@link RESUMED_WITHIN_MS} of the return, and ends SUCCESS once with
 *   one cloud image and one jump-start image;
 * - an operation whose finish the database did not take (its gate opened
 *   while the database is away) is resumed the same way and ends SUCCESS once.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cloudImages, irmnVersions, saasImages } from '../../db/schema.js';
import { startDatabaseProxy, type DatabaseProxy } from '../../../test/database-proxy.js';
import { linesOf, sleep, startAgentFixture, type AgentFixture } from '../../../test/operation-fixtures.js';

/** Far beyond the test's waits: a lease found stale cannot explain a resume. */
const STALE_MS = 60_000;
const PASS_MS = 250;
/** An operation handed over is resumed this long after the database is back at the latest, ms (a few passes). */
const RESUMED_WITHIN_MS = 5_000;
/** The database stays away this long after the operation was handed over: passes, heartbeats and claims fail meanwhile, ms. */
const AWAY_MS = 1_000;

let proxy: DatabaseProxy;
let f: AgentFixture;
/** The engine's log: message and operation id. */
const logged: { msg: string; operationId?: number }[] = [];

beforeAll(async () => {
  proxy = await startDatabaseProxy(inject('serverUrl'));
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(JSON.parse(String(chunk)) as (typeof logged)[number]);
        done();
      },
    }),
  );
  // simDelayMs 150: a CreateJumpStartAmi prepares the machine for 3 s before it asks for its image.
  f = await startAgentFixture({ staleMs: STALE_MS, passMs: PASS_MS, simDelayMs: 150, anomalyFailures: 1_000 }, { engineUrl: (url) => proxy.through(url), log });
});
afterAll(async () => {
  await proxy?.restore();
  await f?.close();
  await proxy?.close();
});

const saidOf = (id: number, msg: string) => logged.filter((l) => l.operationId === id && l.msg === msg).length;

/** Waits until the engine logged `msg` for operation `id`, with the database away. */
const untilLogged = (id: number, msg: string) => f.until(`'${msg}' logged`, async () => saidOf(id, msg) > 0, 10_000);

/** Restores the database after {@link AWAY_MS}; answers how long after that the operation ran its attempt 2, ms. */
async function resumedAfterReturn(id: number): Promise<number> {
  await sleep(AWAY_MS);
  expect(await f.row(id)).toMatchObject({ status: 'RUNNING', attempts: 1 });
  await proxy.restore();
  const backAt = Date.now();
  await f.until('the operation resumed', async () => (await f.row(id)).attempts >= 2, RESUMED_WITHIN_MS * 2);
  return Date.now() - backAt;
}

/** Expects the operation SUCCESS after two attempts, started twice and finished once, handed over by the engine's pass. */
async function expectEndedOnceAfterHandover(id: number) {
  const done = await f.settled(id);
  expect(done, done.output).toMatchObject({ status: 'SUCCESS', attempts: 2 });
  const out = linesOf(done.output);
  expect(out.filter((l) => /^Resumed on .* \(attempt 2\)$/.test(l))).toHaveLength(1);
  expect(out.filter((l) => l === 'Operation succeeded')).toHaveLength(1);
  expect(out.at(-1)).toBe('Operation succeeded');
  // The push events arrive after the finish's commit.
  await f.until('OperationFinished', async () => f.seen.some((e) => e.operation.id === id && e.name === 'OperationFinished'));
  await sleep(PASS_MS * 2);
  const events = f.seen.filter((e) => e.operation.id === id);
  expect(events.map((e) => e.name)).toEqual(['OperationQueued', 'OperationStarted', 'OperationStarted', 'OperationFinished']);
  expect(events.at(-1)!.operation.status).toBe('SUCCESS');
  expect(saidOf(id, 'the database is back: operation handed over for resumption')).toBe(1);
  return done;
}

describe('the database going away under an operation (issue 23)', () => {
  it('an operation whose effect met the database gone is resumed at the first pass after its return, not after staleMs; its image is made once', async () => {
    const machine = await f.machine();
    const [irmn] = await f.database.db.select({ name: irmnVersions.name }).from(irmnVersions).limit(1);
    const id = await f.enqueue(machine, 'CreateJumpStartAmi', { params: { name: 'js-db-loss', description: 'database loss', irmnVersion: irmn!.name } });
    await f.until('the machine being prepared', async () => (await f.row(id)).output.includes('Preparing the machine for imaging'));

    await proxy.cut();
    // The effect asks for its image after the step: the database is gone, the operation handed over.
    await untilLogged(id, 'operation handed to the next engine');
    const resumedInMs = await resumedAfterReturn(id);
    console.info(`database loss (operation agent): effect cut, resumed ${resumedInMs} ms after the database's return (staleMs ${STALE_MS} ms, passMs ${PASS_MS} ms)`);
    expect(resumedInMs).toBeLessThan(RESUMED_WITHIN_MS);

    const done = await expectEndedOnceAfterHandover(id);
    const images = await f.database.db.select().from(cloudImages).where(eq(cloudImages.clientToken, `operation-${id}`));
    expect(images).toHaveLength(1);
    expect(await f.database.db.select().from(saasImages).where(eq(saasImages.cloudImage, images[0]!.imageId))).toHaveLength(1);
    expect(linesOf(done.output).filter((l) => l.startsWith('Registered jump-start image js-db-loss'))).toHaveLength(1);
  });

  it('an operation whose finish the database did not take is resumed at the first pass after its return and ends once', async () => {
    const machine = await f.machine();
    const id = await f.enqueue(machine, 'RestoreBackup');
    // The gate's checkpoint wrote its params (its last statement before the gate), not only its lines.
    await f.until('the gate reached', async () => (await f.row(id)).params.gate === 'reached');

    await proxy.cut();
    f.open(id);
    await untilLogged(id, 'operation finish failed');
    const resumedInMs = await resumedAfterReturn(id);
    console.info(`database loss (operation agent): finish cut, resumed ${resumedInMs} ms after the database's return (staleMs ${STALE_MS} ms, passMs ${PASS_MS} ms)`);
    expect(resumedInMs).toBeLessThan(RESUMED_WITHIN_MS);

    const done = await expectEndedOnceAfterHandover(id);
    // The first attempt's last lines went with its finish; the second attempt's are written once.
    expect(linesOf(done.output).filter((l) => l === 'Gate passed')).toHaveLength(1);
  });
});
