/**
 * The `aws` cloud provider's settings from the environment (`engine/cloud/aws.ts`, its README).
 */
import { ConfigError, nameList, wholeNumber } from '../../config-env.js';

/**
 * Settings of the `aws` cloud provider (`engine/cloud/aws.ts`, its README):
 * `AWS_REGIONS`, a comma list of region codes the fleet runs in (at least one);
 * `AWS_LAUNCH_IMAGE_ID`, the image (`ami-…`) each region launches from, as
 * `region=ami-…` pairs separated by commas, one for every region (a bare
 * `ami-…` when there is a single region); `AWS_MAX_ATTEMPTS`, attempts of each
 * EC2 call under the SDK's adaptive retry, 1 to 10 (default
 * {@link DEFAULT_AWS_MAX_ATTEMPTS}). Credentials are the SDK's default chain
 * (`AWS_PROFILE`, `AWS_ACCESS_KEY_ID`…, an instance or task role), never ours.
 */
export interface AwsCloudConfig {
  regions: string[];
  launchImageIds: Record<string, string>;
  maxAttempts: number;
}

/** Default `AWS_MAX_ATTEMPTS`: the first attempt and four retries. */
export const DEFAULT_AWS_MAX_ATTEMPTS = 5;

const AWS_REGION_CODE = /^[a-z]{2}(-[a-z]+)+-\d+$/;
const AMI_ID = /^ami-[0-9a-f]{8}([0-9a-f]{9})?$/;

/** The `aws` provider's settings (see {@link AwsCloudConfig}); throws a `ConfigError` naming the variable and what is wrong. */
export function awsCloudConfig(env: NodeJS.ProcessEnv): AwsCloudConfig {
  const regions = nameList(env.AWS_REGIONS);
  if (regions.length === 0) throw new ConfigError('AWS_REGIONS must list the AWS regions of the fleet when CLOUD_PROVIDER=aws (e.g. us-east-1,eu-west-1)');
  for (const r of regions) {
    if (!AWS_REGION_CODE.test(r)) throw new ConfigError(`AWS_REGIONS must list AWS region codes such as us-east-1 (got '${r}')`);
  }
  if (new Set(regions).size !== regions.length) throw new ConfigError(`AWS_REGIONS names a region twice (got '${env.AWS_REGIONS}')`);

  const entries = nameList(env.AWS_LAUNCH_IMAGE_ID);
  const format = 'region=ami-… pairs separated by commas, one for each of AWS_REGIONS (a bare ami-… with a single region)';
  if (entries.length === 0) throw new ConfigError(`AWS_LAUNCH_IMAGE_ID must name the image each region launches from when CLOUD_PROVIDER=aws: ${format}`);
  const launchImageIds: Record<string, string> = {};
  for (const entry of entries) {
    const [region, imageId] = entry.includes('=') ? entry.split('=').map((p) => p.trim()) : regions.length === 1 ? [regions[0]!, entry] : [undefined, entry];
    if (!region) throw new ConfigError(`AWS_LAUNCH_IMAGE_ID must be ${format} (got '${entry}' with ${regions.length} regions)`);
    if (!imageId || !AMI_ID.test(imageId)) throw new ConfigError(`AWS_LAUNCH_IMAGE_ID must be ${format} (got '${entry}': not an image id)`);
    if (!regions.includes(region)) throw new ConfigError(`AWS_LAUNCH_IMAGE_ID names region ${region}, which is not in AWS_REGIONS`);
    if (launchImageIds[region]) throw new ConfigError(`AWS_LAUNCH_IMAGE_ID names region ${region} twice`);
    launchImageIds[region] = imageId;
  }
  const missing = regions.filter((r) => !launchImageIds[r]);
  if (missing.length > 0) throw new ConfigError(`AWS_LAUNCH_IMAGE_ID names no image for ${missing.join(', ')}: ${format}`);

  const maxAttempts = wholeNumber('AWS_MAX_ATTEMPTS', env.AWS_MAX_ATTEMPTS, DEFAULT_AWS_MAX_ATTEMPTS, 'attempts');
  if (maxAttempts > 10) throw new ConfigError(`AWS_MAX_ATTEMPTS must be a whole number of attempts from 1 to 10 (got '${env.AWS_MAX_ATTEMPTS}')`);
  return { regions, launchImageIds, maxAttempts };
}
