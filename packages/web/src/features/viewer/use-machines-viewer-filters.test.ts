/**
 * The Machines viewer's filters in the URL (issue 24 point 4): the links the
 * top bar's chips make read back as the same filters; values that are not
 * valid are ignored rather than sent to the server.
 */
import { describe, expect, it } from 'vitest';
import { machinesViewerLink, readMachinesViewerFilters } from './use-machines-viewer-filters';

const read = (link: string) => readMachinesViewerFilters(new URLSearchParams(link.split('?')[1] ?? ''));

describe('Machines viewer filters', () => {
  it('reads back what a chip links to', () => {
    expect(machinesViewerLink({ needsAdmin: true })).toBe('/viewer/machines?needsAdmin=true');
    expect(machinesViewerLink({ classId: 5 })).toBe('/viewer/machines?class=5');
    expect(machinesViewerLink({})).toBe('/viewer/machines');
    for (const filters of [{ needsAdmin: true }, { turbo: true }, { unmanaged: false }, { classId: 1, needsAdmin: false }]) {
      expect(read(machinesViewerLink(filters))).toEqual(filters);
    }
  });

  it('ignores values that are not valid', () => {
    expect(read('?class=99&needsAdmin=yes&turbo=1&unmanaged=')).toEqual({});
    expect(read('?class=abc&turbo=false')).toEqual({ turbo: false });
  });
});
