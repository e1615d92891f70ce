/** The change windows of the Edit MMA Class dialog (issue 25 point 5): default zone, zones offered, rules with the contract's messages. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHANGE_WINDOW_TIME_ZONE, ZChangeWindow } from '@fleet/contracts';
import { browserTimeZone, changeWindowRules, newChangeWindow, timeZoneChoices } from './change-windows';

/** Runs a field's rules as antd does; answers the first message or ''. */
async function check(rules: unknown[], value: unknown, window: Record<string, unknown> = {}): Promise<string> {
  const form = { getFieldValue: (name: (string | number)[]) => window[String(name[2])] };
  for (const rule of rules) {
    const r = (typeof rule === 'function' ? rule(form) : rule) as { validator(_: unknown, v: unknown): Promise<void> };
    try {
      await r.validator(undefined, value);
    } catch (e) {
      return (e as Error).message;
    }
  }
  return '';
}

describe('change windows of the dialog', () => {
  it('starts a new window in a zone the contract accepts', () => {
    expect(ZChangeWindow.safeParse(newChangeWindow(browserTimeZone())).success).toBe(true);
    expect(ZChangeWindow.safeParse(newChangeWindow(DEFAULT_CHANGE_WINDOW_TIME_ZONE)).success).toBe(true);
  });

  it('offers UTC first, the IANA zones, and a stored zone the runtime does not list', () => {
    const zones = timeZoneChoices(['Europe/Kiev', 'Europe/Berlin']);
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Europe/Berlin');
    expect(zones).toContain('Europe/Kiev');
    expect(new Set(zones).size).toBe(zones.length);
  });

  it('checks each field with the contract, and end after start', async () => {
    expect(await check(changeWindowRules.days, [])).toBe('At least one day is required');
    expect(await check(changeWindowRules.start, '25:00')).toBe('Start must be a time HH:mm from 00:00 to 23:59');
    expect(await check(changeWindowRules.timeZone, 'Nowhere/City')).toBe('Time zone must be an IANA time zone name, such as Europe/Berlin');
    expect(await check(changeWindowRules.end(0), '01:00', { start: '02:00' })).toBe('End must be after start: a window never crosses midnight (split it in two)');
    expect(await check(changeWindowRules.end(0), '24:00', { start: '02:00' })).toBe('');
    expect(await check(changeWindowRules.end(0), '01:00', { start: 'bad' }), 'a bad start is its own error').toBe('');
  });
});
