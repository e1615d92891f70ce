/**
 * The cloud provider interface (DESIGN §8): what the task engine asks of a cloud.
 * The `simulated` provider implements it on PostgreSQL, the `aws` provider on
 * Amazon EC2 (`aws.ts`, issue 27 point 4); `index.ts` chooses by `CLOUD_PROVIDER`.
 *
 * State rules follow EC2: `start` of a running or pending instance and `stop` of
 * a stopped or stopping one are no-ops that answer the instance; `terminate` of a
 * terminated or shutting-down one too. A call the instance's state forbids (stop
 * while pending, change type while running, anything but describe and terminate
 * once terminated) throws a {@link CloudError} with code `IncorrectInstanceState`.
 *
 * Images (EC2 AMIs) are created from a running or stopped instance, pending until
 * available; deleting one deregisters it (a second delete is a no-op).
 */
import type { TInstanceState } from '@fleet/contracts';

/** A cloud instance as the provider reports it. Sizes in GB. */
export interface CloudInstance {
  cloudId: string;
  machineId: number | null;
  status: TInstanceState;
  region: string;
  instanceTypeId: number | null;
  hostName: string;
  ipAddress: string;
  privateIpAddress: string;
  storageSize: number;
}

export interface LaunchRequest {
  machineId: number;
  /** Region cloud code, e.g. `us-east-1`. */
  region: string;
  instanceTypeId: number;
  /**
   * Idempotency token: a second launch with the same token answers the instance
   * of the first instead of launching another (EC2's ClientToken).
   */
  clientToken: string;
}

export const IMAGE_STATES = ['pending', 'available', 'deregistered'] as const;
export type CloudImageState = (typeof IMAGE_STATES)[number];

/** A machine image (AMI). */
export interface CloudImage {
  /** `ami-` and 17 hex digits. */
  imageId: string;
  name: string;
  description: string;
  region: string;
  sourceCloudId: string | null;
  status: CloudImageState;
}

export interface CreateImageRequest {
  cloudId: string;
  name: string;
  description: string;
  /** Idempotency token: a second call with it answers the first image. */
  clientToken: string;
}

export interface CloudRegion {
  name: string;
  cloudCode: string;
}

export interface CloudInstanceType {
  id: number;
  name: string;
  cloudCode: string;
  /** GB. */
  storageSize: number;
  /** Cloud credits per hour. */
  cloudCreditCost: number;
}

/** Calls of the provider, as fault injection names them. */
export const CLOUD_CALLS = [
  'launch',
  'start',
  'stop',
  'terminate',
  'describe',
  'changeInstanceType',
  'createImage',
  'describeImage',
  'listImages',
  'deleteImage',
] as const;
export type CloudCall = (typeof CLOUD_CALLS)[number];

/** A refused or failed cloud call. `code` is EC2-like (`IncorrectInstanceState`, `InvalidInstanceID.NotFound`, `SimulatedFault`). */
export class CloudError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CloudError';
  }
}

export interface CloudProvider {
  readonly name: string;
  /** How often a caller waiting for a state should describe the instance, milliseconds. */
  readonly pollIntervalMs: number;
  /** Launches an instance (pending, then running), or answers the one launched with the same client token. */
  launch(req: LaunchRequest): Promise<CloudInstance>;
  /** Starts a stopped instance (pending, then running). */
  start(cloudId: string): Promise<CloudInstance>;
  /** Stops a running instance (stopping, then stopped). */
  stop(cloudId: string): Promise<CloudInstance>;
  /** Terminates an instance (shutting-down, then terminated). */
  terminate(cloudId: string): Promise<CloudInstance>;
  /** The instance's current state, or undefined when the cloud does not know the id. */
  describe(cloudId: string): Promise<CloudInstance | undefined>;
  /** Changes the type of a stopped instance; its storage size becomes the type's. */
  changeInstanceType(cloudId: string, instanceTypeId: number): Promise<CloudInstance>;
  /** Creates an image of a running or stopped instance (pending, then available). */
  createImage(req: CreateImageRequest): Promise<CloudImage>;
  describeImage(imageId: string): Promise<CloudImage | undefined>;
  /** Images not deregistered, of one region or all, newest first. */
  listImages(region?: string): Promise<CloudImage[]>;
  /** Deregisters the image; unknown ids are `InvalidAMIID.NotFound`. */
  deleteImage(imageId: string): Promise<void>;
  regions(): Promise<CloudRegion[]>;
  /** Machine instance types (not cache types). */
  instanceTypes(): Promise<CloudInstanceType[]>;
}
