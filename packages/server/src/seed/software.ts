/**
 * Software catalogue of the seeded fleet (spec 3 §2.1, §3): branches, about 30
 * commits per software key across the branches (tags on release commits, builds on
 * tagged and recent daily commits, a few breaking ones), the Daily and Release
 * builds derived from those commits, and about 60 library files.
 */
import type { DbOrTx } from '../db/client.js';
import { libraryFiles, softwareBranches, softwareBuilds, softwareCommits } from '../db/schema.js';
import { insertMany } from './insert.js';
import { CUSTOMERS, DEVELOPERS, SOFTWARE_KEYS, STAFF } from './names.js';
import { daysBefore, hoursAfter, urlFriendly, type Rng } from './random.js';

export const BRANCHES = [
  { name: 'master', repo: 'fleet/irmn', repoMissing: false },
  { name: 'develop', repo: 'fleet/irmn', repoMissing: false },
  { name: 'release/8.0', repo: 'fleet/irmn', repoMissing: false },
  { name: 'release/8.1', repo: 'fleet/irmn', repoMissing: false },
  { name: 'release/8.2', repo: 'fleet/irmn', repoMissing: false },
  { name: 'feature/fiber-trace-v2', repo: 'fleet/irmn', repoMissing: false },
  { name: 'feature/redis-session-cache', repo: 'fleet/irmn', repoMissing: false },
  { name: 'hotfix/8.1.3-license-check', repo: 'fleet/irmn', repoMissing: false },
  { name: 'feature/legacy-cad-bridge', repo: 'fleet/cad-bridge', repoMissing: true },
] as const;

/** Commits per branch for each software key (about 30 in all). */
const COMMITS_PER_BRANCH: Record<string, number> = {
  master: 8,
  develop: 8,
  'release/8.0': 2,
  'release/8.1': 6,
  'release/8.2': 4,
  'feature/fiber-trace-v2': 1,
  'feature/redis-session-cache': 1,
  'hotfix/8.1.3-license-check': 1,
  'feature/legacy-cad-bridge': 1,
};

const VERBS = ['Fix', 'Add', 'Improve', 'Refactor', 'Remove', 'Speed up', 'Harden', 'Log', 'Validate', 'Retry'];
const SUBJECTS = [
  'connection pool exhaustion',
  'site sync',
  'license check',
  'backup upload',
  'session timeout',
  'circuit trace export',
  'rack elevation rendering',
  'configuration reload',
  'health probe',
  'schema migration',
  'SSO redirect',
  'report scheduling',
  'audit log paging',
  'certificate renewal',
  'library import',
];
const CONDITIONS = [
  'when the site master restarts during a deploy',
  'for accounts with more than 20 sites',
  'on Linux images',
  'after restoring a backup from 8.0',
  'under heavy load',
  '',
  '',
  '',
];
const BREAKING = [
  'Requires database migration 2026.3; restore older backups with 8.1 tools first',
  'Drops support for TLS 1.1 clients',
  'Changes the config key siteMaster.dataPath; update deployer configs',
  'Site master and launcher must be upgraded together',
];

export interface SeedCommit {
  software: string;
  branch: string;
  shortHash: string;
  fullHash: string;
  timestamp: Date;
}

export interface SeedLibraryFile {
  id: number;
  name: string;
  package: string;
  type: 'Dev' | 'Prod' | 'Custom';
  version: string;
}

export interface SoftwareCatalogue {
  libraryFiles: SeedLibraryFile[];
  /** The `index`-th newest commit of `software` on `branch` (clamped; falls back to master). */
  commitAt(software: string, branch: string, index: number): SeedCommit;
  /** A selected version as the version picker writes it: `{branch}|{shortHash}` (spec 3 §4). */
  versionRef(software: string, branch: string, index: number): string;
}

/** Inserts branches, commits, builds and library files; returns lookups for the images and accounts. */
export async function seedSoftware(db: DbOrTx, rng: Rng): Promise<SoftwareCatalogue> {
  const branchRows = await db.insert(softwareBranches).values([...BRANCHES]).returning({ id: softwareBranches.id, name: softwareBranches.name });
  const branchId = new Map(branchRows.map((b) => [b.name, b.id]));

  const byKey = new Map<string, SeedCommit[]>();
  const commitRows: (typeof softwareCommits.$inferInsert)[] = [];
  const buildRows: (typeof softwareBuilds.$inferInsert)[] = [];
  let tagId = 0;
  for (const software of SOFTWARE_KEYS) {
    for (const [branch, count] of Object.entries(COMMITS_PER_BRANCH)) {
      // Newest first: index 0 is the branch head.
      const ages = Array.from({ length: count }, () => rng.int(0, 240) + rng.next()).sort((a, b) => a - b);
      const commits = ages.map((age, index) => {
        const fullHash = rng.hex(40);
        const commit: SeedCommit = { software, branch, shortHash: fullHash.slice(0, 7), fullHash, timestamp: daysBefore(age) };
        const tags: { id: number; name: string }[] = [];
        const builds: { name: string; type: string; hash: string }[] = [];
        if (branch === 'release/8.1' && index % 3 === 0) tags.push({ id: ++tagId, name: `v8.1.${3 - index / 3}` });
        if (branch === 'release/8.0' && index === 0) tags.push({ id: ++tagId, name: 'v8.0.7' });
        if (branch === 'release/8.2' && index < 2) tags.push({ id: ++tagId, name: `v8.2.0-rc${2 - index}` });
        if (tags[0]) builds.push({ name: `${software}-${tags[0].name.slice(1)}.${1402 - index * 37}`, type: 'Release', hash: commit.shortHash });
        if ((branch === 'develop' && index < 3) || (branch === 'master' && index < 2)) {
          builds.push({ name: `${software}-${branch === 'develop' ? '8.2.0' : '8.1.4'}.${1520 - index * 3}-daily`, type: 'Daily', hash: commit.shortHash });
        }
        const subject = `${rng.pick(VERBS)} ${rng.pick(SUBJECTS)}`;
        const condition = rng.pick(CONDITIONS);
        const isBreaking = branch !== 'release/8.0' && rng.chance(0.05);
        commitRows.push({
          software,
          branchId: branchId.get(branch) ?? 1,
          shortHash: commit.shortHash,
          fullHash,
          author: rng.pick(DEVELOPERS),
          isBreaking,
          breakingMsg: isBreaking ? rng.pick(BREAKING) : null,
          timestamp: commit.timestamp,
          message: `${subject}${condition ? ` ${condition}` : ''} (${software})`,
          tags,
          builds,
        });
        for (const build of builds) {
          const type = build.type.toLowerCase();
          buildRows.push({
            software,
            name: build.name,
            url: `https://builds.fleet.example.net/${software}/${type}/${build.name}.zip`,
            lastModified: hoursAfter(rng.int(1, 6), commit.timestamp),
            size: rng.int(20_000_000, 420_000_000),
            hash: build.hash,
            type: build.type,
          });
        }
        return commit;
      });
      byKey.set(`${software}/${branch}`, commits);
    }
  }
  await insertMany(db, softwareCommits, commitRows);
  await insertMany(db, softwareBuilds, buildRows);

  const files = await db.insert(libraryFiles).values(libraryFileRows(rng)).returning({
    id: libraryFiles.id,
    name: libraryFiles.name,
    package: libraryFiles.package,
    type: libraryFiles.type,
    version: libraryFiles.version,
  });

  const commitAt = (software: string, branch: string, index: number): SeedCommit => {
    const list = byKey.get(`${software}/${branch}`) ?? byKey.get(`${software}/master`) ?? [];
    const commit = list[Math.min(Math.max(index, 0), list.length - 1)];
    if (!commit) throw new Error(`No seeded commit of ${software}`);
    return commit;
  };
  return {
    libraryFiles: files.map((f) => ({ ...f, type: f.type as SeedLibraryFile['type'] })),
    commitAt,
    versionRef: (software, branch, index) => `${branch}|${commitAt(software, branch, index).shortHash}`,
  };
}

const PACKAGES = ['Core', 'Fiber', 'Power', 'Network', 'Cabling', 'DataCenter', 'Security', 'Telecom'] as const;

/** About 60 files: per package Prod and Dev files of IRMN 8.0 to 8.2, plus customers' Custom files. */
function libraryFileRows(rng: Rng): (typeof libraryFiles.$inferInsert)[] {
  const plan: [version: string, type: 'Dev' | 'Prod', patch: number][] = [
    ['8.0', 'Prod', 7],
    ['8.1', 'Prod', 2],
    ['8.1', 'Prod', 3],
    ['8.1', 'Dev', 4],
    ['8.2', 'Dev', 0],
    ['8.2', 'Dev', 1],
  ];
  const rows: (typeof libraryFiles.$inferInsert)[] = [];
  for (const pkg of PACKAGES) {
    for (const [version, type, patch] of plan) {
      const name = `${pkg}_${type}_${version}.${patch}.zip`;
      rows.push({
        name,
        url: `https://library.fleet.example.net/files/${pkg}/${name}`,
        package: pkg,
        type,
        version,
        inS3: rng.chance(0.94),
        addedBy: type === 'Prod' || rng.chance(0.4) ? 'lct2' : rng.pick(STAFF).username,
        date: daysBefore((version === '8.0' ? 400 : version === '8.1' ? 200 - patch * 30 : 40 - patch * 15) + rng.int(0, 10)),
      });
    }
  }
  for (const customer of CUSTOMERS.slice(0, 12)) {
    const pkg = rng.pick(PACKAGES);
    const name = `Custom_${urlFriendly(customer)}_${rng.int(1, 4)}.zip`;
    rows.push({
      name,
      url: `https://library.fleet.example.net/files/Custom/${name}`,
      package: pkg,
      type: 'Custom',
      version: '8.1',
      inS3: true,
      addedBy: rng.pick(STAFF).username,
      date: daysBefore(rng.int(5, 300)),
    });
  }
  return rows;
}
