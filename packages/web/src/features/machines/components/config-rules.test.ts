/**
 * Rules of the machine config editors (spec 2 §5, §9): adding a key (silent
 * abort on a dataType mismatch, unknown keys, protected keys), defaults by
 * type, values by type (booleans may be null), sub-key suggestions without the
 * machine's keys, and keys split at the first dot.
 */
import { describe, expect, it } from 'vitest';
import { byKey, decideAdd, defaultOfType, rootKeys, sameConfig, splitKey, subKeySuggestions, typeOfValue, valueProblem, type DefinitionLike } from './config-rules';

const defs: DefinitionLike[] = [
  { rootKey: 'launcher', subKey: 'port', dataType: 'number', protected: false },
  { rootKey: 'launcher', subKey: 'publicUrl', dataType: null, protected: false },
  { rootKey: 'launcher', subKey: 'enableSso', dataType: 'boolean', protected: false },
  { rootKey: 'launcher', subKey: 'adminKey', dataType: null, protected: true },
  { rootKey: 'client', subKey: 'features', dataType: 'json', protected: false },
];
const known = byKey(defs);

describe('decideAdd', () => {
  const present = new Set(['launcher.port']);
  it.each([
    [{ rootKey: 'launcher', subKey: 'publicUrl', dataType: 'string' }, 'known'],
    [{ rootKey: 'launcher', subKey: 'publicUrl', dataType: 'number' }, 'type-mismatch'],
    [{ rootKey: 'launcher', subKey: 'enableSso', dataType: 'string' }, 'type-mismatch'],
    [{ rootKey: 'launcher', subKey: 'port', dataType: 'number' }, 'present'],
    [{ rootKey: 'launcher', subKey: 'brandNew', dataType: 'json' }, 'unknown'],
    [{ rootKey: 'launcher', subKey: 'adminKey', dataType: 'string' }, 'invalid'],
    [{ rootKey: 'launcher', subKey: 'adminKey', dataType: 'number' }, 'type-mismatch'],
    [{ rootKey: '9lives', subKey: 'x', dataType: 'string' }, 'invalid'],
    [{ rootKey: 'ok', subKey: 'has space', dataType: 'string' }, 'invalid'],
  ] as const)('%o is %s', (input, kind) => {
    expect(decideAdd(input, known, present).kind).toBe(kind);
  });
});

describe('types and defaults', () => {
  it('gives each type its default (number 0, boolean false, string empty, json empty object)', () => {
    expect([defaultOfType('number'), defaultOfType('boolean'), defaultOfType('string'), defaultOfType('json')]).toEqual([0, false, '', {}]);
  });

  it('accepts true, false and null for booleans, finite numbers, strings, and any JSON', () => {
    expect([true, false, null].map((v) => valueProblem(v, 'boolean'))).toEqual([undefined, undefined, undefined]);
    expect(valueProblem('true', 'boolean')).toBe('true, false or null');
    expect(valueProblem(null, 'number')).toBe('A number is needed');
    expect(valueProblem(Number.NaN, 'number')).toBe('A number is needed');
    expect(valueProblem(3, 'number')).toBeUndefined();
    expect(valueProblem(3, 'string')).toBe('Text is needed');
    expect(valueProblem(null, 'json')).toBeUndefined();
    expect(valueProblem(undefined, 'json')).toBe('Invalid JSON');
  });

  it('types a value without a definition by the value', () => {
    expect([1, 'a', true, null, { a: 1 }, [1]].map(typeOfValue)).toEqual(['number', 'string', 'boolean', 'boolean', 'json', 'json']);
  });
});

describe('suggestions and keys', () => {
  it('suggests the sub keys of the root key the machine lacks, without protected ones', () => {
    expect(subKeySuggestions(defs, 'launcher', new Set(['launcher.port']))).toEqual(['enableSso', 'publicUrl']);
    expect(subKeySuggestions(defs, 'client', new Set(['client.features']))).toEqual([]);
    expect(rootKeys(defs, ['zeta.one'])).toEqual(['client', 'launcher', 'zeta']);
  });

  it('splits a key at its first dot and compares configurations by value', () => {
    expect(splitKey('smtp.tls.port')).toEqual({ rootKey: 'smtp', subKey: 'tls.port' });
    expect(sameConfig({ a: 1, b: { c: 2 } }, { b: { c: 2 }, a: 1 })).toBe(true);
    expect(sameConfig({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameConfig({ a: null }, { a: false })).toBe(false);
  });
});
