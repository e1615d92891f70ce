/**
 * Backup settings of an account as the console edits them (spec 1 §3
 * backupConfig, §4 Start from scratch, §5 Backup rules, §9 Backup defaults).
 *
 * Times are the contract's `HH:mm` times of day in UTC, 00:00 to 23:30 in
 * 30-minute steps; the console shows them as they are, labelled UTC, so what an
 * operator sees is what the server runs.
 */
import { EOL_ACTIONS, normaliseBackupTimes, type TBackupConfig } from '@fleet/contracts';
import { SCHEMA_VALUES } from '../../../lib/schema-values';

/** Days of the weekly backup, numbered 1 (Monday) to 7 (Sunday) (spec 1 §5, §9). */
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export const WEEKDAY_OPTIONS = WEEKDAYS.map((label, i) => ({ value: i + 1, label }));

/** Monthly backup day range (spec 1 §5). */
export const MONTHLY_DAY_MIN = 1;
export const MONTHLY_DAY_MAX = 28;
/** Retention days minimum (spec 1 §5). */
export const MIN_DAYS_TO_RETAIN = 1;

/** End-of-life action labels (spec 1 §9: Delete, MoveToGlacier). */
export const EOL_ACTION_OPTIONS = EOL_ACTIONS.map((value) => ({ value, label: value === 'MoveToGlacier' ? 'Move to Glacier' : value }));

type RetentionKind = 'manual' | 'daily' | 'weekly' | 'monthly';

/** The backup kinds of the retention policy (spec 1 §2 Backup Settings card), with their form field names. */
export const RETENTION_KINDS: { kind: RetentionKind; label: string; days: `${RetentionKind}DaysToRetain`; eol: `${RetentionKind}EolAction` }[] = (
  ['manual', 'daily', 'weekly', 'monthly'] as const
).map((kind) => ({ kind, label: kind[0]!.toUpperCase() + kind.slice(1), days: `${kind}DaysToRetain`, eol: `${kind}EolAction` }));

/** The time of day of Start from scratch (spec 1 §4 "one time a day ahead at 5:00"), UTC. */
const DEFAULT_BACKUP_TIME = '05:00';

/**
 * The backup settings of Start from scratch for a new account (spec 1 §4, §9):
 * one daily backup at 05:00 UTC (the first run is the next 05:00, a day ahead
 * at most), weekly and monthly on day 1, retention 7/7/28/180 days, Delete for
 * manual and daily, MoveToGlacier for weekly and monthly.
 */
export function defaultBackupConfig(): TBackupConfig {
  return { ...structuredClone(SCHEMA_VALUES.backupConfigDefaults), times: [DEFAULT_BACKUP_TIME] };
}

/**
 * `times` with `added` put in: invalid and duplicate times are ignored, the
 * list stays sorted (spec 1 §5), the same rule as the server's.
 */
export function addBackupTime(times: readonly string[], added: string): string[] {
  return normaliseBackupTimes([...times, added]);
}
