/**
 * Catalogue reads of the account forms (spec 1 §7 Lookups; spec 3 §2.1, §7
 * Software, Cloud, Library; IRMN versions and SaaS images are the images module's) and marking a commit breaking (spec 3 §4, audited as
 * MarkCommitBreaking).
 *
 * Known limitations: sample data files are the names the fleet already uses
 * (machines and instance settings), until object storage lists real files.
 */
import {
  type TBranch,
  type TBuild,
  type TCommit,
  type TInstanceType,
  type TListCommitsResponse,
  type TListLibraryFilesResponse,
  type TLookupItem,
  type TRegion,
  ZListCommitsQuery,
  ZListLibraryFilesQuery,
} from '@fleet/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { notFound } from '../../lib/problem.js';
import { diffChanges, type AuditService } from '../audit/audit.service.js';
import * as repo from './catalogues.repository.js';

export interface CatalogueService {
  customers(): Promise<string[]>;
  features(): Promise<TLookupItem[]>;
  reportingCategories(): Promise<TLookupItem[]>;
  regions(): Promise<TRegion[]>;
  /** Machine instance types, or the Redis ones with `redis`. */
  instanceTypes(opts: { redis: boolean }): Promise<TInstanceType[]>;
  branches(): Promise<TBranch[]>;
  commits(opts: { software: string; query: z.output<typeof ZListCommitsQuery> }): Promise<TListCommitsResponse>;
  builds(opts: { software: string; type?: 'Daily' | 'Release' }): Promise<TBuild[]>;
  /** Marks or unmarks every commit of `software` with that short or full hash; 404 when none. */
  setCommitBreaking(opts: { principal: Principal; software: string; hash: string; isBreaking: boolean; breakingMsg?: string | null }): Promise<TCommit>;
  libraryFiles(opts: { query: z.output<typeof ZListLibraryFilesQuery> }): Promise<TListLibraryFilesResponse>;
  libraryPackages(): Promise<string[]>;
  sampleDataFiles(): Promise<string[]>;
}

export function createCatalogueService({ db, audit }: { db: Db; audit: AuditService }): CatalogueService {
  return {
    customers: () => repo.selectCustomerNames(db),
    features: () => repo.selectFeatures(db),
    reportingCategories: () => repo.selectReportingCategories(db),
    regions: () => repo.selectRegions(db),
    async instanceTypes({ redis }) {
      const rows = await repo.selectInstanceTypes(db, redis);
      return rows.map(({ isRedis: _isRedis, ...r }) => r);
    },
    branches: () => repo.selectBranches(db),

    async commits({ software, query }) {
      const page = await repo.selectCommitsPage(db, { software, ...query });
      return { ...page, page: Math.floor(query.startIndex / query.limit) + 1, limit: query.limit };
    },

    async builds({ software, type }) {
      const rows = await repo.selectBuilds(db, software, type);
      return rows.map((r) => ({
        name: r.name,
        url: r.url,
        lastModified: r.lastModified.toISOString(),
        size: r.size,
        hash: r.hash,
        type: r.type as TBuild['type'],
      }));
    },

    async setCommitBreaking({ principal, software, hash, isBreaking, breakingMsg }) {
      return db.transaction(async (tx) => {
        const found = await repo.selectCommitsByHashForUpdate(tx, software, hash);
        const first = found[0];
        if (!first) throw notFound(`Commit ${hash} of ${software}`);
        const values = { isBreaking, breakingMsg: isBreaking ? (breakingMsg ?? first.breakingMsg) : null };
        const [updated] = await repo.updateCommitBreaking(tx, found.map((c) => c.id), values);
        await audit.record(tx, {
          action: 'MarkCommitBreaking',
          user: principal.username,
          params: { software, hash: first.shortHash, fullHash: first.fullHash },
          changes: diffChanges('Commit', { isBreaking: first.isBreaking, breakingMsg: first.breakingMsg }, values),
        });
        return updated!;
      });
    },

    libraryFiles: ({ query }) => repo.selectLibraryFilesPage(db, query),
    libraryPackages: () => repo.selectLibraryPackages(db),
    sampleDataFiles: () => repo.selectSampleDataFiles(db),
  };
}
