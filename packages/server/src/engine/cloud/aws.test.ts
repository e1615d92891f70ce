/**
 * The `aws` provider (DESIGN §8, §17) against recorded EC2 answers
 * (`aws-sdk-client-mock` stubs every `EC2Client`'s `send`), on a real
 * PostgreSQL for the catalogue and `cloud_instances`: the idempotent launch and
 * its tags, each EC2 state, each error mapped, the state rules, image creation
 * made idempotent by its tag, two pages of images, deleting an unknown image.
 * The retries that throttling and capacity errors survive are checked through
 * the SDK's own retry with a request handler that answers EC2's XML errors.
 */
import { randomBytes } from 'node:crypto';
import {
  CreateImageCommand,
  DeregisterImageCommand,
  DescribeImagesCommand,
  DescribeInstancesCommand,
  DescribeRegionsCommand,
  EC2Client,
  EC2ServiceException,
  ModifyInstanceAttributeCommand,
  RunInstancesCommand,
  StartInstancesCommand,
  StopInstancesCommand,
  type Image,
  type Instance,
} from '@aws-sdk/client-ec2';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TInstanceState } from '@fleet/contracts';
import { useTestDatabase } from '../../../test/harness.js';
import { insertAccount, insertMachine } from '../../../test/fixtures.js';
import { awsCloudConfig, ConfigError } from '../../config.js';
import { cloudInstances } from '../../db/schema.js';
import { createAwsCloud } from './aws.js';
import { launchTags } from './aws-mapping.js';
import { createCloudProvider } from './index.js';
import { CloudError, type CloudProvider } from './provider.js';

const database = useTestDatabase({ max: 3 });
const REGIONS = ['us-east-1', 'eu-west-1'];
const IMAGES = { 'us-east-1': 'ami-0a1b2c3d4e5f60718', 'eu-west-1': 'ami-0f1e2d3c4b5a69788' };
const hex = (n: number) => randomBytes(n).toString('hex').slice(0, n);
const newInstanceId = () => `i-${hex(17)}`;
const newImageId = () => `ami-${hex(17)}`;
const STATE_CODES: Record<TInstanceState, number> = { pending: 0, running: 16, 'shutting-down': 32, terminated: 48, stopping: 64, stopped: 80 };

/** An instance as DescribeInstances and RunInstances answer it (recorded, ids replaced). */
function recorded(id: string, state: TInstanceState, type = 'm5.xlarge', tags: Instance['Tags'] = []): Instance {
  const up = state === 'running';
  return {
    InstanceId: id,
    ImageId: IMAGES['eu-west-1'],
    InstanceType: type as Instance['InstanceType'],
    State: { Code: STATE_CODES[state], Name: state },
    Placement: { AvailabilityZone: 'eu-west-1b', Tenancy: 'default' },
    PrivateDnsName: 'ip-172-31-20-14.eu-west-1.compute.internal',
    PrivateIpAddress: '172.31.20.14',
    PublicDnsName: up ? 'ec2-54-170-12-9.eu-west-1.compute.amazonaws.com' : '',
    PublicIpAddress: up ? '54.170.12.9' : undefined,
    LaunchTime: new Date('2026-11-20T09:14:03.000Z'),
    Tags: tags,
  };
}

/** An EC2 error as the SDK raises it after its retries. */
const ec2Error = (name: string, message: string, attempts = 1, httpStatusCode = 400) =>
  new EC2ServiceException({ name, message, $fault: httpStatusCode >= 500 ? 'server' : 'client', $metadata: { httpStatusCode, attempts } });

const rejection = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('the call should fail'),
    (err: unknown) => err as CloudError,
  );

describe('against recorded answers', () => {
  let ec2: AwsClientStub<EC2Client>;
  let cloud: CloudProvider;
  let machine: { id: number; name: string; accountId: number };

  beforeAll(async () => {
    ec2 = mockClient(EC2Client);
    cloud = createAwsCloud({ db: database.db, regions: REGIONS, launchImageIds: IMAGES, imagePageSize: 5 });
    const account = await insertAccount(database.db, { name: 'AWS Fixture' });
    machine = await insertMachine(database.db, { accountId: account.id, name: 'aws-fixture-01' });
  });
  afterAll(() => ec2.restore());
  beforeEach(() => ec2.reset());

  /** Launches an instance in eu-west-1 (recorded as pending) and forgets the calls. */
  async function launched(type = 'm5.xlarge', instanceTypeId = 5): Promise<string> {
    const id = newInstanceId();
    ec2.on(RunInstancesCommand).resolvesOnce({ Instances: [recorded(id, 'pending', type)] });
    await cloud.launch({ machineId: machine.id, region: 'eu-west-1', instanceTypeId, clientToken: `task-${id}` });
    ec2.reset();
    return id;
  }
  const answerState = (id: string, state: TInstanceState, type = 'm5.xlarge') =>
    ec2.on(DescribeInstancesCommand, { InstanceIds: [id] }).resolves({ Reservations: [{ Instances: [recorded(id, state, type)] }] });
  const rowOf = async (id: string) => (await database.db.select().from(cloudInstances).where(eq(cloudInstances.cloudId, id)))[0]!;
  const regionOfCall = (n: number) => (ec2.call(n).thisValue as EC2Client).config.region();

  describe('launch', () => {
    it('sends the client token, one instance of the type from the region image, tagged; the same token answers the first instance', async () => {
      const id = newInstanceId();
      ec2.on(RunInstancesCommand).resolves({ Instances: [recorded(id, 'pending')] });
      const request = { machineId: machine.id, region: 'eu-west-1', instanceTypeId: 5, clientToken: `task-launch-${id}` };
      const first = await cloud.launch(request);
      const second = await cloud.launch(request);
      expect(second).toEqual(first);
      expect(first).toMatchObject({ cloudId: id, status: 'pending', machineId: machine.id, region: 'eu-west-1', instanceTypeId: 5, storageSize: 200 });
      const calls = ec2.commandCalls(RunInstancesCommand);
      expect(calls).toHaveLength(2);
      const tags = [
        { Key: 'Name', Value: 'aws-fixture-01' },
        { Key: 'fleet:machineId', Value: String(machine.id) },
        { Key: 'fleet:accountId', Value: String(machine.accountId) },
      ];
      for (const call of calls) {
        expect(call.args[0].input).toEqual({
          ClientToken: request.clientToken,
          ImageId: IMAGES['eu-west-1'],
          InstanceType: 'm5.xlarge',
          MinCount: 1,
          MaxCount: 1,
          TagSpecifications: [
            { ResourceType: 'instance', Tags: tags },
            { ResourceType: 'volume', Tags: tags },
          ],
        });
      }
      expect(await regionOfCall(0)).toBe('eu-west-1');
      const rows = await database.db.select().from(cloudInstances).where(eq(cloudInstances.clientToken, request.clientToken));
      expect(rows).toMatchObject([{ cloudId: id, machineId: machine.id, status: 'pending', region: 'eu-west-1', active: true }]);
    });

    it('refuses a region without a launch image and an unknown or cache type without calling EC2', async () => {
      const base = { machineId: machine.id, region: 'eu-west-1', instanceTypeId: 5, clientToken: 'task-refused' };
      expect((await rejection(cloud.launch({ ...base, region: 'ap-southeast-2' }))).code).toBe('InvalidParameterValue');
      expect((await rejection(cloud.launch({ ...base, instanceTypeId: 20 }))).code).toBe('InvalidParameterValue');
      expect(ec2.calls()).toHaveLength(0);
    });
  });

  describe('describe', () => {
    it.each(Object.keys(STATE_CODES) as TInstanceState[])('maps EC2 state %s, by name and by code alone, and records it', async (state) => {
      const id = await launched();
      answerState(id, state);
      const i = (await cloud.describe(id))!;
      expect(i).toMatchObject({ cloudId: id, status: state, region: 'eu-west-1', machineId: machine.id, instanceTypeId: 5, privateIpAddress: '172.31.20.14' });
      expect(await regionOfCall(0)).toBe('eu-west-1');
      expect(await rowOf(id)).toMatchObject({ status: state, active: state !== 'terminated', dnsReady: state === 'running', hostName: i.hostName });
      const byCode = { ...recorded(id, state), State: { Code: STATE_CODES[state] + 256 } };
      ec2.reset();
      ec2.on(DescribeInstancesCommand).resolves({ Reservations: [{ Instances: [byCode] }] });
      expect((await cloud.describe(id))!.status).toBe(state);
    });

    it('an id not on record is looked for in each region; one EC2 does not know is undefined', async () => {
      const id = newInstanceId();
      ec2.on(DescribeInstancesCommand).rejects(ec2Error('InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`));
      expect(await cloud.describe(id)).toBeUndefined();
      expect(await Promise.all([regionOfCall(0), regionOfCall(1)])).toEqual(REGIONS);
      expect(await cloud.describe('not-an-id')).toBeUndefined();
      expect(ec2.calls()).toHaveLength(2);
    });

    it('a new instance EC2 does not list yet answers our record; an old one it forgot is terminated and inactive', async () => {
      const id = await launched();
      ec2.on(DescribeInstancesCommand).rejects(ec2Error('InvalidInstanceID.NotFound', 'not yet'));
      expect(await cloud.describe(id)).toMatchObject({ cloudId: id, status: 'pending' });
      await database.db.update(cloudInstances).set({ createdAt: sql`now() - interval '2 hours'` }).where(eq(cloudInstances.cloudId, id));
      expect(await cloud.describe(id)).toBeUndefined();
      expect(await rowOf(id)).toMatchObject({ status: 'terminated', active: false });
    });
  });

  describe('state rules and errors', () => {
    it('start of a stopped instance answers EC2 state; of a running one makes no call; stop while pending is refused', async () => {
      const id = await launched();
      answerState(id, 'stopped');
      ec2.on(StartInstancesCommand).resolves({ StartingInstances: [{ InstanceId: id, CurrentState: { Code: 0, Name: 'pending' }, PreviousState: { Code: 80, Name: 'stopped' } }] });
      expect((await cloud.start(id)).status).toBe('pending');
      expect((await rowOf(id)).status).toBe('pending');
      ec2.reset();
      answerState(id, 'running');
      expect((await cloud.start(id)).status).toBe('running');
      expect(ec2.commandCalls(StartInstancesCommand)).toHaveLength(0);
      ec2.reset();
      answerState(id, 'pending');
      expect((await rejection(cloud.stop(id))).code).toBe('IncorrectInstanceState');
      expect(ec2.commandCalls(StopInstancesCommand)).toHaveLength(0);
    });

    it('changeInstanceType is refused while running and sends the EC2 type code once stopped', async () => {
      const id = await launched();
      answerState(id, 'running');
      const refused = await rejection(cloud.changeInstanceType(id, 9));
      expect(refused).toBeInstanceOf(CloudError);
      expect(refused.code).toBe('IncorrectInstanceState');
      expect(ec2.commandCalls(ModifyInstanceAttributeCommand)).toHaveLength(0);
      ec2.reset();
      answerState(id, 'stopped');
      ec2.on(ModifyInstanceAttributeCommand).resolves({});
      expect(await cloud.changeInstanceType(id, 9)).toMatchObject({ instanceTypeId: 9, storageSize: 120, status: 'stopped' });
      expect(ec2.commandCalls(ModifyInstanceAttributeCommand)[0]!.args[0].input).toEqual({ InstanceId: id, InstanceType: { Value: 'c5.xlarge' } });
      expect(await rowOf(id)).toMatchObject({ instanceTypeId: 9, storageSize: 120 });
    });

    it("EC2's errors keep EC2's code: incorrect state, not found, throttling and capacity say what to do", async () => {
      const id = await launched();
      answerState(id, 'stopped');
      ec2.on(StartInstancesCommand).rejects(ec2Error('IncorrectInstanceState', `The instance '${id}' is not in a state from which it can be started.`));
      const state = await rejection(cloud.start(id));
      expect(state).toMatchObject({ code: 'IncorrectInstanceState', message: expect.stringContaining('StartInstances in eu-west-1') });

      ec2.on(DescribeInstancesCommand).rejects(ec2Error('InvalidInstanceID.NotFound', 'The instance ID does not exist'));
      expect((await rejection(cloud.terminate(newInstanceId()))).code).toBe('InvalidInstanceID.NotFound');

      ec2.on(StartInstancesCommand).rejects(ec2Error('RequestLimitExceeded', 'Request limit exceeded.', 5, 503));
      const throttled = await rejection(cloud.start(id));
      expect(throttled.code).toBe('RequestLimitExceeded');
      expect(throttled.message).toMatch(/throttling .* after 5 attempts .* Retry the task in a few minutes/);

      ec2.on(RunInstancesCommand).rejects(ec2Error('InsufficientInstanceCapacity', 'We currently do not have sufficient m5.xlarge capacity.', 5, 500));
      const full = await rejection(cloud.launch({ machineId: machine.id, region: 'eu-west-1', instanceTypeId: 5, clientToken: 'task-full' }));
      expect(full.code).toBe('InsufficientInstanceCapacity');
      expect(full.message).toMatch(/no capacity for m5.xlarge in eu-west-1 .* Retry the task later, or change the machine's instance type or region/);
    });
  });

  describe('images', () => {
    const image = (id: string, created: string, state = 'available', tags: Image['Tags'] = []): Image => ({
      ImageId: id,
      Name: `irmn-${id}`,
      Description: 'IRMN build',
      State: state as Image['State'],
      CreationDate: created,
      OwnerId: '123456789012',
      Tags: tags,
    });

    it('createImage tags the image with the client token and answers the tagged image to a second call', async () => {
      const id = await launched();
      answerState(id, 'running');
      const imageId = newImageId();
      const token = `operation-${id}`;
      ec2.on(DescribeImagesCommand).resolvesOnce({ Images: [] });
      ec2.on(CreateImageCommand).resolves({ ImageId: imageId });
      const req = { cloudId: id, name: 'js-8.2-use1', description: 'Jump-start', clientToken: token };
      expect(await cloud.createImage(req)).toEqual({ imageId, name: req.name, description: req.description, region: 'eu-west-1', sourceCloudId: id, status: 'pending' });
      const [lookup] = ec2.commandCalls(DescribeImagesCommand);
      expect(lookup!.args[0].input).toEqual({ Owners: ['self'], Filters: [{ Name: 'tag:fleet:clientToken', Values: [token] }] });
      const tags = expect.arrayContaining([{ Key: 'fleet:clientToken', Value: token }, { Key: 'fleet:sourceCloudId', Value: id }]);
      expect(ec2.commandCalls(CreateImageCommand)[0]!.args[0].input).toMatchObject({
        InstanceId: id,
        Name: req.name,
        TagSpecifications: [
          { ResourceType: 'image', Tags: tags },
          { ResourceType: 'snapshot', Tags: tags },
        ],
      });
      ec2.on(DescribeImagesCommand).resolves({ Images: [{ ...image(imageId, '2026-11-27T10:00:00.000Z', 'pending', [{ Key: 'fleet:clientToken', Value: token }]), SourceInstanceId: id }] });
      expect(await cloud.createImage(req)).toMatchObject({ imageId, region: 'eu-west-1', sourceCloudId: id, status: 'pending' });
      expect(ec2.commandCalls(CreateImageCommand)).toHaveLength(1);
    });

    it('listImages walks both pages of self-owned images, newest first, without unusable ones', async () => {
      const [a, b, c, gone] = [newImageId(), newImageId(), newImageId(), newImageId()];
      const pages = {
        first: { Images: [image(a, '2026-10-01T08:00:00.000Z'), image(gone, '2026-11-01T08:00:00.000Z', 'failed')], NextToken: 'page-2' },
        'page-2': { Images: [image(b, '2026-11-20T08:00:00.000Z'), image(c, '2026-11-21T08:00:00.000Z', 'pending')] },
      };
      // The SDK's paginator reuses its input object, so each request is copied as it is sent.
      const sent: object[] = [];
      ec2.on(DescribeImagesCommand).callsFake((input: { NextToken?: 'page-2' }) => {
        sent.push({ ...input });
        return pages[input.NextToken ?? 'first'];
      });
      const images = await cloud.listImages('us-east-1');
      expect(images.map((i) => [i.imageId, i.status, i.region])).toEqual([
        [c, 'pending', 'us-east-1'],
        [b, 'available', 'us-east-1'],
        [a, 'available', 'us-east-1'],
      ]);
      expect(sent).toEqual([
        { Owners: ['self'], MaxResults: 5 },
        { Owners: ['self'], MaxResults: 5, NextToken: 'page-2' },
      ]);
    });

    it('deleteImage of an unknown image is InvalidAMIID.NotFound after asking each region; a known one is deregistered where it is', async () => {
      const unknown = newImageId();
      ec2.on(DescribeImagesCommand).rejects(ec2Error('InvalidAMIID.NotFound', `The image id '[${unknown}]' does not exist`));
      expect((await rejection(cloud.deleteImage(unknown))).code).toBe('InvalidAMIID.NotFound');
      expect(ec2.commandCalls(DescribeImagesCommand)).toHaveLength(2);
      expect(ec2.commandCalls(DeregisterImageCommand)).toHaveLength(0);
      ec2.reset();
      const known = newImageId();
      ec2.on(DescribeImagesCommand).rejectsOnce(ec2Error('InvalidAMIID.NotFound', 'not here')).resolves({ Images: [image(known, '2026-11-01T08:00:00.000Z')] });
      ec2.on(DeregisterImageCommand).resolves({ Return: true });
      await cloud.deleteImage(known);
      expect(ec2.commandCalls(DeregisterImageCommand)[0]!.args[0].input).toEqual({ ImageId: known });
      expect(await regionOfCall(ec2.calls().length - 1)).toBe('eu-west-1');
    });
  });

  it('regions are the configured ones EC2 has enabled, named by the catalogue; instance types are the catalogue machine types', async () => {
    ec2.on(DescribeRegionsCommand).resolves({ Regions: [{ RegionName: 'eu-west-1', Endpoint: 'ec2.eu-west-1.amazonaws.com', OptInStatus: 'opt-in-not-required' }] });
    expect(await cloud.regions()).toEqual([{ name: 'EU (Ireland)', cloudCode: 'eu-west-1' }]);
    const types = await cloud.instanceTypes();
    expect(types.map((t) => t.cloudCode)).toContain('c5.xlarge');
    expect(types.some((t) => t.cloudCode.startsWith('cache.'))).toBe(false);
  });
});

describe("through the SDK's adaptive retry", () => {
  /** A request handler that answers every request with EC2's XML error `code` and counts the requests. */
  function failingEc2(code: string, statusCode: number) {
    const handler = {
      requests: 0,
      async handle() {
        handler.requests += 1;
        const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${code}</Code><Message>Recorded ${code}.</Message></Error></Errors><RequestID>6f0c3e1a-2b4d-4c8e-9a7f-1d2e3f4a5b6c</RequestID></Response>`;
        return { response: { statusCode, reason: '', headers: { 'content-type': 'text/xml;charset=UTF-8' }, body: new TextEncoder().encode(body) } };
      },
    };
    return handler;
  }
  const awsWith = (handler: ReturnType<typeof failingEc2>) =>
    createAwsCloud({
      db: database.db,
      regions: ['us-east-1'],
      launchImageIds: { 'us-east-1': IMAGES['us-east-1'] },
      maxAttempts: 2,
      clientConfig: { requestHandler: handler, credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'example' } },
    });

  it('throttling that survives the retries is RequestLimitExceeded after maxAttempts attempts', async () => {
    const handler = failingEc2('RequestLimitExceeded', 503);
    const err = await rejection(awsWith(handler).listImages());
    expect(handler.requests).toBe(2);
    expect(err).toMatchObject({ code: 'RequestLimitExceeded', message: expect.stringContaining('after 2 attempts') });
  });

  it('a lack of capacity that survives the retries is InsufficientInstanceCapacity', async () => {
    const handler = failingEc2('InsufficientInstanceCapacity', 500);
    const err = await rejection(awsWith(handler).launch({ machineId: 1, region: 'us-east-1', instanceTypeId: 9, clientToken: 'task-capacity' }));
    expect(handler.requests).toBe(2);
    expect(err).toMatchObject({ code: 'InsufficientInstanceCapacity', message: expect.stringContaining('no capacity for c5.xlarge in us-east-1') });
  });
});

describe('settings', () => {
  const env = { AWS_REGIONS: 'us-east-1, eu-west-1', AWS_LAUNCH_IMAGE_ID: `us-east-1=${IMAGES['us-east-1']},eu-west-1=${IMAGES['eu-west-1']}` };

  it('reads AWS_REGIONS, the image of each region and AWS_MAX_ATTEMPTS, and makes the aws provider of them', () => {
    const settings = awsCloudConfig(env);
    expect(settings).toEqual({ regions: REGIONS, launchImageIds: IMAGES, maxAttempts: 5 });
    expect(awsCloudConfig({ AWS_REGIONS: 'us-east-1', AWS_LAUNCH_IMAGE_ID: IMAGES['us-east-1'], AWS_MAX_ATTEMPTS: '3' })).toEqual({
      regions: ['us-east-1'],
      launchImageIds: { 'us-east-1': IMAGES['us-east-1'] },
      maxAttempts: 3,
    });
    expect(createCloudProvider({ name: 'aws', db: database.db, simDelayMs: 0, aws: settings })).toMatchObject({ name: 'aws', pollIntervalMs: 5000 });
  });

  it.each([
    [{}, /AWS_REGIONS must list/],
    [{ AWS_REGIONS: 'us-east-1,Ireland' }, /AWS region codes .*'Ireland'/],
    [{ AWS_REGIONS: 'us-east-1,eu-west-1' }, /AWS_LAUNCH_IMAGE_ID must name/],
    [{ ...env, AWS_LAUNCH_IMAGE_ID: IMAGES['us-east-1'] }, /with 2 regions/],
    [{ ...env, AWS_LAUNCH_IMAGE_ID: `us-east-1=${IMAGES['us-east-1']}` }, /no image for eu-west-1/],
    [{ ...env, AWS_LAUNCH_IMAGE_ID: `us-east-1=ubuntu,eu-west-1=${IMAGES['eu-west-1']}` }, /not an image id/],
    [{ ...env, AWS_LAUNCH_IMAGE_ID: `${env.AWS_LAUNCH_IMAGE_ID},us-west-2=${IMAGES['us-east-1']}` }, /us-west-2, which is not in AWS_REGIONS/],
    [{ ...env, AWS_MAX_ATTEMPTS: '50' }, /AWS_MAX_ATTEMPTS must be .* from 1 to 10/],
  ])('refuses %j at start with a clear error', (wrong, message) => {
    expect(() => awsCloudConfig(wrong)).toThrow(ConfigError);
    expect(() => awsCloudConfig(wrong)).toThrow(message);
  });

  it('names an instance fleet-machine-<id> when the machine is not known, and tags the account only when known', () => {
    expect(launchTags({ id: 42 })).toEqual([
      { Key: 'Name', Value: 'fleet-machine-42' },
      { Key: 'fleet:machineId', Value: '42' },
    ]);
  });
});
