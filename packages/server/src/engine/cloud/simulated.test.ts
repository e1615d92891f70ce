/**
 * The simulated cloud on a real PostgreSQL: transitions and their delays, the
 * EC2 state rules, idempotent launches, addresses and host names, and fault
 * injection (DESIGN §8).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { createSimulatedCloud, publicHostName, type SimulatedCloud } from './simulated.js';
import { CloudError } from './provider.js';

const database = useTestDatabase({ max: 3 });
let slow: SimulatedCloud;
let fast: SimulatedCloud;
let machineId = 0;
const DELAY = 150;

beforeAll(async () => {
  slow = createSimulatedCloud({ db: database.db, delayMs: DELAY });
  fast = createSimulatedCloud({ db: database.db, delayMs: 0 });
  const account = await insertAccount(database.db, { name: 'Cloud Fixture' });
  machineId = (await insertMachine(database.db, { accountId: account.id })).id;
});

let tokens = 0;
const launch = (cloud: SimulatedCloud, region = 'us-east-1', instanceTypeId = 2) =>
  cloud.launch({ machineId, region, instanceTypeId, clientToken: `test-${++tokens}` });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('transitions', () => {
  it('launch: pending, then running after the delay, with id, addresses, host name and storage of the type', async () => {
    const i = await launch(slow, 'eu-west-1', 5);
    expect(i).toMatchObject({ status: 'pending', machineId, region: 'eu-west-1', instanceTypeId: 5, storageSize: 200 });
    expect(i.cloudId).toMatch(/^i-[0-9a-f]{17}$/);
    expect(i.privateIpAddress).toMatch(/^10\.\d+\.\d+\.\d+$/);
    expect(i.hostName).toBe(publicHostName(i.ipAddress, 'eu-west-1'));
    expect(i.hostName).toMatch(/\.eu-west-1\.compute\.amazonaws\.com$/);
    expect((await slow.describe(i.cloudId))!.status).toBe('pending');
    await sleep(DELAY + 50);
    expect((await slow.describe(i.cloudId))!.status).toBe('running');
  });

  it('stop: stopping, then stopped; start: pending with a new public address, then running', async () => {
    const i = await launch(fast);
    expect((await fast.describe(i.cloudId))!.status).toBe('running');
    expect((await slow.stop(i.cloudId)).status).toBe('stopping');
    await sleep(DELAY + 50);
    const stopped = (await slow.describe(i.cloudId))!;
    expect(stopped.status).toBe('stopped');
    const started = await fast.start(i.cloudId);
    expect(started.privateIpAddress).toBe(i.privateIpAddress);
    expect(started.hostName).toBe(publicHostName(started.ipAddress, 'us-east-1'));
    expect((await fast.describe(i.cloudId))!.status).toBe('running');
  });

  it('terminate: shutting-down, then terminated; no longer active', async () => {
    const i = await launch(fast);
    await fast.describe(i.cloudId);
    expect((await slow.terminate(i.cloudId)).status).toBe('shutting-down');
    await sleep(DELAY + 50);
    expect((await slow.describe(i.cloudId))!.status).toBe('terminated');
    const { rows } = await database.pool.query('select active, dns_ready from cloud_instances where cloud_id = $1', [i.cloudId]);
    expect(rows[0]).toEqual({ active: false, dns_ready: false });
  });
});

describe('EC2 state rules', () => {
  it('start of a running or pending instance and stop of a stopped one answer the instance unchanged', async () => {
    const i = await launch(slow);
    expect((await slow.start(i.cloudId)).status).toBe('pending');
    await sleep(DELAY + 50);
    const running = (await slow.describe(i.cloudId))!;
    expect(await slow.start(i.cloudId)).toEqual(running);
    await fast.stop(i.cloudId);
    const stopped = (await fast.describe(i.cloudId))!;
    expect(await fast.stop(i.cloudId)).toEqual(stopped);
  });

  it('refuses stop while pending, a type change while running, and start once terminated', async () => {
    const i = await launch(slow);
    await expect(slow.stop(i.cloudId)).rejects.toMatchObject({ code: 'IncorrectInstanceState' });
    await sleep(DELAY + 50);
    await expect(slow.changeInstanceType(i.cloudId, 3)).rejects.toMatchObject({ code: 'IncorrectInstanceState' });
    await fast.terminate(i.cloudId);
    await expect(fast.start(i.cloudId)).rejects.toMatchObject({ code: 'IncorrectInstanceState' });
    expect((await fast.terminate(i.cloudId)).status).toBe('terminated');
  });

  it('changes the type and storage of a stopped instance', async () => {
    const i = await launch(fast);
    await fast.describe(i.cloudId);
    await fast.stop(i.cloudId);
    await fast.describe(i.cloudId);
    expect(await fast.changeInstanceType(i.cloudId, 6)).toMatchObject({ status: 'stopped', instanceTypeId: 6, storageSize: 300 });
    await expect(fast.changeInstanceType(i.cloudId, 20)).rejects.toMatchObject({ code: 'InvalidParameterValue' });
  });

  it('answers undefined for an unknown id and NotFound for calls on it', async () => {
    expect(await fast.describe('i-00000000000000000')).toBeUndefined();
    await expect(fast.start('i-00000000000000000')).rejects.toMatchObject({ code: 'InvalidInstanceID.NotFound' });
  });

  it('launch with the same client token answers the first instance', async () => {
    const a = await fast.launch({ machineId, region: 'us-east-1', instanceTypeId: 2, clientToken: 'same-token' });
    const b = await fast.launch({ machineId, region: 'us-east-1', instanceTypeId: 2, clientToken: 'same-token' });
    expect(b.cloudId).toBe(a.cloudId);
    const [c, d] = await Promise.all([
      fast.launch({ machineId, region: 'us-east-1', instanceTypeId: 2, clientToken: 'raced-token' }),
      fast.launch({ machineId, region: 'us-east-1', instanceTypeId: 2, clientToken: 'raced-token' }),
    ]);
    expect(c.cloudId).toBe(d.cloudId);
  });

  it('lists regions and machine instance types (no cache types)', async () => {
    expect((await fast.regions()).map((r) => r.cloudCode)).toContain('us-east-1');
    const types = await fast.instanceTypes();
    expect(types.find((x) => x.id === 2)).toMatchObject({ name: 't2.medium', storageSize: 80 });
    expect(types.some((x) => x.id === 20)).toBe(false);
  });
});

describe('images', () => {
  it('creates an image of an instance: pending, available after five delays, listed, deleted', async () => {
    const i = await launch(fast, 'ap-southeast-2');
    await fast.describe(i.cloudId);
    // The demo seed's images of the region (its SaaS image's AMI), newest first after the new one.
    const seeded = (await slow.listImages('ap-southeast-2')).map((x) => x.imageId);
    const image = await slow.createImage({ cloudId: i.cloudId, name: 'js-campus', description: 'Jump-start', clientToken: 'image-1' });
    expect(image).toMatchObject({ name: 'js-campus', description: 'Jump-start', region: 'ap-southeast-2', sourceCloudId: i.cloudId, status: 'pending' });
    expect(image.imageId).toMatch(/^ami-[0-9a-f]{17}$/);
    expect((await slow.createImage({ cloudId: i.cloudId, name: 'again', description: '', clientToken: 'image-1' })).imageId).toBe(image.imageId);
    await sleep(DELAY * 5 + 50);
    expect((await slow.describeImage(image.imageId))!.status).toBe('available');
    expect((await slow.listImages('ap-southeast-2')).map((x) => x.imageId)).toEqual([image.imageId, ...seeded]);
    await slow.deleteImage(image.imageId);
    expect((await slow.describeImage(image.imageId))!.status).toBe('deregistered');
    expect((await slow.listImages('ap-southeast-2')).map((x) => x.imageId)).toEqual(seeded);
    await slow.deleteImage(image.imageId);
    await expect(slow.deleteImage('ami-00000000000000000')).rejects.toMatchObject({ code: 'InvalidAMIID.NotFound' });
  });

  it('refuses an image of a pending or terminated instance', async () => {
    const i = await launch(slow);
    await expect(slow.createImage({ cloudId: i.cloudId, name: 'x', description: '', clientToken: 'image-2' })).rejects.toMatchObject({ code: 'IncorrectInstanceState' });
  });
});

describe('fault injection', () => {
  it('failNext fails exactly the next n calls of a kind', async () => {
    const i = await launch(fast);
    await fast.describe(i.cloudId);
    fast.failNext('stop', 2, 'RequestLimitExceeded');
    await expect(fast.stop(i.cloudId)).rejects.toThrow('RequestLimitExceeded');
    await expect(fast.stop(i.cloudId)).rejects.toBeInstanceOf(CloudError);
    expect((await fast.describe(i.cloudId))!.status).toBe('running');
    expect((await fast.stop(i.cloudId)).status).toBe('stopped');
    fast.failNext('launch');
    await expect(launch(fast)).rejects.toMatchObject({ code: 'SimulatedFault', message: 'Simulated fault in launch' });
  });

  it('failInstance fails every call on one instance until cleared', async () => {
    const bad = await launch(fast);
    const good = await launch(fast);
    fast.failInstance(bad.cloudId, 'Host failure');
    await expect(fast.describe(bad.cloudId)).rejects.toThrow('Host failure');
    await expect(fast.terminate(bad.cloudId)).rejects.toThrow('Host failure');
    expect(await fast.describe(good.cloudId)).toMatchObject({ cloudId: good.cloudId, status: 'running' });
    fast.clearFaults();
    // The refused terminate left it as it was.
    expect(await fast.describe(bad.cloudId)).toMatchObject({ cloudId: bad.cloudId, status: 'running' });
  });
});
