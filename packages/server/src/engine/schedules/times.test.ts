/** The scheduler's calendar (DESIGN §13): next times, categories, catch-up, reading stored settings. Pure, UTC. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { catchUpCategory, categoryAt, isoWeekday, nextOccurrence, nextRetention, readAutoStopTime, readBackupConfig, readIdleSchedules } from './times.js';

const HALF_HOURS = Array.from({ length: 48 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);

describe('nextOccurrence', () => {
  it('is the first time strictly after, today or tomorrow (UTC)', () => {
    expect(nextOccurrence(['05:00', '17:30'], new Date('2030-01-08T04:00:00Z'))?.toISOString()).toBe('2030-01-08T05:00:00.000Z');
    expect(nextOccurrence(['05:00', '17:30'], new Date('2030-01-08T05:00:00Z'))?.toISOString()).toBe('2030-01-08T17:30:00.000Z');
    expect(nextOccurrence(['05:00', '17:30'], new Date('2030-12-31T18:00:00Z'))?.toISOString()).toBe('2031-01-01T05:00:00.000Z');
    expect(nextOccurrence([], new Date())).toBeNull();
    expect(nextRetention(new Date('2030-01-08T00:00:00Z')).toISOString()).toBe('2030-01-09T00:00:00.000Z');
  });

  it('is always one of the times, after `after` and at most a day later', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...HALF_HOURS), { minLength: 1, maxLength: 6 }), fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }), (times, after) => {
        const sorted = [...times].sort();
        const next = nextOccurrence(sorted, after)!;
        expect(next.getTime()).toBeGreaterThan(after.getTime());
        expect(next.getTime() - after.getTime()).toBeLessThanOrEqual(86_400_000);
        expect(sorted).toContain(next.toISOString().slice(11, 16));
      }),
    );
  });
});

describe('categories', () => {
  const plan = { times: ['02:00', '14:00'], weeklyBackupDay: 1, monthlyBackupDay: 3 };
  it('first time of the monthly day is monthly, of the weekly day weekly, others daily', () => {
    expect(isoWeekday(new Date('2030-01-14T00:00:00Z'))).toBe(1);
    expect(categoryAt(plan, new Date('2030-01-14T02:00:00Z'))).toBe('weekly');
    expect(categoryAt(plan, new Date('2030-01-14T14:00:00Z'))).toBe('daily');
    expect(categoryAt(plan, new Date('2030-02-03T02:00:00Z'))).toBe('monthly');
    expect(categoryAt(plan, new Date('2030-01-15T02:00:00Z'))).toBe('daily');
  });

  it('a catch-up is the highest category of the times it stands for', () => {
    expect(catchUpCategory(plan, new Date('2030-01-15T02:00:00Z'), new Date('2030-01-15T20:00:00Z'))).toBe('daily');
    expect(catchUpCategory(plan, new Date('2030-01-13T14:00:00Z'), new Date('2030-01-15T20:00:00Z'))).toBe('weekly');
    expect(catchUpCategory(plan, new Date('2030-01-13T14:00:00Z'), new Date('2030-02-03T02:00:00Z'))).toBe('monthly');
    expect(catchUpCategory(plan, new Date('2030-01-01T02:00:00Z'), new Date('2030-06-01T00:00:00Z'))).toBe('monthly');
  });
});

describe('reading stored settings', () => {
  it('backupConfig: defaults, dropped times, or an error', () => {
    expect(readBackupConfig({ times: ['17:30', 'x', '05:00', '05:00', '05:15'] })).toMatchObject({ plan: { times: ['05:00', '17:30'], weeklyBackupDay: 1, monthlyBackupDay: 1 } });
    expect(readBackupConfig(null)).toMatchObject({ plan: { times: [] } });
    expect(readBackupConfig({ monthlyBackupDay: 31 })).toEqual({ error: 'Invalid backup settings: monthlyBackupDay: Monthly backup day must be between 1 and 28' });
  });

  it('idle entries: one per stopAt, the invalid ones counted', () => {
    expect(
      readIdleSchedules([
        { stopAt: '2030-01-01T20:00:00+01:00', resumeAfter: 2 },
        { stopAt: '2030-01-01T19:00:00.000Z', resumeAfter: 5 },
        { stopAt: 'soon', resumeAfter: 1 },
        { stopAt: '2030-01-02T19:00:00.000Z', resumeAfter: -1 },
      ]),
    ).toEqual({ entries: [{ slot: '2030-01-01T19:00:00.000Z', stopAt: new Date('2030-01-01T19:00:00Z'), resumeAfterHours: 5 }], invalid: 2 });
    expect(readIdleSchedules('nonsense')).toEqual({ entries: [], invalid: 1 });
    expect(readAutoStopTime({ autoStopTime: '2030-01-01T12:00:00Z' })?.toISOString()).toBe('2030-01-01T12:00:00.000Z');
    expect(readAutoStopTime({ autoStopTime: 'never' })).toBeNull();
    expect(readAutoStopTime(null)).toBeNull();
  });
});
