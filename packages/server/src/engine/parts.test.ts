/**
 * The engine parts' list (`parts.ts`): the stop order `main.ts` keeps since issue 9
 * (what makes work stops before what does it), and a part whose start fails is
 * still stopped.
 */
import { describe, expect, it } from 'vitest';
import { ENGINE_PARTS, startEngineParts, type EngineContext, type EnginePart, type MadeEnginePart } from './parts.js';

describe('ENGINE_PARTS', () => {
  it('are stopped (the reverse of the list) in the order of issue 9: scheduler first, then the history retention; account count compaction last', () => {
    expect(ENGINE_PARTS.map((part) => part.name).toReversed()).toEqual([
      'scheduler',
      'history retention',
      'probes',
      'rollout engine',
      'deploy controller',
      'server status check',
      'MMAs in process',
      'operation agent',
      'task engine',
      'notification delivery',
      'account count compaction',
    ]);
  });
});

describe('startEngineParts', () => {
  it('makes and starts the parts in order, skips one left off, and keeps one whose start failed for the stop', async () => {
    const events: string[] = [];
    const part = (name: string, start?: () => Promise<void>): EnginePart => ({
      name,
      make: () => ({ start: start ?? (async () => void events.push(`start ${name}`)), stop: async () => events.push(`stop ${name}`) }),
    });
    const parts = [part('a'), { name: 'off', make: () => undefined }, part('b', () => Promise.reject(new Error('b failed'))), part('c')];
    const made: MadeEnginePart[] = [];
    await expect(startEngineParts(parts, {} as EngineContext, made)).rejects.toThrow('b failed');
    expect(events).toEqual(['start a']);
    expect(made.map((m) => m.name)).toEqual(['a', 'b']);
  });
});
