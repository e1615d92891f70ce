/**
 * Backup files and sample data files as the API reads them (spec 2 §2.3 Restore
 * Backup, Reinstall Sample Data; §7 `GET /accounts/{id}/backups`; DESIGN §13).
 * The files are made by operations (`storage/effects.ts`); this service only reads.
 *
 * Rules: an account of class Customer Production is invisible without group
 * CustomerProductionAccess (404), and so are the files of such machines in the
 * account list. Sample data files are shared by every account; the machine one
 * was published from is named only to users who may see it.
 */
import type { TBackupFilesResponse, TBackupSoftware, TSampleDataFile } from '@fleet/contracts';
import type { Db } from '../../db/client.js';
import { hiddenClassIds, type Principal } from '../../auth/principal.js';
import { notFound } from '../../lib/problem.js';
import { findVisibleAccount } from '../accounts/accounts.repository.js';
import { selectAccountBackups, selectSampleDataFiles } from './backups.repository.js';

export interface BackupService {
  /** The account's backup files, newest first, paged; 404 when the account is unknown or hidden. */
  listForAccount(o: {
    principal: Principal;
    accountId: number;
    query: { startIndex: number; limit: number; softwareName?: TBackupSoftware; machineId?: number };
  }): Promise<TBackupFilesResponse>;
  /** Every sample data file, by name. */
  sampleDataFiles(o: { principal: Principal }): Promise<TSampleDataFile[]>;
}

export function createBackupService({ db }: { db: Db }): BackupService {
  return {
    async listForAccount({ principal, accountId, query }) {
      const hidden = hiddenClassIds(principal);
      if (!(await findVisibleAccount(db, accountId, hidden))) throw notFound(`Account ${accountId}`);
      return selectAccountBackups(db, { ...query, accountId, hiddenClassIds: hidden });
    },
    sampleDataFiles: ({ principal }) => selectSampleDataFiles(db, hiddenClassIds(principal)),
  };
}
