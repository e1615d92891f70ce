/**
 * Chooses the cloud provider named by `CLOUD_PROVIDER` (DESIGN §4, §8). Only
 * `simulated` exists; an AWS provider can be added behind {@link CloudProvider}.
 */
import type { Db } from '../../db/client.js';
import type { CloudProvider } from './provider.js';
import { createSimulatedCloud } from './simulated.js';

export type { CloudProvider } from './provider.js';

export function createCloudProvider({ name, db, simDelayMs }: { name: 'simulated'; db: Db; simDelayMs: number }): CloudProvider {
  switch (name) {
    case 'simulated':
      return createSimulatedCloud({ db, delayMs: simDelayMs });
  }
}
