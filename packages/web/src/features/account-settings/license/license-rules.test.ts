/** The push confirmations and count rules of the License Settings card (spec 1 §5, §9). */
import { describe, expect, it } from 'vitest';
import { ZLicenseConfig } from '@fleet/contracts';
import { ADD_ON_PUSH_CONFIRM, LICENSE_COUNTS, T2_MEDIUM_CONFIRM, pushConfirmations } from './license-rules';

describe('pushConfirmations', () => {
  it('asks about t2.medium (instance type 2), then about the parent of an add-on, and nothing otherwise', () => {
    expect(pushConfirmations({ cloudInstanceType: 1 }, { parentId: null })).toEqual([]);
    expect(pushConfirmations({ cloudInstanceType: null }, { parentId: null })).toEqual([]);
    expect(pushConfirmations({ cloudInstanceType: 2 }, { parentId: null })).toEqual([T2_MEDIUM_CONFIRM]);
    expect(pushConfirmations({ cloudInstanceType: 3 }, { parentId: 7 })).toEqual([ADD_ON_PUSH_CONFIRM]);
    expect(pushConfirmations({ cloudInstanceType: 2 }, { parentId: 7 })).toEqual([T2_MEDIUM_CONFIRM, ADD_ON_PUSH_CONFIRM]);
  });
});

describe('LICENSE_COUNTS', () => {
  it('names every count of the licenseConfig once, with the minima of spec 1 §5 that the server also applies', () => {
    const counts = Object.keys(ZLicenseConfig.shape).filter((k) => k.startsWith('max'));
    expect(LICENSE_COUNTS.map((c) => c.name).sort()).toEqual(counts.sort());
    for (const { name, min } of LICENSE_COUNTS) {
      expect(ZLicenseConfig.safeParse({ [name]: min }).success).toBe(true);
      expect(ZLicenseConfig.safeParse({ [name]: min - 1 }).success).toBe(false);
    }
  });
});
