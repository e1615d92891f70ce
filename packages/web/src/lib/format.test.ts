/**
 * Times with their zone (issue 24 point 8): local times end in the zone's offset
 * from UTC, the scheduler's times (DESIGN §13) in UTC, whatever the browser's
 * zone. UTC pickers show the UTC wall clock. The zone of the process is switched
 * with `TZ` (Node reads it again when it changes) and restored after each test.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import fc from 'fast-check';
import { DATE_TIME_SECONDS_FORMAT, formatDateTime, formatUtcDateTime, fromUtcPickerValue, utcPickerValue, ZONE_TOKEN, zonedPickerFormat, zoneLabel } from './format';

dayjs.extend(customParseFormat);

const ZONES = ['UTC', 'Europe/Paris', 'America/Sao_Paulo', 'Asia/Kolkata', 'Pacific/Chatham'];
const inZone = (zone: string) => vi.stubEnv('TZ', zone);
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('times with their zone', () => {
  it('shows a local time with its offset from UTC, short: UTC, UTC+1, UTC+2 in summer, UTC-3, UTC+5:30', () => {
    inZone('UTC');
    expect(formatDateTime('2027-03-01T18:30:00.000Z')).toBe('2027-03-01 18:30 UTC');
    inZone('Europe/Paris');
    expect(formatDateTime('2027-03-01T18:30:00.000Z')).toBe('2027-03-01 19:30 UTC+1');
    expect(formatDateTime('2027-07-01T18:30:05.000Z', DATE_TIME_SECONDS_FORMAT)).toBe('2027-07-01 20:30:05 UTC+2');
    inZone('America/Sao_Paulo');
    expect(formatDateTime('2027-03-01T18:30:00.000Z')).toBe('2027-03-01 15:30 UTC-3');
    inZone('Asia/Kolkata');
    expect(formatDateTime('2027-03-01T18:30:00.000Z', 'MM-DD HH:mm:ss')).toBe('03-02 00:00:00 UTC+5:30');
    expect(zoneLabel(dayjs('2027-03-01T18:30:00.000Z'))).toBe('UTC+5:30');
  });

  it('shows the scheduler times in UTC and says so, in any zone', () => {
    for (const zone of ZONES) {
      inZone(zone);
      expect(formatUtcDateTime('2027-03-01T23:30:00-02:00')).toBe('2027-03-02 01:30 UTC');
      expect(formatUtcDateTime('2027-07-01T18:30:05.000Z', DATE_TIME_SECONDS_FORMAT)).toBe('2027-07-01 18:30:05 UTC');
    }
  });

  it('shows nothing for no time, and text that is not a time as it is', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatUtcDateTime('')).toBe('');
    expect(formatDateTime('soon')).toBe('soon');
    expect(formatUtcDateTime('soon')).toBe('soon');
  });
});

describe('UTC picker values', () => {
  it('show the UTC wall clock of the instant, whatever the zone', () => {
    for (const zone of ZONES) {
      inZone(zone);
      expect(utcPickerValue('2027-03-01T18:30:00.000Z')?.format('YYYY-MM-DD HH:mm')).toBe('2027-03-01 18:30');
      expect(utcPickerValue('not a time')).toBeNull();
      expect(utcPickerValue(null)).toBeNull();
    }
  });

  it('read back as the same instant (round trip at minute precision over many years)', () => {
    for (const zone of ['UTC', 'Asia/Kolkata']) {
      inZone(zone);
      fc.assert(
        fc.property(fc.integer({ min: Date.UTC(2000, 0, 1) / 60_000, max: Date.UTC(2100, 0, 1) / 60_000 }), (minute) => {
          const iso = new Date(minute * 60_000).toISOString();
          expect(fromUtcPickerValue(utcPickerValue(iso))).toBe(iso);
        }),
      );
    }
    expect(fromUtcPickerValue(null)).toBeNull();
  });
});

describe('the zone token of format strings (antd pickers)', () => {
  it('writes the zone of each time and leaves bracketed text alone', () => {
    inZone('Europe/Paris');
    const [shown] = zonedPickerFormat();
    expect(dayjs('2027-01-15T12:00:00.000Z').format(shown)).toBe('2027-01-15 13:00 UTC+1');
    expect(dayjs('2027-07-15T12:00:00.000Z').format(shown)).toBe('2027-07-15 14:00 UTC+2');
    expect(dayjs('2027-07-15T12:00:00.000Z').format(`[${ZONE_TOKEN}] ${ZONE_TOKEN}`)).toBe(`${ZONE_TOKEN} UTC+2`);
    expect(dayjs('2027-07-15T12:00:00.000Z').format('HH:mm')).toBe('14:00');
  });

  it("reads back, strictly as antd does, what is typed without a zone and what it shows, in winter and summer", () => {
    for (const zone of ZONES) {
      inZone(zone);
      const [shown, ...read] = zonedPickerFormat();
      const parse = (text: string) => read.map((f) => dayjs(text, f, true)).find((d) => d.isValid())?.toISOString();
      for (const iso of [`${dayjs().year()}-01-15T12:00:00.000Z`, `${dayjs().year()}-07-15T12:00:00.000Z`]) {
        const time = dayjs(iso);
        expect(parse(time.format(shown)), `${zone} ${time.format(shown)}`).toBe(iso);
        expect(parse(time.format('YYYY-MM-DD HH:mm'))).toBe(iso);
      }
      expect(parse('15 July')).toBeUndefined();
    }
  });
});
