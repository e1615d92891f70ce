/**
 * A month of operator activity for the demo fleet (spec 2 §2.11): pushes of each
 * settings section with field-level changes, creations and deletions, spread over
 * the 30 days before {@link BASE_DATE} and made by the staff of `names.ts`, so the
 * activity log has history on first start. Deterministic.
 */
import type { DbOrTx } from '../db/client.js';
import { auditActivities, auditActivityAccounts } from '../db/schema.js';
import { STAFF } from './names.js';
import { BASE_DATE, hoursAfter, daysBefore, type Rng } from './random.js';

interface AuditedAccount {
  id: number;
  name: string;
  classId: number;
}

type Change = { entityName: string; propertyName: string; oldValue: unknown; newValue: unknown };

/** One plausible change per action code: [params, changes]. */
function changesFor(rng: Rng, action: string): [Record<string, unknown>, Change[]] {
  switch (action) {
    case 'PushLicenseSettings': {
      const oldUsers = rng.pick([50, 100, 250]);
      return [
        { section: 'license' },
        [
          { entityName: 'LicenseConfig', propertyName: 'maxUsers', oldValue: oldUsers, newValue: oldUsers * 2 },
          ...(rng.chance(0.5)
            ? [{ entityName: 'LicenseConfig', propertyName: 'cloudCredits', oldValue: 500, newValue: rng.pick([750, 1000]) }]
            : []),
        ],
      ];
    }
    case 'PushInstanceSettings': {
      const build = rng.int(1300, 1500);
      return [
        { section: 'instance' },
        [
          { entityName: 'MachineConfig', propertyName: 'launcherVersion', oldValue: `8.1.3.${build}`, newValue: `8.1.3.${build + rng.int(1, 40)}` },
          { entityName: 'MachineConfig', propertyName: 'launcherVersionMode', oldValue: 'Latest', newValue: 'Select' },
        ],
      ];
    }
    case 'PushBackupSettings':
      return [
        { section: 'backup' },
        [{ entityName: 'BackupConfig', propertyName: 'dailyDaysToRetain', oldValue: 7, newValue: rng.pick([10, 14, 21]) }],
      ];
    case 'PushIdleSchedule':
      return [
        { section: 'idle' },
        [{ entityName: 'IdleSchedule', propertyName: 'resumeAfter', oldValue: 1, newValue: rng.pick([2, 4, 8]) }],
      ];
    default:
      return [
        { section: 'properties' },
        [
          {
            entityName: 'Account',
            propertyName: rng.pick(['description', 'contactPhone1', 'billingAmount']),
            oldValue: rng.pick(['', 'Pilot', '10']),
            newValue: rng.pick(['Production tenant', 'Renewed for 12 months', '25']),
          },
        ],
      ];
  }
}

export async function seedAuditHistory(tx: DbOrTx, rng: Rng, accounts: readonly AuditedAccount[], count = 240): Promise<void> {
  if (accounts.length === 0) return;
  const actions = [
    ['PushAccountProperties', 5],
    ['PushLicenseSettings', 4],
    ['PushInstanceSettings', 6],
    ['PushBackupSettings', 2],
    ['PushIdleSchedule', 2],
  ] as const;
  const entries = Array.from({ length: count }, () => {
    const account = rng.pick(accounts);
    const action = rng.weighted(actions);
    const [params, changes] = changesFor(rng, action);
    const time = hoursAfter(rng.int(0, 30 * 24 - 1) + rng.next(), daysBefore(30, BASE_DATE));
    return { account, row: { action, userName: rng.pick(STAFF).username, time, params: { accountId: account.id, ...params }, changes } };
  });
  entries.sort((a, b) => a.row.time.getTime() - b.row.time.getTime());
  const inserted = await tx.insert(auditActivities).values(entries.map((e) => e.row)).returning({ id: auditActivities.id });
  await tx.insert(auditActivityAccounts).values(
    inserted.map(({ id }, i) => {
      const a = entries[i]!.account;
      return { activityId: id, accountId: a.id, accountName: a.name, classId: a.classId };
    }),
  );
}
