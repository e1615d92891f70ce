import { describe, expect, it } from 'vitest';
import { routeGroups, type ProbeChunk } from '../build/route-chunks.ts';

/** A chunk of the first build: its file, its modules, what it imports statically. */
const chunk = (fileName: string, moduleIds: string[], imports: string[] = [], o: { entry?: boolean; facade?: string } = {}): ProbeChunk => ({
  fileName,
  isEntry: o.entry ?? false,
  facadeModuleId: o.facade ?? null,
  imports,
  moduleIds,
});

/**
 * The entry (main, react) and three routes: the sign-in page, the list and the
 * editor behind the shell; a table both the list and the editor use, a form only
 * the editor and the sign-in page use, and a dialog's chunk no route loads when opened.
 */
const CHUNKS = [
  chunk('index.js', ['/main.tsx'], ['react.js'], { entry: true, facade: '/main.tsx' }),
  chunk('react.js', ['/react.js', '/react-dom.js']),
  chunk('Shell.js', ['/Shell.tsx', '/menu.js'], ['react.js'], { facade: '/Shell.tsx' }),
  chunk('Login.js', ['/Login.tsx'], ['react.js', 'form.js'], { facade: '/Login.tsx' }),
  chunk('List.js', ['/List.tsx'], ['table.js'], { facade: '/List.tsx' }),
  chunk('Edit.js', ['/Edit.tsx'], ['table.js', 'form.js'], { facade: '/Edit.tsx' }),
  chunk('table.js', ['/table.js', '/pagination.js'], ['react.js']),
  chunk('form.js', ['/form.js']),
  chunk('Dialog.js', ['/Dialog.tsx'], ['form.js'], { facade: '/Dialog.tsx' }),
];

const ROUTES: [string, string[]][] = [
  ['/login', ['/Login.tsx']],
  ['/list', ['/Shell.tsx', '/List.tsx']],
  ['/edit', ['/Shell.tsx', '/Edit.tsx']],
];

describe('route-chunks: the modules grouped by the routes that load them', () => {
  it('puts modules of the same routes in one group, groups of more routes first, what every route loads as common', () => {
    const groups = routeGroups(CHUNKS, ROUTES);
    expect(groups.map((g) => [g.name, g.routes, g.moduleIds.sort()])).toEqual([
      ['common', ['/edit', '/list', '/login'], ['/main.tsx', '/react-dom.js', '/react.js']],
      ['routes-1', ['/edit', '/list'], ['/Shell.tsx', '/menu.js', '/pagination.js', '/table.js']],
      ['routes-2', ['/edit', '/login'], ['/form.js']],
      ['routes-3', ['/edit'], ['/Edit.tsx']],
      ['routes-4', ['/list'], ['/List.tsx']],
      ['routes-5', ['/login'], ['/Login.tsx']],
    ]);
  });

  it("leaves out what no route loads when opened (a dialog's chunk keeps Rolldown's own chunking)", () => {
    const grouped = routeGroups(CHUNKS, ROUTES).flatMap((g) => g.moduleIds);
    expect(grouped).not.toContain('/Dialog.tsx');
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it('fails the build when a page has no chunk, or there is no entry', () => {
    expect(() => routeGroups(CHUNKS, [...ROUTES, ['/mma', ['/Shell.tsx', '/Mma.tsx']]])).toThrow('route-chunks: no chunk of /Mma.tsx (route /mma)');
    expect(() => routeGroups(CHUNKS.slice(1), ROUTES)).toThrow('route-chunks: the first build has no entry chunk');
  });
});
