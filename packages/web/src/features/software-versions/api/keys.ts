/**
 * Query keys of the software version picker and the library file dialog (spec 3
 * §7 Software, Library).
 */
import type { TBuild, TConfigComponent, TListCommitsQuery, TListLibraryFilesQuery } from '@fleet/contracts';

export const softwareKeys = {
  all: ['software'] as const,
  branches: () => [...softwareKeys.all, 'branches'] as const,
  commitLists: (software: TConfigComponent) => [...softwareKeys.all, software, 'commits'] as const,
  commits: (software: TConfigComponent, query: TListCommitsQuery) => [...softwareKeys.commitLists(software), query] as const,
  builds: (software: TConfigComponent, type: TBuild['type']) => [...softwareKeys.all, software, 'builds', type] as const,
};

export const libraryKeys = {
  all: ['library'] as const,
  fileLists: () => [...libraryKeys.all, 'files'] as const,
  files: (query: TListLibraryFilesQuery) => [...libraryKeys.fileLists(), query] as const,
  packages: () => [...libraryKeys.all, 'packages'] as const,
};
