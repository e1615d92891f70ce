/** File names of `Content-Disposition` headers as the key downloads send them (spec 1 §7 blob downloads). */
import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './download';

describe('fileNameFromDisposition', () => {
  it('prefers the UTF-8 extended parameter, then the quoted one, then a bare one', () => {
    expect(fileNameFromDisposition(`attachment; filename="acme keys.zip"; filename*=UTF-8''acme%20keys%20%C3%A9.zip`)).toBe('acme keys é.zip');
    expect(fileNameFromDisposition('attachment; filename="acme caa-account.txt"')).toBe('acme caa-account.txt');
    expect(fileNameFromDisposition('attachment; filename=acme.zip')).toBe('acme.zip');
  });

  it('falls back to the plain name on a malformed escape, and answers undefined without a name', () => {
    expect(fileNameFromDisposition(`attachment; filename="a.zip"; filename*=UTF-8''%E0%A4%A`)).toBe('a.zip');
    expect(fileNameFromDisposition('attachment')).toBeUndefined();
    expect(fileNameFromDisposition(null)).toBeUndefined();
  });
});
