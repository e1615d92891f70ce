/**
 * How the `aws` provider (DESIGN §8, §17; `aws.ts`) reads EC2's answers and
 * errors: instance states onto {@link TInstanceState}, image states onto
 * {@link CloudImageState}, EC2 instances and images onto {@link CloudInstance}
 * and {@link CloudImage}, the tags it writes, and EC2's errors onto a
 * {@link CloudError} carrying EC2's code. Pure functions: no SDK value is
 * imported here, so the mapping loads without the EC2 client.
 *
 * The tables are in `README.md` beside this file ("AWS EC2 provider").
 */
import { INSTANCE_STATES, type TInstanceState } from '@fleet/contracts';
import type { Image, Instance, InstanceState, Tag } from '@aws-sdk/client-ec2';
import { CloudError, type CloudImage, type CloudImageState, type CloudInstance } from './provider.js';

/** Tag keys the provider writes on what it creates. */
export const TAGS = {
  machineId: 'fleet:machineId',
  accountId: 'fleet:accountId',
  /** On images (and their snapshots): the client token of the CreateImage, its idempotency key. */
  clientToken: 'fleet:clientToken',
  sourceCloudId: 'fleet:sourceCloudId',
} as const;

/** EC2's state codes (the low byte of `State.Code`), for an answer without a state name. */
const STATE_BY_CODE: Record<number, TInstanceState> = {
  0: 'pending',
  16: 'running',
  32: 'shutting-down',
  48: 'terminated',
  64: 'stopping',
  80: 'stopped',
};

/**
 * An EC2 instance state as ours: EC2's six names are ours, so the name is kept;
 * without a name the code decides. Anything else throws a {@link CloudError}
 * `UnknownInstanceState` (EC2 has added no state since 2006).
 */
export function instanceState(state: InstanceState | undefined): TInstanceState {
  const name = state?.Name as string | undefined;
  if (name && (INSTANCE_STATES as readonly string[]).includes(name)) return name as TInstanceState;
  const byCode = state?.Code === undefined ? undefined : STATE_BY_CODE[state.Code & 0xff];
  if (byCode) return byCode;
  throw new CloudError('UnknownInstanceState', `EC2 answered an instance state this console does not know (${name ?? state?.Code ?? 'none'})`);
}

/**
 * An EC2 image state as ours: `pending` and `transient` are pending,
 * `available` is available, and every state an image cannot be launched from
 * (`deregistered`, `failed`, `error`, `invalid`, `disabled`) is deregistered,
 * so that a caller waiting for an image stops waiting.
 */
export function imageState(state: string | undefined): CloudImageState {
  if (state === 'available') return 'available';
  if (state === 'pending' || state === 'transient') return 'pending';
  return 'deregistered';
}

/** The value of tag `key`, if the resource has it. */
export function tagValue(tags: Tag[] | undefined, key: string): string | undefined {
  return tags?.find((t) => t.Key === key)?.Value;
}

/** A whole number tag (`fleet:machineId`), or null when absent or not a number. */
function tagNumber(tags: Tag[] | undefined, key: string): number | null {
  const value = Number(tagValue(tags, key));
  return Number.isInteger(value) && value > 0 ? value : null;
}

/**
 * The tags of a launched instance and its volumes: `Name` (the machine's name,
 * else `fleet-machine-<id>`), `fleet:machineId`, and `fleet:accountId` when known.
 */
export function launchTags(machine: { id: number; name?: string; accountId?: number }): Tag[] {
  const tags: Tag[] = [
    { Key: 'Name', Value: machine.name || `fleet-machine-${machine.id}` },
    { Key: TAGS.machineId, Value: String(machine.id) },
  ];
  if (machine.accountId !== undefined) tags.push({ Key: TAGS.accountId, Value: String(machine.accountId) });
  return tags;
}

/** What EC2 does not say of an instance and our records do: its machine, our instance type id, its storage size (GB). */
export interface InstanceFacts {
  region: string;
  machineId: number | null;
  instanceTypeId: number | null;
  storageSize: number;
}

/**
 * An EC2 instance as a {@link CloudInstance}. The machine is the instance's
 * `fleet:machineId` tag, else our record's; the host name is the public DNS
 * name, else the private one (an instance without a public address), else
 * empty (pending). Addresses are empty until EC2 assigns them.
 */
export function toCloudInstance(i: Instance, facts: InstanceFacts): CloudInstance {
  return {
    cloudId: i.InstanceId ?? '',
    machineId: tagNumber(i.Tags, TAGS.machineId) ?? facts.machineId,
    status: instanceState(i.State),
    region: facts.region,
    instanceTypeId: facts.instanceTypeId,
    hostName: i.PublicDnsName || i.PrivateDnsName || '',
    ipAddress: i.PublicIpAddress ?? '',
    privateIpAddress: i.PrivateIpAddress ?? '',
    storageSize: facts.storageSize,
  };
}

/** An EC2 image of `region` as a {@link CloudImage}; the source instance is EC2's `SourceInstanceId`, else our tag. */
export function toCloudImage(image: Image, region: string): CloudImage {
  return {
    imageId: image.ImageId ?? '',
    name: image.Name ?? '',
    description: image.Description ?? '',
    region,
    sourceCloudId: image.SourceInstanceId ?? tagValue(image.Tags, TAGS.sourceCloudId) ?? null,
    status: imageState(image.State),
  };
}

/** Newest first by EC2's `CreationDate` (ISO 8601, so the strings compare as times), then by id. */
export function newestFirst(a: Image, b: Image): number {
  return (b.CreationDate ?? '').localeCompare(a.CreationDate ?? '') || (b.ImageId ?? '').localeCompare(a.ImageId ?? '');
}

/** Codes the SDK retries as throttling (adaptive mode also slows down on them); one that survives the retries is reported as such. */
export const THROTTLING_CODES: ReadonlySet<string> = new Set([
  'RequestLimitExceeded',
  'Throttling',
  'ThrottlingException',
  'RequestThrottled',
  'RequestThrottledException',
  'EC2ThrottledException',
  'TooManyRequestsException',
]);

/** EC2 has no room for the instance now (EC2 answers these as server errors, which the SDK retries). */
export const CAPACITY_CODES: ReadonlySet<string> = new Set([
  'InsufficientInstanceCapacity',
  'InsufficientCapacity',
  'InsufficientHostCapacity',
  'InsufficientReservedInstanceCapacity',
  'InsufficientAddressCapacity',
]);

/** The account reached one of its EC2 quotas. */
export const QUOTA_CODES: ReadonlySet<string> = new Set(['InstanceLimitExceeded', 'VcpuLimitExceeded', 'MaxSpotInstanceCountExceeded']);

/** The server's AWS identity is missing or not allowed the call. */
export const ACCESS_CODES: ReadonlySet<string> = new Set(['UnauthorizedOperation', 'AuthFailure', 'CredentialsProviderError', 'OptInRequired']);

/** Unknown or malformed ids: the resource does not exist for this account and region. */
export const NOT_FOUND_CODES: ReadonlySet<string> = new Set([
  'InvalidInstanceID.NotFound',
  'InvalidInstanceID.Malformed',
  'InvalidAMIID.NotFound',
  'InvalidAMIID.Malformed',
  'InvalidAMIID.Unavailable',
]);

/** What the provider was doing when EC2 failed: the API action, its region, and the EC2 instance type when it launched or resized. */
export interface Ec2CallContext {
  action: string;
  region: string;
  instanceType?: string;
}

/** The parts of an SDK error the mapping reads (an `EC2ServiceException`, or a network or credentials error). */
interface SdkErrorShape {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { attempts?: number; httpStatusCode?: number };
}

/** EC2's error code of an SDK error: the service's code (the exception's name), else a Node.js error code, else the name. */
export function ec2ErrorCode(err: unknown): string {
  const e = (err ?? {}) as SdkErrorShape;
  if (e.$metadata && e.name && e.name !== 'Error') return e.name;
  return e.code || e.name || 'Error';
}

/**
 * An SDK error as a {@link CloudError} with EC2's code. Its message is what an
 * operator reads on the failed task: throttling and capacity errors (which
 * survived the SDK's adaptive retries) and missing permissions or quotas say
 * what to do; every other error keeps EC2's message after the action's name.
 * A {@link CloudError} passes through unchanged.
 */
export function toCloudError(err: unknown, call: Ec2CallContext): CloudError {
  if (err instanceof CloudError) return err;
  const e = (err ?? {}) as SdkErrorShape;
  const code = ec2ErrorCode(err);
  const said = (e.message || code).replace(/\.$/, '');
  const attempts = e.$metadata?.attempts ?? 1;
  const where = `${call.action} in ${call.region}`;
  if (THROTTLING_CODES.has(code)) {
    return new CloudError(
      code,
      `EC2 is throttling this account's API requests: ${where} still failed after ${attempts} attempt${attempts === 1 ? '' : 's'} (${code}). ` +
        "Retry the task in a few minutes; if it keeps happening, run fewer tasks at once or ask AWS to raise the account's EC2 API request rate.",
    );
  }
  if (CAPACITY_CODES.has(code)) {
    return new CloudError(
      code,
      `EC2 has no capacity for ${call.instanceType ?? 'this instance type'} in ${call.region} at the moment (${code}, ${where}). ` +
        "Retry the task later, or change the machine's instance type or region.",
    );
  }
  if (QUOTA_CODES.has(code)) {
    return new CloudError(code, `The AWS account reached an EC2 quota (${code}, ${where}): ${said}. Terminate unused instances, or request a higher quota in Service Quotas.`);
  }
  if (ACCESS_CODES.has(code)) {
    return new CloudError(
      code,
      `EC2 refused ${where} (${code}): ${said}. Check the server's AWS credentials and that its IAM policy allows ec2:${call.action} (packages/server/src/engine/cloud/README.md).`,
    );
  }
  return new CloudError(code, `EC2 ${where} failed (${code}): ${said}`);
}
