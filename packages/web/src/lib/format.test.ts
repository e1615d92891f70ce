/** UTC pickers (DESIGN §13: the scheduler's times are UTC): the picker shows the UTC wall clock, whatever the browser's zone. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatUtcDateTime, fromUtcPickerValue, utcPickerValue } from './format';

describe('UTC picker values', () => {
  it('show the UTC wall clock of the instant', () => {
    expect(utcPickerValue('2027-03-01T18:30:00.000Z')?.format('YYYY-MM-DD HH:mm')).toBe('2027-03-01 18:30');
    expect(formatUtcDateTime('2027-03-01T23:30:00-02:00')).toBe('2027-03-02 01:30');
    expect(formatUtcDateTime(null)).toBe('');
    expect(utcPickerValue('not a time')).toBeNull();
  });

  it('read back as the same instant (round trip at minute precision over many years)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1) / 60_000, max: Date.UTC(2100, 0, 1) / 60_000 }), (minute) => {
        const iso = new Date(minute * 60_000).toISOString();
        expect(fromUtcPickerValue(utcPickerValue(iso))).toBe(iso);
      }),
    );
    expect(fromUtcPickerValue(null)).toBeNull();
  });
});
