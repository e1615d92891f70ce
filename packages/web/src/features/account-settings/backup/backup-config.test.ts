/** Backup settings of the console: Start from scratch defaults and adding times (spec 1 §4, §5, §9). */
import { describe, expect, it } from 'vitest';
import { addBackupTime, defaultBackupConfig, WEEKDAY_OPTIONS } from './backup-config';

describe('defaultBackupConfig', () => {
  it('is one daily backup at 05:00 with the retention defaults of spec 1 §9', () => {
    expect(defaultBackupConfig()).toEqual({
      times: ['05:00'],
      weeklyBackupDay: 1,
      monthlyBackupDay: 1,
      manualDaysToRetain: 7,
      dailyDaysToRetain: 7,
      weeklyDaysToRetain: 28,
      monthlyDaysToRetain: 180,
      manualEolAction: 'Delete',
      dailyEolAction: 'Delete',
      weeklyEolAction: 'MoveToGlacier',
      monthlyEolAction: 'MoveToGlacier',
    });
  });
});

describe('addBackupTime', () => {
  it('adds a time in 30-minute steps and keeps the list sorted', () => {
    expect(addBackupTime(['14:30', '02:00'], '07:30')).toEqual(['02:00', '07:30', '14:30']);
    expect(addBackupTime([], '00:00')).toEqual(['00:00']);
    expect(addBackupTime([], '23:30')).toEqual(['23:30']);
  });

  it('ignores duplicate and invalid times', () => {
    expect(addBackupTime(['02:00', '07:30'], '07:30')).toEqual(['02:00', '07:30']);
    for (const invalid of ['07:15', '24:00', '7:5', 'noon', '']) {
      expect(addBackupTime(['02:00'], invalid)).toEqual(['02:00']);
    }
  });
});

it('numbers the weekly backup days 1 (Monday) to 7 (Sunday)', () => {
  expect(WEEKDAY_OPTIONS[0]).toEqual({ value: 1, label: 'Monday' });
  expect(WEEKDAY_OPTIONS[6]).toEqual({ value: 7, label: 'Sunday' });
  expect(WEEKDAY_OPTIONS).toHaveLength(7);
});
