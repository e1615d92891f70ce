import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce.js';

/** A load whose runs the test settles by hand; each run records the "database version" it read when it began. */
function manualLoad() {
  let version = 0;
  const runs: { key: string; readVersion: number; resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  const load = (key: string) =>
    new Promise<string>((resolve, reject) => {
      runs.push({ key, readVersion: version, resolve, reject });
    });
  return {
    load,
    runs,
    write: () => (version += 1),
    /** Settles run `i` with the version it read. */
    finish: async (i: number) => {
      runs[i]!.resolve(`${runs[i]!.key}@${runs[i]!.readVersion}`);
      // Let the queued run begin.
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe('coalesce', () => {
  it('runs once for callers that ask while nothing is in flight, and once more for all who asked during that run', async () => {
    const m = manualLoad();
    const read = coalesce(m.load, (key) => key);
    const first = read('a');
    const during = [read('a'), read('a'), read('a')];
    expect(m.runs).toHaveLength(1);
    await m.finish(0);
    expect(await first).toBe('a@0');
    expect(m.runs).toHaveLength(2);
    await m.finish(1);
    expect(await Promise.all(during)).toEqual(['a@0', 'a@0', 'a@0']);
    expect(m.runs).toHaveLength(2);
  });

  it('never answers a caller with a read that began before it asked (its own write is seen)', async () => {
    const m = manualLoad();
    const read = coalesce(m.load, (key) => key);
    const before = read('a'); // run 0 reads version 0
    m.write(); // a caller's write commits while run 0 is in flight…
    const after = read('a'); // …and the caller then asks: it must not get run 0's answer
    await m.finish(0);
    expect(await before).toBe('a@0');
    await m.finish(1);
    expect(await after).toBe('a@1');
  });

  it('keeps keys apart', async () => {
    const m = manualLoad();
    const read = coalesce(m.load, (key) => key);
    const a = read('a');
    const b = read('b');
    expect(m.runs.map((r) => r.key)).toEqual(['a', 'b']);
    await m.finish(1);
    await m.finish(0);
    expect([await a, await b]).toEqual(['a@0', 'b@0']);
  });

  it('fails every caller of a failed run, and the next call begins a new run', async () => {
    const m = manualLoad();
    const read = coalesce(m.load, (key) => key);
    const first = read('a');
    const joined = [read('a'), read('a')];
    m.runs[0]!.reject(new Error('database away'));
    await expect(first).rejects.toThrow('database away');
    await new Promise((r) => setImmediate(r));
    m.runs[1]!.reject(new Error('still away'));
    const settled = await Promise.allSettled(joined);
    expect(settled.map((s) => (s.status === 'rejected' ? (s.reason as Error).message : s.value))).toEqual(['still away', 'still away']);
    const again = read('a');
    expect(m.runs).toHaveLength(3);
    await m.finish(2);
    expect(await again).toBe('a@0');
  });

  it('begins at once when the key has nothing in flight (nothing is kept once its runs are over)', async () => {
    const m = manualLoad();
    const read = coalesce(m.load, (key) => key);
    const one = read('a');
    await m.finish(0);
    await one;
    m.write();
    const two = read('a');
    expect(m.runs).toHaveLength(2);
    await m.finish(1);
    expect(await two).toBe('a@1');
  });
});
