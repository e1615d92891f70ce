/** The change window contract (issue 25 point 5): what it accepts and refuses, and its text. */
import { describe, expect, it } from 'vitest';
import { changeWindowDaysLabel, changeWindowLabel, isTimeZone, ZChangeWindow, ZChangeWindows, type TChangeWindow } from './change-windows.js';

const NIGHTS: TChangeWindow = { days: [1, 2, 3, 4, 5], start: '02:00', end: '05:00', timeZone: 'Europe/Berlin' };
const issues = (value: unknown) => (ZChangeWindow.safeParse(value).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('ZChangeWindow', () => {
  it('accepts a window, a whole day and IANA names with aliases', () => {
    expect(ZChangeWindow.parse(NIGHTS)).toEqual(NIGHTS);
    expect(issues({ ...NIGHTS, start: '00:00', end: '24:00' })).toEqual([]);
    for (const timeZone of ['UTC', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'Europe/Kiev', 'Asia/Kolkata']) expect(issues({ ...NIGHTS, timeZone }), timeZone).toEqual([]);
  });

  it('refuses bad days, times and zones, naming the field', () => {
    expect(issues({ ...NIGHTS, days: [0] })).toEqual(['days.0: A day is 1 (Monday) to 7 (Sunday)']);
    expect(issues({ ...NIGHTS, days: [8] })).toEqual(['days.0: A day is 1 (Monday) to 7 (Sunday)']);
    expect(issues({ ...NIGHTS, days: [1.5] })[0]).toMatch(/^days\.0: /);
    expect(issues({ ...NIGHTS, days: [] })).toEqual(['days: At least one day is required']);
    expect(issues({ ...NIGHTS, days: [3, 3] })).toEqual(['days: Each day at most once']);
    expect(issues({ ...NIGHTS, start: '24:00' })).toEqual(['start: Start must be a time HH:mm from 00:00 to 23:59']);
    expect(issues({ ...NIGHTS, start: '2:00' })).toEqual(['start: Start must be a time HH:mm from 00:00 to 23:59']);
    expect(issues({ ...NIGHTS, end: '24:30' })).toEqual(['end: End must be a time HH:mm from 00:00 to 24:00']);
    expect(issues({ ...NIGHTS, start: '05:00', end: '02:00' })).toEqual(['end: End must be after start: a window never crosses midnight (split it in two)']);
    expect(issues({ ...NIGHTS, end: '02:00' })).toEqual(['end: End must be after start: a window never crosses midnight (split it in two)']);
    for (const timeZone of ['Mars/Olympus_Mons', 'Europe/Berlin ', '+01:00', '../etc/passwd', 'Europe//Berlin']) {
      expect(issues({ ...NIGHTS, timeZone }), timeZone).toEqual(['timeZone: Time zone must be an IANA time zone name, such as Europe/Berlin']);
    }
    expect(issues({ ...NIGHTS, timeZone: 'A'.repeat(65) })).toContain('timeZone: Too big: expected string to have <=64 characters');
  });

  it('bounds the list', () => {
    expect(ZChangeWindows.safeParse(Array.from({ length: 20 }, () => NIGHTS)).success).toBe(true);
    expect(ZChangeWindows.safeParse(Array.from({ length: 21 }, () => NIGHTS)).error?.issues.map((i) => i.message)).toEqual(['At most 20 change windows']);
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('changeWindowLabel', () => {
  it('joins runs of three days or more and lists the others', () => {
    expect(changeWindowLabel(NIGHTS)).toBe('Mon–Fri 02:00–05:00 Europe/Berlin');
    expect(changeWindowDaysLabel([7, 6])).toBe('Sat, Sun');
    expect(changeWindowDaysLabel([1, 3, 5])).toBe('Mon, Wed, Fri');
    expect(changeWindowDaysLabel([5, 1, 2, 3, 6, 7])).toBe('Mon–Wed, Fri–Sun');
    expect(changeWindowDaysLabel([1, 2, 3, 4, 5, 6, 7])).toBe('Every day');
  });
});
