/**
 * Change windows (issue 25 point 5; `windows.ts`): open or closed at an instant
 * (start inclusive, end exclusive), and the next opening with its text, in
 * several zones, over the week's end and across daylight saving changes
 * (Europe/Berlin: 2026-03-29 02:00 → 03:00, 2026-10-25 03:00 → 02:00;
 * Australia/Lord_Howe: half-hour changes). Pure.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TChangeWindow } from '@fleet/contracts';
import { nextOpening, windowOpen } from './windows.js';

const MON = 1;
const TUE = 2;
const WED = 3;
const FRI = 5;
const SUN = 7;
const berlin = (days: number[], start: string, end: string): TChangeWindow => ({ days, start, end, timeZone: 'Europe/Berlin' });
const at = (iso: string) => new Date(iso);
const next = (windows: TChangeWindow[], now: string) => {
  const n = nextOpening(windows, at(now));
  return n && { at: n.at.toISOString(), text: n.text };
};

/** Monday to Friday, 02:00 to 05:00 in Berlin (summer: 00:00Z to 03:00Z). */
const NIGHTS = [berlin([1, 2, 3, 4, 5], '02:00', '05:00')];

describe('windowOpen', () => {
  it('is always open without windows', () => {
    expect(windowOpen([], at('2026-06-16T12:00:00Z'))).toBe(true);
    expect(nextOpening([], at('2026-06-16T12:00:00Z'))).toBeNull();
  });

  it('is open inside a window and closed outside it, on its days only', () => {
    expect(windowOpen(NIGHTS, at('2026-06-16T01:00:00Z')), 'Tue 03:00 CEST').toBe(true);
    expect(windowOpen(NIGHTS, at('2026-06-16T04:00:00Z')), 'Tue 06:00 CEST').toBe(false);
    expect(windowOpen(NIGHTS, at('2026-06-20T01:00:00Z')), 'Sat 03:00 CEST').toBe(false);
    expect(next(NIGHTS, '2026-06-16T01:00:00Z'), 'no opening while open').toBeNull();
  });

  it('opens at the start (inclusive) and closes at the end (exclusive)', () => {
    expect(windowOpen(NIGHTS, at('2026-06-15T23:59:59.999Z')), 'Tue 01:59:59.999').toBe(false);
    expect(windowOpen(NIGHTS, at('2026-06-16T00:00:00Z')), 'Tue 02:00').toBe(true);
    expect(windowOpen(NIGHTS, at('2026-06-16T02:59:59.999Z')), 'Tue 04:59:59.999').toBe(true);
    expect(windowOpen(NIGHTS, at('2026-06-16T03:00:00Z')), 'Tue 05:00').toBe(false);
  });

  it('takes 24:00 as the end of the day', () => {
    const evening = [berlin([SUN], '22:00', '24:00')];
    expect(windowOpen(evening, at('2026-06-21T21:59:59Z')), 'Sun 23:59:59').toBe(true);
    expect(windowOpen(evening, at('2026-06-21T22:00:00Z')), 'Mon 00:00').toBe(false);
  });

  it('is open when any window is, each in its own zone', () => {
    const windows: TChangeWindow[] = [
      { days: [MON], start: '09:00', end: '10:00', timeZone: 'America/New_York' },
      { days: [MON], start: '09:00', end: '10:00', timeZone: 'Asia/Tokyo' },
    ];
    expect(windowOpen(windows, at('2026-06-22T00:30:00Z')), 'Mon 09:30 in Tokyo').toBe(true);
    expect(windowOpen(windows, at('2026-06-22T13:30:00Z')), 'Mon 09:30 in New York').toBe(true);
    expect(windowOpen(windows, at('2026-06-22T05:00:00Z')), 'Mon 14:00 in Tokyo, 01:00 in New York').toBe(false);
    expect(windowOpen([{ days: [TUE], start: '00:00', end: '01:00', timeZone: 'Asia/Kolkata' }], at('2026-06-15T18:45:00Z')), 'Tue 00:15 IST').toBe(true);
  });
});

describe('nextOpening', () => {
  it('is later today before the start, else the next day of the window', () => {
    expect(next(NIGHTS, '2026-06-15T22:30:00Z'), 'Tue 00:30').toEqual({ at: '2026-06-16T00:00:00.000Z', text: 'Tue 02:00 Europe/Berlin' });
    expect(next(NIGHTS, '2026-06-15T23:59:59Z'), 'Tue 01:59:59').toEqual({ at: '2026-06-16T00:00:00.000Z', text: 'Tue 02:00 Europe/Berlin' });
    expect(next(NIGHTS, '2026-06-16T03:00:00Z'), 'Tue 05:00, the end').toEqual({ at: '2026-06-17T00:00:00.000Z', text: 'Wed 02:00 Europe/Berlin' });
  });

  it('wraps around the week', () => {
    expect(next(NIGHTS, '2026-06-19T03:00:00Z'), 'Fri 05:00').toEqual({ at: '2026-06-22T00:00:00.000Z', text: 'Mon 02:00 Europe/Berlin' });
    expect(next([berlin([MON], '02:00', '05:00')], '2026-06-21T18:00:00Z'), 'Sun 20:00').toEqual({ at: '2026-06-22T00:00:00.000Z', text: 'Mon 02:00 Europe/Berlin' });
    expect(next([berlin([TUE], '02:00', '05:00')], '2026-06-16T03:00:00Z'), 'Tue after the end: a week later').toEqual({
      at: '2026-06-23T00:00:00.000Z',
      text: 'Tue 02:00 Europe/Berlin',
    });
  });

  it('is the earliest opening of several windows and zones, named in its own zone', () => {
    const windows: TChangeWindow[] = [
      { days: [MON], start: '09:00', end: '10:00', timeZone: 'America/New_York' },
      { days: [MON], start: '09:00', end: '10:00', timeZone: 'Asia/Tokyo' },
      berlin([WED], '02:00', '03:00'),
    ];
    expect(next(windows, '2026-06-21T12:00:00Z'), 'Sun noon UTC').toEqual({ at: '2026-06-22T00:00:00.000Z', text: 'Mon 09:00 Asia/Tokyo' });
    expect(next(windows, '2026-06-22T02:00:00Z'), 'after Tokyo').toEqual({ at: '2026-06-22T13:00:00.000Z', text: 'Mon 09:00 America/New_York' });
    expect(next(windows, '2026-06-22T14:00:00Z'), 'after New York').toEqual({ at: '2026-06-24T00:00:00.000Z', text: 'Wed 02:00 Europe/Berlin' });
    expect(next([{ days: [FRI], start: '17:30', end: '18:00', timeZone: 'UTC' }], '2026-06-19T17:00:00Z')).toEqual({ at: '2026-06-19T17:30:00.000Z', text: 'Fri 17:30 UTC' });
  });

  it('keeps the wall-clock time across a daylight saving change', () => {
    // Friday before the spring change (CET, +01:00) to Monday after it (CEST, +02:00).
    expect(next(NIGHTS, '2026-03-27T10:00:00Z')).toEqual({ at: '2026-03-30T00:00:00.000Z', text: 'Mon 02:00 Europe/Berlin' });
    expect(next(NIGHTS, '2026-03-26T10:00:00Z')).toEqual({ at: '2026-03-27T01:00:00.000Z', text: 'Fri 02:00 Europe/Berlin' });
    // Friday before the autumn change (CEST) to Monday after it (CET).
    expect(next(NIGHTS, '2026-10-23T10:00:00Z')).toEqual({ at: '2026-10-26T01:00:00.000Z', text: 'Mon 02:00 Europe/Berlin' });
  });

  it('opens a window whose start the spring change skips at 03:00, and one inside the skipped hour the week after', () => {
    const sunday = [berlin([SUN], '02:00', '05:00')];
    expect(next(sunday, '2026-03-28T12:00:00Z')).toEqual({ at: '2026-03-29T01:00:00.000Z', text: 'Sun 03:00 Europe/Berlin' });
    expect(windowOpen(sunday, at('2026-03-29T00:59:59Z')), '01:59:59 CET').toBe(false);
    expect(windowOpen(sunday, at('2026-03-29T01:00:00Z')), '03:00 CEST').toBe(true);
    const skipped = [berlin([SUN], '02:00', '02:30')];
    expect(next(skipped, '2026-03-28T12:00:00Z')).toEqual({ at: '2026-04-05T00:00:00.000Z', text: 'Sun 02:00 Europe/Berlin' });
  });

  it('opens a window at the first occurrence of a start the autumn change repeats, and again at the second', () => {
    const sunday = [berlin([SUN], '02:00', '05:00')];
    expect(next(sunday, '2026-10-24T12:00:00Z')).toEqual({ at: '2026-10-25T00:00:00.000Z', text: 'Sun 02:00 Europe/Berlin' });
    const short = [berlin([SUN], '02:00', '02:30')];
    expect(windowOpen(short, at('2026-10-25T00:15:00Z')), '02:15 CEST').toBe(true);
    expect(windowOpen(short, at('2026-10-25T00:45:00Z')), '02:45 CEST').toBe(false);
    expect(next(short, '2026-10-25T00:45:00Z')).toEqual({ at: '2026-10-25T01:00:00.000Z', text: 'Sun 02:00 Europe/Berlin' });
    expect(windowOpen(short, at('2026-10-25T01:15:00Z')), '02:15 CET').toBe(true);
    // The clock going back from 03:00 to 02:00 re-enters a window that had ended at 02:30.
    const across = [berlin([SUN], '01:00', '02:30')];
    expect(next(across, '2026-10-25T00:45:00Z')).toEqual({ at: '2026-10-25T01:00:00.000Z', text: 'Sun 02:00 Europe/Berlin' });
  });

  it('is the first instant after now at which a window is open (a minute-by-minute search agrees)', () => {
    const zones = ['Europe/Berlin', 'Australia/Lord_Howe', 'America/New_York', 'Asia/Kolkata', 'UTC'];
    const times = Array.from({ length: 48 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);
    const window = fc
      .record({
        days: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
        start: fc.constantFrom(...times),
        minutes: fc.integer({ min: 30, max: 300 }),
        timeZone: fc.constantFrom(...zones),
      })
      .map(({ days, start, minutes, timeZone }): TChangeWindow => {
        const end = Math.min(24 * 60, Number(start.slice(0, 2)) * 60 + Number(start.slice(3)) + minutes);
        return { days, start, end: `${String(Math.floor(end / 60)).padStart(2, '0')}:${String(end % 60).padStart(2, '0')}`, timeZone };
      });
    // Around the clock changes of 2026 in Berlin and New York (March) and Lord Howe (April, October).
    const now = fc.constantFrom('2026-03-07', '2026-03-27', '2026-04-03', '2026-10-02', '2026-10-24').chain((day) =>
      fc.integer({ min: 0, max: 3 * 86_400 }).map((s) => new Date(Date.parse(`${day}T00:00:00Z`) + s * 1_000)),
    );
    fc.assert(
      fc.property(fc.array(window, { minLength: 1, maxLength: 3 }), now, (windows, from) => {
        const found = nextOpening(windows, from);
        if (windowOpen(windows, from)) {
          expect(found).toBeNull();
          return;
        }
        let minute = Math.floor(from.getTime() / 60_000) + 1;
        while (!windowOpen(windows, new Date(minute * 60_000))) minute += 1;
        expect(found?.at.toISOString()).toBe(new Date(minute * 60_000).toISOString());
      }),
      { numRuns: 60 },
    );
  });
});
