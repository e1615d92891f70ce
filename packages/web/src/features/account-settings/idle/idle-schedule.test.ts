/** Idle schedule entries of the console: Start from scratch, New Idle Time, Resume at, Revert (spec 1 §2, §4, §5). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultIdleSchedules, nextIdleEntry, resumeAt, sameIdleSchedules } from './idle-schedule';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date(2026, 5, 10, 15, 42, 7));
});
afterEach(() => vi.useRealTimers());

describe('defaultIdleSchedules', () => {
  it('is one entry a day ahead (UTC) at 6:00 UTC, resuming after 1 hour', () => {
    expect(defaultIdleSchedules()).toEqual([{ stopAt: '2026-06-11T06:00:00.000Z', resumeAfter: 1 }]);
  });
});

describe('nextIdleEntry', () => {
  it('is a day after the latest stop time, or a day ahead at 6:00 when there is none', () => {
    expect(nextIdleEntry([])).toEqual({ stopAt: '2026-06-11T06:00:00.000Z', resumeAfter: 1 });
    expect(nextIdleEntry([{ stopAt: undefined }, undefined])).toEqual({ stopAt: '2026-06-11T06:00:00.000Z', resumeAfter: 1 });
    const entries = [
      { stopAt: '2027-03-08T18:00:00.000Z', resumeAfter: 12 },
      { stopAt: '2027-03-01T18:00:00.000Z', resumeAfter: 2 },
    ];
    expect(nextIdleEntry(entries)).toEqual({ stopAt: new Date(Date.parse('2027-03-08T18:00:00.000Z') + 86_400_000).toISOString(), resumeAfter: 1 });
  });
});

describe('resumeAt', () => {
  it('is stop at plus resume after hours, fractions included', () => {
    expect(resumeAt({ stopAt: '2027-03-01T18:00:00.000Z', resumeAfter: 2 })).toBe('2027-03-01T20:00:00.000Z');
    expect(resumeAt({ stopAt: '2027-03-01T18:00:00.000Z', resumeAfter: 3.5 })).toBe('2027-03-01T21:30:00.000Z');
    expect(resumeAt({ stopAt: '2027-03-01T18:00:00.000Z', resumeAfter: 0 })).toBe('2027-03-01T18:00:00.000Z');
  });

  it('is null while stop at or resume after is missing', () => {
    expect(resumeAt({ stopAt: '2027-03-01T18:00:00.000Z' })).toBeNull();
    expect(resumeAt({ resumeAfter: 2 })).toBeNull();
    expect(resumeAt(undefined)).toBeNull();
  });
});

describe('sameIdleSchedules', () => {
  const loaded = [{ stopAt: '2027-03-01T18:00:00.000Z', resumeAfter: 2 }];
  it('compares instants and hours in order', () => {
    expect(sameIdleSchedules([{ stopAt: '2027-03-01T19:00:00+01:00', resumeAfter: 2 }], loaded)).toBe(true);
    expect(sameIdleSchedules([{ stopAt: '2027-03-01T18:00:00.000Z', resumeAfter: 3 }], loaded)).toBe(false);
    expect(sameIdleSchedules([], loaded)).toBe(false);
    expect(sameIdleSchedules(undefined, [])).toBe(true);
  });
});
