/**
 * The backups module (spec 2 §2.3 Restore Backup, §7; DESIGN §13): backup files
 * of accounts and machines, and the sample data files (tagged 'Library').
 * Provides `app.services.backups` (`BackupService`).
 */
import { defineModule } from '../module.js';
import { createBackupService } from './backups.service.js';
import { backupRoutes } from './backups.routes.js';

export const backupsModule = defineModule({
  name: 'backups',
  service: ({ db }) => createBackupService({ db }),
  routes: backupRoutes,
  tags: [{ name: 'Backups', description: 'Backup files of accounts and machines, kept in the object store (spec 2 §2.3 Restore Backup, §7; DESIGN §13).' }],
});
