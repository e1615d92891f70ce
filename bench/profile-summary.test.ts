/** bench/profile-summary: self time by package and function from a V8 CPU profile. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarise } from './profile-summary.js';

describe('bench/profile-summary', () => {
  it('adds up self time per package (ours by src path) and per function, heaviest first', () => {
    const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });
    const profile = {
      startTime: 0,
      nodes: [
        { id: 1, callFrame: frame('(root)', '') },
        { id: 2, callFrame: frame('is', 'file:///w/node_modules/drizzle-orm/entity.js', 1) },
        { id: 3, callFrame: frame('claimNext', 'file:///w/packages/server/src/engine/tasks/tasks.repository.ts', 79) },
        { id: 4, callFrame: frame('(idle)', '') },
      ],
      samples: [2, 2, 3, 4, 2],
      timeDeltas: [1000, 2000, 500, 7000, 3000],
    };
    const file = join(mkdtempSync(join(tmpdir(), 'profile-')), 'CPU.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    const lines = summarise(file).split('\n');
    expect(lines[0]).toBe(`${file}: 14 ms sampled`);
    expect(lines.slice(1, 5).map((l) => l.trim().split(/\s+/))).toEqual([
      ['self', 'ms', 'by', 'package:'],
      ['7', '(idle)'],
      ['6', 'drizzle-orm'],
      ['1', 'src/engine/tasks/tasks.repository.ts'],
    ]);
    expect(lines).toContain('       6  is entity.js:2');

    // Only the samples within a window of the clock: at 3,000 µs (the second) through 10,500 µs (the fourth).
    const windowed = summarise(file, 30, { fromUs: 2500, toUs: 10_500 }).split('\n');
    expect(windowed[0]).toBe(`${file}: 10 ms sampled`);
    expect(windowed.slice(2, 5).map((l) => l.trim().split(/\s+/))).toEqual([
      ['7', '(idle)'],
      ['2', 'drizzle-orm'],
      ['1', 'src/engine/tasks/tasks.repository.ts'],
    ]);
  });
});
