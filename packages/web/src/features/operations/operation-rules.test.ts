/**
 * Rules of the operation dialogs and viewer (spec 2 §2.3, §2.6, §5, §9): the
 * Force Populate alt string keeps letters and digits only, Restore Backup lists
 * the latest backup per software and needs at least one, statuses and modes as
 * the viewers show them, durations, and None for an empty log.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ALT_STRING_PATTERN, ZForcePopulateRequest, ZRestoreBackupRequest, type TBackupFile, type TBackupSoftware } from '@fleet/contracts';
import { operation } from '../machines/operation-fixture';
import { cleanAltString, formatSeconds, hasNoBackup, latestBackups, logText, operationModeName, operationStatusText, restoreRequest } from './operation-rules';

describe('cleanAltString (spec 2 §5 Force Populate)', () => {
  it('keeps only letters and digits, in order', () => {
    expect(cleanAltString('ab-c 1_2!Z')).toBe('abc12Z');
    expect(cleanAltString('é ü ß')).toBe('');
  });

  it('always answers what the server accepts, and keeps a clean string as it is', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        const clean = cleanAltString(raw);
        expect(ALT_STRING_PATTERN.test(clean)).toBe(true);
        expect(ZForcePopulateRequest.safeParse({ populateLauncher: true, populateSiteMaster: false, altString: clean }).success).toBe(true);
        expect(cleanAltString(clean)).toBe(clean);
      }),
    );
  });
});

let nextId = 1;
function backup(softwareName: TBackupSoftware, createdAt: string): TBackupFile {
  const id = nextId++;
  return { id, accountId: 3, machineId: 7, softwareName, name: `${softwareName}-${id}.bak`, createdAt, category: 'manual', size: 10, storageClass: 'Standard' };
}

describe('Restore Backup choices (spec 2 §2.3, §5)', () => {
  const old = backup('launcher', '2024-05-01T00:00:00.000Z');
  const newer = backup('launcher', '2024-05-02T00:00:00.000Z');
  const site = backup('siteMaster', '2024-04-01T00:00:00.000Z');

  it('lists the latest backup of each software; a software without one is absent', () => {
    expect(latestBackups([old, site, newer])).toEqual({ launcher: newer, siteMaster: site });
    expect(latestBackups([newer, old]).launcher).toBe(newer);
    expect(hasNoBackup(latestBackups([]))).toBe(true);
    expect(hasNoBackup(latestBackups([site]))).toBe(false);
  });

  it('needs at least one chosen software that has a backup', () => {
    const latest = latestBackups([old, site, newer]);
    expect(restoreRequest(latest, new Set())).toBeUndefined();
    // Audit changelog chosen but without a backup: nothing to restore.
    expect(restoreRequest(latest, new Set<TBackupSoftware>(['auditChangeLog']))).toBeUndefined();
    expect(restoreRequest(latest, new Set<TBackupSoftware>(['siteMaster', 'auditChangeLog']))).toEqual({
      launcherBackupFile: null,
      siteMasterBackupFile: site.name,
      auditChangeLogBackupFile: null,
    });
  });

  it('every request it makes is one the server accepts', () => {
    const latest = latestBackups([newer, site, backup('auditChangeLog', '2024-05-03T00:00:00.000Z')]);
    fc.assert(
      fc.property(fc.subarray<TBackupSoftware>(['launcher', 'siteMaster', 'auditChangeLog']), (chosen) => {
        const request = restoreRequest(latest, new Set(chosen));
        expect(request === undefined).toBe(chosen.length === 0);
        if (request) expect(ZRestoreBackupRequest.safeParse(request).success).toBe(true);
      }),
    );
  });
});

describe('viewer texts (spec 2 §2.6, §9)', () => {
  it('names a status, or what an operation without one waits for', () => {
    expect(operationStatusText(operation({ id: 1, status: 'RUNNING' }))).toBe('RUNNING');
    expect(operationStatusText(operation({ id: 1, status: 'RUNNING', decision: 'CANCEL' }))).toBe('CANCELLING');
    expect(operationStatusText(operation({ id: 1, status: 'FAILURE', finishTime: '2024-05-01T10:00:00.000Z' }))).toBe('FAILURE');
    expect(operationStatusText(operation({ id: 1, pending: true }))).toBe('PENDING');
    expect(operationStatusText(operation({ id: 1, pending: true, decision: 'CANCEL' }))).toBe('CANCELLING');
    expect(operationStatusText(operation({ id: 1 }))).toBe('QUEUED');
  });

  it('operation modes 0 NORMAL, 1 STABLE, 2 ANOMALY', () => {
    expect([0, 1, 2, 7].map(operationModeName)).toEqual(['NORMAL', 'STABLE', 'ANOMALY', '7']);
  });

  it('durations and empty logs', () => {
    expect(formatSeconds(null)).toBe('');
    expect(formatSeconds(42)).toBe('42s');
    expect(formatSeconds(125)).toBe('2m 5s');
    expect(formatSeconds(3600 + 61)).toBe('1h 1m 1s');
    expect(logText('')).toBe('None');
    expect(logText('  \n')).toBe('None');
    expect(logText('line 1')).toBe('line 1');
  });
});
