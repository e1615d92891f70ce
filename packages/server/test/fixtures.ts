/**
 * Rows that a test needs with exact values, inserted beside the demo fleet.
 */
import type { Db } from '../src/db/client.js';
import { accounts, launcherLogins, machines } from '../src/db/schema.js';
import { createSecretBox } from '../src/lib/secret-box.js';
import { TEST_DATA_KEY } from './db-url.js';

let counter = 0;

export async function insertAccount(
  db: Db,
  values: Partial<typeof accounts.$inferInsert> & { name: string },
): Promise<typeof accounts.$inferSelect> {
  counter += 1;
  const [row] = await db
    .insert(accounts)
    .values({
      urlFriendlyName: `${values.name.toLowerCase().replace(/[^a-z0-9]/g, '')}${counter}x`,
      creator: 'fixture',
      classId: 1,
      maintainer: 'devops@fleet.example',
      ...values,
    })
    .returning();
  return row!;
}

export async function insertMachine(
  db: Db,
  values: Partial<typeof machines.$inferInsert> & { accountId: number },
): Promise<typeof machines.$inferSelect> {
  counter += 1;
  const [row] = await db
    .insert(machines)
    .values({ name: `fixture-machine-${counter}`, classId: 1, ...values })
    .returning();
  return row!;
}

export async function insertLauncherLogin(db: Db, accountId: number, userName: string, password: string) {
  const box = createSecretBox(TEST_DATA_KEY);
  await db.insert(launcherLogins).values({ accountId, userName, firstName: 'First', lastName: 'Last', passwordEnc: box.seal(password) });
}
