/**
 * The catalogue rows every cloud provider answers from (DESIGN §8): the machine
 * instance types of `instance_types`, whose ids are the console's and whose
 * `cloudCode` is the cloud's name of the type.
 */
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { instanceTypes } from '../../db/schema.js';
import type { CloudInstanceType } from './provider.js';

/** The catalogue's machine instance types (not cache types), by id: ours, with the cloud's code in `cloudCode`. */
export function selectMachineTypes(db: DbOrTx): Promise<CloudInstanceType[]> {
  return db
    .select({
      id: instanceTypes.id,
      name: instanceTypes.name,
      cloudCode: instanceTypes.cloudCode,
      storageSize: instanceTypes.storageSize,
      cloudCreditCost: instanceTypes.cloudCreditCost,
    })
    .from(instanceTypes)
    .where(eq(instanceTypes.isRedis, false))
    .orderBy(asc(instanceTypes.id));
}
