/** Rules of the config definition editor (spec 3 §2.5, §5). */
import { describe, expect, it } from 'vitest';
import { insertAt, storedType, typeDefaultText, typeName, valueError, valueToSend } from './config-values';

describe('config editor values', () => {
  it('gives each data type its default text: 0, empty, false, empty object', () => {
    expect(['number', 'string', 'boolean', 'json'].map((t) => typeDefaultText(t as never))).toEqual(['0', '', 'false', '{}']);
  });

  it('maps string to a null data type and back', () => {
    expect(storedType('string')).toBeNull();
    expect(storedType('json')).toBe('json');
    expect(typeName(null)).toBe('string');
  });

  it('sends empty text of a typed value as no default, and keeps an empty string', () => {
    expect(valueToSend('', 'number')).toBeNull();
    expect(valueToSend('  ', 'json')).toBeNull();
    expect(valueToSend('', 'string')).toBe('');
    expect(valueToSend(null, 'string')).toBeNull();
  });

  it('refuses what the server refuses: a number that is not one, JSON that does not parse', () => {
    expect(valueError('abc', 'number')).toBe('Must be a number');
    expect(valueError('{site_port}', 'number')).toBeNull();
    expect(valueError('{"a":', 'json')).toMatch(/^Must be valid JSON/);
    expect(valueError('{"url":"{protocol}://x"}', 'json')).toBeNull();
    expect(valueError('maybe', 'boolean')).toBe('Must be true, false or null');
    expect(valueError('', 'json')).toBeNull();
  });

  it('inserts a variable at the cursor, replacing a selection', () => {
    expect(insertAt('https://.example', '{account_url_name}', 8)).toBe('https://{account_url_name}.example');
    expect(insertAt('a-XX-b', '{site_name}', 2, 4)).toBe('a-{site_name}-b');
  });
});
