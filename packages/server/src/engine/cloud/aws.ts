/**
 * The `aws` cloud provider (DESIGN §8, §17): {@link CloudProvider} on Amazon
 * EC2 (`CLOUD_PROVIDER=aws`; settings, mappings, idempotency and the IAM
 * policy it needs in `README.md` beside this file).
 *
 * - One `EC2Client` per region, made at its first call, with the SDK's
 *   adaptive retry (`retryMode: 'adaptive'`: backoff, and a client-side rate
 *   that slows down when EC2 throttles) and at most `maxAttempts` attempts per
 *   call. Credentials come from the SDK's default chain (environment, shared
 *   files, instance or task role); the console keeps none.
 * - The SDK (about 2 s to load) is loaded at the first call, so the simulated
 *   default never loads it.
 * - Launches carry the caller's client token as EC2's `ClientToken`: a repeated
 *   launch answers the first instance. Images are made idempotent by a tag
 *   (`fleet:clientToken`) looked for before each CreateImage.
 * - Instances are recorded in `cloud_instances`, the table the rest of the
 *   console reads, and brought in line with every EC2 answer (`aws.repository.ts`).
 *   An instance or image id our records do not place is looked for in every
 *   configured region, in their order.
 * - Every EC2 error becomes a {@link CloudError} with EC2's code (`aws-mapping.ts`).
 *
 * Known limitations: instances are launched into the region's default VPC and
 * default security group, without a key pair, with the image's root volume
 * (the reported `storageSize` is the catalogue type's); a type change does not
 * grow the volume; deleting an image leaves its EBS snapshots; EC2 may not list
 * an instance for a few seconds after RunInstances, so for
 * {@link LAUNCH_VISIBILITY_MS} after a launch an unknown id answers our record.
 */
import type { EC2Client, EC2ClientConfig, Image, Instance, InstanceStateChange, Tag, _InstanceType } from '@aws-sdk/client-ec2';
import { LRUCache } from 'lru-cache';
import type { TInstanceState } from '@fleet/contracts';
import { DEFAULT_AWS_MAX_ATTEMPTS } from '../../config.js';
import type { Db } from '../../db/client.js';
import { NOT_FOUND_CODES, TAGS, instanceState, launchTags, newestFirst, tagValue, toCloudError, toCloudImage, toCloudInstance } from './aws-mapping.js';
import * as repo from './aws.repository.js';
import { selectMachineTypes } from './catalogue.repository.js';
import { CloudError, type CloudImage, type CloudInstance, type CloudProvider } from './provider.js';

type Ec2Sdk = typeof import('@aws-sdk/client-ec2');

/** How often a caller waiting for a state describes the instance, milliseconds (EC2 moves in tens of seconds). */
export const DEFAULT_AWS_POLL_INTERVAL_MS = 5000;
/** How long after a launch EC2 may still answer `InvalidInstanceID.NotFound` for the new instance (its eventual consistency), milliseconds. */
export const LAUNCH_VISIBILITY_MS = 5 * 60_000;

/** Settings of {@link createAwsCloud}; `config.ts` reads them from `AWS_*`. */
export interface AwsCloudOptions {
  /** Our database: catalogue rows (instance types, region names), machines (tags) and `cloud_instances`. */
  db: Db;
  /** Region cloud codes the fleet runs in (`AWS_REGIONS`), e.g. `['us-east-1', 'eu-west-1']`; at least one. */
  regions: string[];
  /** The image (`ami-…`) each region's instances are launched from, by region cloud code (`AWS_LAUNCH_IMAGE_ID`). */
  launchImageIds: Record<string, string>;
  /** Attempts of each call, the first included (default {@link DEFAULT_AWS_MAX_ATTEMPTS}). */
  maxAttempts?: number;
  /** Milliseconds (default {@link DEFAULT_AWS_POLL_INTERVAL_MS}). */
  pollIntervalMs?: number;
  /** Images per DescribeImages page, 5 to 1000 (default 1000, EC2's maximum). */
  imagePageSize?: number;
  /**
   * Further settings of each region's client (an endpoint, static credentials,
   * a request handler); the region, the retry mode and the attempts are the
   * provider's. Default: none, so the SDK's default chain supplies credentials.
   */
  clientConfig?: Omit<EC2ClientConfig, 'region' | 'retryMode' | 'maxAttempts'>;
}

let sdkLoading: Promise<Ec2Sdk> | undefined;
/** The EC2 SDK, loaded once at the first call of any `aws` provider. */
const loadSdk = () => (sdkLoading ??= import('@aws-sdk/client-ec2'));

const INSTANCE_ID = /^i-[0-9a-f]{8}([0-9a-f]{9})?$/;
const IMAGE_ID = /^ami-[0-9a-f]{8}([0-9a-f]{9})?$/;

const refuse = (i: CloudInstance, what: string) =>
  new CloudError('IncorrectInstanceState', `The instance '${i.cloudId}' is ${i.status} and cannot be ${what}`);
const instanceNotFound = (cloudId: string) => new CloudError('InvalidInstanceID.NotFound', `The instance ID '${cloudId}' does not exist`);

/** The `aws` provider (module docstring). No EC2 call is made until the first method call. */
export function createAwsCloud(options: AwsCloudOptions): CloudProvider {
  const { db, regions, launchImageIds, clientConfig } = options;
  const maxAttempts = options.maxAttempts ?? DEFAULT_AWS_MAX_ATTEMPTS;
  const imagePageSize = options.imagePageSize ?? 1000;
  if (regions.length === 0) throw new Error('createAwsCloud: at least one region is needed');
  const clients = new Map<string, EC2Client>();
  /** Where images were last seen, so that a describe asks that region first. */
  const imageRegions = new LRUCache<string, string>({ max: 10_000 });

  /** Runs one EC2 call (or a paginated walk) in `region`; an error becomes a {@link CloudError}. */
  async function ec2<T>(region: string, call: { action: string; instanceType?: string }, run: (client: EC2Client, sdk: Ec2Sdk) => Promise<T>): Promise<T> {
    const sdk = await loadSdk();
    let client = clients.get(region);
    if (!client) {
      client = new sdk.EC2Client({ ...clientConfig, region, retryMode: 'adaptive', maxAttempts });
      clients.set(region, client);
    }
    try {
      return await run(client, sdk);
    } catch (err) {
      throw toCloudError(err, { ...call, region });
    }
  }

  /** `first` (if any), then the configured regions. */
  const regionsFrom = (first: string | undefined) => (first ? [first, ...regions.filter((r) => r !== first)] : regions);

  /** The instance as EC2 describes it in `region`, or undefined when EC2 does not know it there. */
  async function instanceIn(region: string, cloudId: string): Promise<Instance | undefined> {
    try {
      const out = await ec2(region, { action: 'DescribeInstances' }, (c, sdk) => c.send(new sdk.DescribeInstancesCommand({ InstanceIds: [cloudId] })));
      return out.Reservations?.flatMap((r) => r.Instances ?? []).find((i) => i.InstanceId === cloudId);
    } catch (err) {
      if (err instanceof CloudError && NOT_FOUND_CODES.has(err.code)) return undefined;
      throw err;
    }
  }

  /** EC2's instance as ours, with the catalogue type of its EC2 type (our record's if it has that code); our row follows. */
  async function answer(found: Instance, region: string, record: repo.InstanceRecord | undefined): Promise<CloudInstance> {
    const types = await selectMachineTypes(db);
    const code = found.InstanceType as string | undefined;
    const type = types.find((t) => t.id === record?.instanceTypeId && t.cloudCode === code) ?? types.find((t) => t.cloudCode === code);
    const i = toCloudInstance(found, {
      region,
      machineId: record?.machineId ?? null,
      instanceTypeId: type?.id ?? null,
      storageSize: type?.storageSize ?? record?.storageSize ?? 0,
    });
    if (record) await repo.updateInstanceRecord(db, i);
    return i;
  }

  async function read(cloudId: string): Promise<CloudInstance | undefined> {
    if (!INSTANCE_ID.test(cloudId)) return undefined;
    const record = await repo.selectInstanceRecord(db, cloudId);
    for (const region of record ? [record.region] : regions) {
      const found = await instanceIn(region, cloudId);
      if (found) return answer(found, region, record);
    }
    if (!record) return undefined;
    if (record.ageMs < LAUNCH_VISIBILITY_MS) {
      const { ageMs: _ageMs, ...recorded } = record;
      return recorded;
    }
    await repo.markInstanceGone(db, cloudId);
    return undefined;
  }

  async function mustRead(cloudId: string): Promise<CloudInstance> {
    const found = await read(cloudId);
    if (!found) throw instanceNotFound(cloudId);
    return found;
  }

  /**
   * Start, stop or terminate: answers the instance at once when it is already
   * where the call leads (`done`), refuses it unless it is in `from`, else
   * calls EC2 and answers the state EC2 reports.
   */
  async function transition(
    cloudId: string,
    rule: { done: TInstanceState[]; from: TInstanceState[]; what: string; action: string },
    run: (client: EC2Client, sdk: Ec2Sdk) => Promise<InstanceStateChange[] | undefined>,
  ): Promise<CloudInstance> {
    const i = await mustRead(cloudId);
    if (rule.done.includes(i.status)) return i;
    if (!rule.from.includes(i.status)) throw refuse(i, rule.what);
    const changes = await ec2(i.region, { action: rule.action }, run);
    const change = changes?.find((c) => c.InstanceId === cloudId);
    const next: CloudInstance = { ...i, status: change ? instanceState(change.CurrentState) : i.status };
    await repo.updateInstanceRecord(db, next);
    return next;
  }

  /** The image in `region`, or undefined when EC2 does not know it there. */
  async function imageIn(region: string, imageId: string): Promise<Image | undefined> {
    try {
      const out = await ec2(region, { action: 'DescribeImages' }, (c, sdk) => c.send(new sdk.DescribeImagesCommand({ ImageIds: [imageId] })));
      return out.Images?.find((i) => i.ImageId === imageId);
    } catch (err) {
      if (err instanceof CloudError && NOT_FOUND_CODES.has(err.code)) return undefined;
      throw err;
    }
  }

  async function findImage(imageId: string): Promise<{ image: Image; region: string } | undefined> {
    if (!IMAGE_ID.test(imageId)) return undefined;
    for (const region of regionsFrom(imageRegions.get(imageId))) {
      const image = await imageIn(region, imageId);
      if (image) {
        imageRegions.set(imageId, region);
        return { image, region };
      }
    }
    return undefined;
  }

  /** This account's images in `region` that match `filter` (`Name`, `Values`). */
  async function ownImagesWhere(region: string, filter: { Name: string; Values: string[] }): Promise<Image[]> {
    const out = await ec2(region, { action: 'DescribeImages' }, (c, sdk) => c.send(new sdk.DescribeImagesCommand({ Owners: ['self'], Filters: [filter] })));
    return out.Images ?? [];
  }

  /** The image an earlier CreateImage with this client token made, if any. */
  async function imageOfToken(region: string, clientToken: string): Promise<CloudImage | undefined> {
    const [image] = (await ownImagesWhere(region, { Name: `tag:${TAGS.clientToken}`, Values: [clientToken] })).sort(newestFirst);
    return image && toCloudImage(image, region);
  }

  /** The region of an instance: our record's, else the one EC2 finds it in. */
  async function regionOfInstance(cloudId: string): Promise<string> {
    const record = INSTANCE_ID.test(cloudId) ? await repo.selectInstanceRecord(db, cloudId) : undefined;
    return record?.region ?? (await mustRead(cloudId)).region;
  }

  return {
    name: 'aws',
    pollIntervalMs: options.pollIntervalMs ?? DEFAULT_AWS_POLL_INTERVAL_MS,

    async launch({ machineId, region, instanceTypeId, clientToken }) {
      const imageId = launchImageIds[region];
      if (!imageId) throw new CloudError('InvalidParameterValue', `No image to launch from is configured for region ${region} (AWS_LAUNCH_IMAGE_ID)`);
      const [types, machine] = await Promise.all([selectMachineTypes(db), repo.selectMachineTagFacts(db, machineId)]);
      const type = types.find((t) => t.id === instanceTypeId);
      if (!type) throw new CloudError('InvalidParameterValue', `Unknown instance type ${instanceTypeId}`);
      const tags = launchTags({ id: machineId, name: machine?.name, accountId: machine?.accountId });
      const out = await ec2(region, { action: 'RunInstances', instanceType: type.cloudCode }, (c, sdk) =>
        c.send(
          new sdk.RunInstancesCommand({
            ClientToken: clientToken,
            ImageId: imageId,
            InstanceType: type.cloudCode as _InstanceType,
            MinCount: 1,
            MaxCount: 1,
            TagSpecifications: [
              { ResourceType: 'instance', Tags: tags },
              { ResourceType: 'volume', Tags: tags },
            ],
          }),
        ),
      );
      const launched = out.Instances?.[0];
      if (!launched?.InstanceId) throw new CloudError('InvalidResponse', `EC2 RunInstances in ${region} answered no instance`);
      const i = toCloudInstance(launched, { region, machineId, instanceTypeId: type.id, storageSize: type.storageSize });
      await repo.upsertLaunchedInstance(db, i, clientToken);
      return i;
    },

    start: (cloudId) =>
      transition(
        cloudId,
        { done: ['running', 'pending'], from: ['stopped'], what: 'started', action: 'StartInstances' },
        async (c, sdk) => (await c.send(new sdk.StartInstancesCommand({ InstanceIds: [cloudId] }))).StartingInstances,
      ),

    stop: (cloudId) =>
      transition(
        cloudId,
        { done: ['stopped', 'stopping'], from: ['running'], what: 'stopped', action: 'StopInstances' },
        async (c, sdk) => (await c.send(new sdk.StopInstancesCommand({ InstanceIds: [cloudId] }))).StoppingInstances,
      ),

    terminate: (cloudId) =>
      transition(
        cloudId,
        { done: ['terminated', 'shutting-down'], from: ['pending', 'running', 'stopping', 'stopped'], what: 'terminated', action: 'TerminateInstances' },
        async (c, sdk) => (await c.send(new sdk.TerminateInstancesCommand({ InstanceIds: [cloudId] }))).TerminatingInstances,
      ),

    describe: read,

    async changeInstanceType(cloudId, instanceTypeId) {
      const i = await mustRead(cloudId);
      if (i.status !== 'stopped') throw refuse(i, 'modified (it must be stopped)');
      const type = (await selectMachineTypes(db)).find((t) => t.id === instanceTypeId);
      if (!type) throw new CloudError('InvalidParameterValue', `Unknown instance type ${instanceTypeId}`);
      await ec2(i.region, { action: 'ModifyInstanceAttribute', instanceType: type.cloudCode }, (c, sdk) =>
        c.send(new sdk.ModifyInstanceAttributeCommand({ InstanceId: cloudId, InstanceType: { Value: type.cloudCode } })),
      );
      const next: CloudInstance = { ...i, instanceTypeId: type.id, storageSize: type.storageSize };
      await repo.updateInstanceRecord(db, next);
      return next;
    },

    async createImage({ cloudId, name, description, clientToken }) {
      const region = await regionOfInstance(cloudId);
      const earlier = await imageOfToken(region, clientToken);
      if (earlier) return earlier;
      const i = await mustRead(cloudId);
      if (i.status !== 'running' && i.status !== 'stopped') throw refuse(i, 'imaged');
      const tags: Tag[] = [
        { Key: 'Name', Value: name },
        { Key: TAGS.clientToken, Value: clientToken },
        { Key: TAGS.sourceCloudId, Value: cloudId },
        ...(i.machineId === null ? [] : [{ Key: TAGS.machineId, Value: String(i.machineId) }]),
      ];
      try {
        const out = await ec2(region, { action: 'CreateImage' }, (c, sdk) =>
          c.send(
            new sdk.CreateImageCommand({
              InstanceId: cloudId,
              Name: name,
              Description: description || undefined,
              TagSpecifications: [
                { ResourceType: 'image', Tags: tags },
                { ResourceType: 'snapshot', Tags: tags },
              ],
            }),
          ),
        );
        if (!out.ImageId) throw new CloudError('InvalidResponse', `EC2 CreateImage in ${region} answered no image`);
        imageRegions.set(out.ImageId, region);
        return { imageId: out.ImageId, name, description, region, sourceCloudId: cloudId, status: 'pending' };
      } catch (err) {
        // Image names are unique per account and region: a concurrent call with the same token may have won.
        if (!(err instanceof CloudError) || err.code !== 'InvalidAMIName.Duplicate') throw err;
        const named = await ownImagesWhere(region, { Name: 'name', Values: [name] });
        const same = named.find((image) => tagValue(image.Tags, TAGS.clientToken) === clientToken);
        if (!same) throw err;
        return toCloudImage(same, region);
      }
    },

    async describeImage(imageId) {
      const found = await findImage(imageId);
      return found && toCloudImage(found.image, found.region);
    },

    async listImages(region) {
      const perRegion = await Promise.all(
        (region ? [region] : regions).map(async (r) => {
          const images = await ec2(r, { action: 'DescribeImages' }, async (c, sdk) => {
            const all: Image[] = [];
            for await (const page of sdk.paginateDescribeImages({ client: c, pageSize: imagePageSize }, { Owners: ['self'] })) all.push(...(page.Images ?? []));
            return all;
          });
          return images.map((image) => ({ image, region: r }));
        }),
      );
      return perRegion
        .flat()
        .sort((a, b) => newestFirst(a.image, b.image))
        .map(({ image, region: r }) => {
          if (image.ImageId) imageRegions.set(image.ImageId, r);
          return toCloudImage(image, r);
        })
        .filter((image) => image.status !== 'deregistered');
    },

    async deleteImage(imageId) {
      const found = await findImage(imageId);
      if (!found) throw new CloudError('InvalidAMIID.NotFound', `The image id '${imageId}' does not exist`);
      if (found.image.State === 'deregistered') return;
      await ec2(found.region, { action: 'DeregisterImage' }, (c, sdk) => c.send(new sdk.DeregisterImageCommand({ ImageId: imageId })));
    },

    async regions() {
      const [names, out] = await Promise.all([
        repo.selectRegionNames(db),
        ec2(regions[0]!, { action: 'DescribeRegions' }, (c, sdk) => c.send(new sdk.DescribeRegionsCommand({}))),
      ]);
      const enabled = new Set(out.Regions?.map((r) => r.RegionName));
      return regions.filter((r) => enabled.has(r)).map((cloudCode) => ({ name: names.get(cloudCode) ?? cloudCode, cloudCode }));
    },

    instanceTypes: () => selectMachineTypes(db),
  };
}
