/**
 * SQL of the catalogue reads (spec 1 §7 Lookups, spec 3 §7 Software, Cloud,
 * Library) and of the catalogue checks the account rules make (does this image,
 * instance type, feature, library file or commit exist).
 */
import { and, asc, desc, eq, gte, ilike, inArray, isNotNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { LCT_USER, LIBRARY_OLD_FILE_DAYS, type TCommit, type TLibraryFile } from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';
import {
  accountSettings,
  customers,
  features,
  instanceTypes,
  irmnVersions,
  libraryFiles,
  machines,
  regions,
  reportingCategories,
  saasImages,
  softwareBranches,
  softwareBuilds,
  softwareCommits,
  sampleDataFiles,
} from '../../db/schema.js';
import { likePattern } from '../../db/like-pattern.js';

// ---------------------------------------------------------------- lookups

export async function selectCustomerNames(db: DbOrTx): Promise<string[]> {
  return (await db.select({ name: customers.name }).from(customers).orderBy(asc(customers.name))).map((r) => r.name);
}

/** Adds a customer name to the autocomplete list; a known name is left alone. */
export async function insertCustomer(db: DbOrTx, name: string): Promise<void> {
  await db.insert(customers).values({ name }).onConflictDoNothing();
}

export const selectFeatures = (db: DbOrTx) => db.select({ id: features.id, name: features.name }).from(features).orderBy(asc(features.name));

export const selectReportingCategories = (db: DbOrTx) =>
  db.select({ id: reportingCategories.id, name: reportingCategories.name }).from(reportingCategories).orderBy(asc(reportingCategories.name));

export const selectRegions = (db: DbOrTx) => db.select().from(regions).orderBy(asc(regions.id));

/** Machine instance types, or Redis (cache) ones with `redis`. */
export const selectInstanceTypes = (db: DbOrTx, redis: boolean) =>
  db
    .select({
      id: instanceTypes.id,
      name: instanceTypes.name,
      cloudCode: instanceTypes.cloudCode,
      storageSize: instanceTypes.storageSize,
      memorySize: instanceTypes.memorySize,
      cloudCreditCost: instanceTypes.cloudCreditCost,
      isRedis: instanceTypes.isRedis,
    })
    .from(instanceTypes)
    .where(eq(instanceTypes.isRedis, redis))
    .orderBy(asc(instanceTypes.id));

export const selectBranches = (db: DbOrTx) => db.select().from(softwareBranches).orderBy(asc(softwareBranches.id));

// ---------------------------------------------------------------- software

function commitRow(r: typeof softwareCommits.$inferSelect & { branch: string | null }): TCommit {
  return {
    shortHash: r.shortHash,
    fullHash: r.fullHash,
    branchId: r.branchId,
    branch: r.branch ?? '',
    author: r.author,
    isBreaking: r.isBreaking,
    breakingMsg: r.breakingMsg,
    tags: r.tags,
    builds: r.builds,
    timestamp: r.timestamp.toISOString(),
    message: r.message,
  };
}

export interface CommitFilter {
  software: string;
  branch?: string;
  tagsOnly?: boolean;
  buildsOnly?: boolean;
  search?: string;
}

function commitWhere(f: CommitFilter): SQL | undefined {
  const where: (SQL | undefined)[] = [eq(softwareCommits.software, f.software)];
  if (f.branch) where.push(eq(softwareBranches.name, f.branch));
  if (f.tagsOnly) where.push(sql`jsonb_array_length(${softwareCommits.tags}) > 0`);
  if (f.buildsOnly) where.push(sql`jsonb_array_length(${softwareCommits.builds}) > 0`);
  const search = f.search?.trim();
  if (search) {
    const anywhere = likePattern(search);
    where.push(
      or(
        ilike(softwareCommits.message, anywhere),
        ilike(softwareCommits.author, anywhere),
        ilike(softwareCommits.fullHash, likePattern(search, true)),
        sql`exists (select 1 from jsonb_array_elements(${softwareCommits.tags}) t where t->>'name' ilike ${anywhere})`,
      ),
    );
  }
  return and(...where);
}

/** A page of commits, newest first, with the total matching the filter. */
export async function selectCommitsPage(db: DbOrTx, q: CommitFilter & { startIndex: number; limit: number }) {
  const where = commitWhere(q);
  const [rows, [count]] = await Promise.all([
    db
      .select({ commit: softwareCommits, branch: softwareBranches.name })
      .from(softwareCommits)
      .leftJoin(softwareBranches, eq(softwareBranches.id, softwareCommits.branchId))
      .where(where)
      .orderBy(desc(softwareCommits.timestamp), desc(softwareCommits.id))
      .offset(q.startIndex)
      .limit(q.limit),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(softwareCommits)
      .leftJoin(softwareBranches, eq(softwareBranches.id, softwareCommits.branchId))
      .where(where),
  ]);
  return { items: rows.map((r) => commitRow({ ...r.commit, branch: r.branch })), totalItems: count?.n ?? 0 };
}

/** Commits of `software` whose short or full hash is `hash`, locked for update. */
export async function selectCommitsByHashForUpdate(db: DbOrTx, software: string, hash: string) {
  return db
    .select()
    .from(softwareCommits)
    .where(and(eq(softwareCommits.software, software), or(eq(softwareCommits.shortHash, hash), eq(softwareCommits.fullHash, hash))))
    .for('update');
}

export async function updateCommitBreaking(db: DbOrTx, ids: number[], values: { isBreaking: boolean; breakingMsg: string | null }): Promise<TCommit[]> {
  await db.update(softwareCommits).set(values).where(inArray(softwareCommits.id, ids));
  const rows = await db
    .select({ commit: softwareCommits, branch: softwareBranches.name })
    .from(softwareCommits)
    .leftJoin(softwareBranches, eq(softwareBranches.id, softwareCommits.branchId))
    .where(inArray(softwareCommits.id, ids));
  return rows.map((r) => commitRow({ ...r.commit, branch: r.branch }));
}

export const selectBuilds = (db: DbOrTx, software: string, type?: string) =>
  db
    .select()
    .from(softwareBuilds)
    .where(and(eq(softwareBuilds.software, software), type ? eq(softwareBuilds.type, type) : undefined))
    .orderBy(desc(softwareBuilds.lastModified), desc(softwareBuilds.id));

// ---------------------------------------------------------------- library

export interface LibraryFilter {
  search?: string;
  /** Only these files (an empty list matches none). */
  ids?: number[];
  /** Leave out files dated more than LIBRARY_OLD_FILE_DAYS days ago. */
  hideOld?: boolean;
  version?: string;
  type?: string;
  package?: string;
  lctOnly?: boolean;
  latestOnly?: boolean;
}

const LIBRARY_SORT = {
  name: libraryFiles.name,
  package: libraryFiles.package,
  type: libraryFiles.type,
  version: libraryFiles.version,
  addedBy: libraryFiles.addedBy,
  date: libraryFiles.date,
} as const;

/** Filter conditions over `t` (the table or an alias of it), without search and latest-only. */
function libraryConditions(t: Record<'version' | 'type' | 'package' | 'addedBy', AnyPgColumn>, f: LibraryFilter): (SQL | undefined)[] {
  return [
    f.version ? eq(t.version, f.version) : undefined,
    f.type ? eq(t.type, f.type) : undefined,
    f.package ? eq(t.package, f.package) : undefined,
    f.lctOnly ? eq(t.addedBy, LCT_USER) : undefined,
  ];
}

function libraryWhere(db: DbOrTx, f: LibraryFilter): SQL | undefined {
  const where = libraryConditions(libraryFiles, f);
  const search = f.search?.trim();
  if (f.ids) where.push(f.ids.length > 0 ? inArray(libraryFiles.id, f.ids) : sql`false`);
  if (f.hideOld) where.push(gte(libraryFiles.date, new Date(Date.now() - LIBRARY_OLD_FILE_DAYS * 86_400_000)));
  if (search) where.push(or(ilike(libraryFiles.name, likePattern(search)), ilike(libraryFiles.package, likePattern(search))));
  if (f.latestOnly) {
    // Latest only: no newer file of the same package and type among the filtered ones.
    const newer = alias(libraryFiles, 'newer');
    where.push(
      notExists(
        db
          .select({ one: sql`1` })
          .from(newer)
          .where(
            and(
              eq(newer.package, libraryFiles.package),
              eq(newer.type, libraryFiles.type),
              or(sql`${newer.date} > ${libraryFiles.date}`, and(eq(newer.date, libraryFiles.date), sql`${newer.id} > ${libraryFiles.id}`)),
              ...libraryConditions(newer, f),
            ),
          ),
      ),
    );
  }
  return and(...where);
}

export async function selectLibraryFilesPage(
  db: DbOrTx,
  q: LibraryFilter & { sortBy: keyof typeof LIBRARY_SORT; sortDirection: 'Ascending' | 'Descending'; startIndex: number; limit: number },
): Promise<{ items: TLibraryFile[]; totalItems: number }> {
  const where = libraryWhere(db, q);
  const dir = q.sortDirection === 'Descending' ? desc : asc;
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(libraryFiles)
      .where(where)
      .orderBy(dir(LIBRARY_SORT[q.sortBy]), dir(libraryFiles.id))
      .offset(q.startIndex)
      .limit(q.limit),
    db.select({ n: sql<number>`count(*)::int` }).from(libraryFiles).where(where),
  ]);
  return {
    totalItems: count?.n ?? 0,
    items: rows.map((r) => ({ ...r, type: r.type as TLibraryFile['type'], isLct: r.addedBy === LCT_USER, date: r.date.toISOString() })),
  };
}

export async function selectLibraryPackages(db: DbOrTx): Promise<string[]> {
  const rows = await db.selectDistinct({ name: libraryFiles.package }).from(libraryFiles).orderBy(asc(libraryFiles.package));
  return rows.map((r) => r.name);
}

/** Sample data file names the fleet knows: those of machines, of accounts' instance settings and of the stored files. */
export async function selectSampleDataFiles(db: DbOrTx): Promise<string[]> {
  const [ofMachines, ofAccounts, stored] = await Promise.all([
    db.selectDistinct({ name: machines.sampleDataFile }).from(machines).where(isNotNull(machines.sampleDataFile)),
    db
      .selectDistinct({ name: sql<string | null>`${accountSettings.machineConfig}->>'sampleDataFile'` })
      .from(accountSettings)
      .where(sql`${accountSettings.machineConfig}->>'sampleDataFile' is not null`),
    // The files in the object store (seeded defaults, published ones; DESIGN §13).
    db.select({ name: sampleDataFiles.name }).from(sampleDataFiles),
  ]);
  return [...new Set([...ofMachines, ...ofAccounts, ...stored].map((r) => r.name).filter((n): n is string => !!n))].sort();
}

// ---------------------------------------------------------------- checks for the account rules

/** A SaaS image by name with its IRMN version name. */
export async function selectImage(db: DbOrTx, name: string) {
  const [row] = await db
    .select({
      name: saasImages.name,
      region: saasImages.region,
      active: saasImages.active,
      osType: saasImages.osType,
      irmnVersion: irmnVersions.name,
    })
    .from(saasImages)
    .leftJoin(irmnVersions, eq(irmnVersions.id, saasImages.irmnVersionId))
    .where(eq(saasImages.name, name))
    .limit(1);
  return row;
}

export const selectInstanceTypesByIds = (db: DbOrTx, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.select({ id: instanceTypes.id, isRedis: instanceTypes.isRedis }).from(instanceTypes).where(inArray(instanceTypes.id, ids));

export async function selectExistingNames(db: DbOrTx, table: 'features' | 'reportingCategories', names: string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const t = table === 'features' ? features : reportingCategories;
  return new Set((await db.select({ name: t.name }).from(t).where(inArray(t.name, names))).map((r) => r.name));
}

export async function selectExistingLibraryFileIds(db: DbOrTx, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  return new Set((await db.select({ id: libraryFiles.id }).from(libraryFiles).where(inArray(libraryFiles.id, ids))).map((r) => r.id));
}

/** Which of `refs` (software and short or full hash) are known commits: the set holds `software/hash`. */
export async function selectKnownCommits(db: DbOrTx, refs: { software: string; hash: string }[]): Promise<Set<string>> {
  if (refs.length === 0) return new Set();
  const hashes = [...new Set(refs.map((r) => r.hash))];
  const rows = await db
    .select({ software: softwareCommits.software, shortHash: softwareCommits.shortHash, fullHash: softwareCommits.fullHash })
    .from(softwareCommits)
    .where(or(inArray(softwareCommits.shortHash, hashes), inArray(softwareCommits.fullHash, hashes)));
  return new Set(rows.flatMap((r) => [`${r.software}/${r.shortHash}`, `${r.software}/${r.fullHash}`]));
}

/** Which build URLs are known: the set holds `software/url`. */
export async function selectKnownBuilds(db: DbOrTx, urls: string[]): Promise<Set<string>> {
  if (urls.length === 0) return new Set();
  const rows = await db.select({ software: softwareBuilds.software, url: softwareBuilds.url }).from(softwareBuilds).where(inArray(softwareBuilds.url, urls));
  return new Set(rows.map((r) => `${r.software}/${r.url}`));
}

export async function selectBranchNames(db: DbOrTx): Promise<Set<string>> {
  return new Set((await db.select({ name: softwareBranches.name }).from(softwareBranches)).map((r) => r.name));
}
