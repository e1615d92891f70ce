/**
 * Chooses the cloud provider named by `CLOUD_PROVIDER` (DESIGN §4, §8, §17):
 * `simulated` (the default: instances in PostgreSQL) or `aws` (Amazon EC2,
 * `aws.ts`; its settings come from `AWS_*`, read and checked by `config.ts`).
 * See `README.md` beside this file.
 */
import type { AwsCloudConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { createAwsCloud } from './aws.js';
import type { CloudProvider } from './provider.js';
import { createSimulatedCloud } from './simulated.js';

export type { CloudProvider } from './provider.js';

/** What {@link createCloudProvider} needs: `simDelayMs` for `simulated` (ms per transition), `aws` for `aws`. */
export interface CloudProviderOptions {
  name: 'simulated' | 'aws';
  db: Db;
  simDelayMs: number;
  /** The `aws` provider's settings; required when `name` is `aws`. */
  aws?: AwsCloudConfig;
}

/** The named provider; throws when `aws` is named without its settings (a start-up error, as `loadConfig` checks them first). */
export function createCloudProvider({ name, db, simDelayMs, aws }: CloudProviderOptions): CloudProvider {
  switch (name) {
    case 'simulated':
      return createSimulatedCloud({ db, delayMs: simDelayMs });
    case 'aws':
      if (!aws) throw new Error('CLOUD_PROVIDER=aws needs its settings (AWS_REGIONS, AWS_LAUNCH_IMAGE_ID)');
      return createAwsCloud({ db, ...aws });
  }
}
