/**
 * SQL behind the validation of an instance settings push: commit facts
 * (timestamp, breaking), the account's machines and library file versions.
 */
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { libraryFiles, machines, softwareCommits } from '../../db/schema.js';

/** Commits whose short or full hash is one of `hashes`, with what validation needs. */
export async function selectCommitFacts(db: DbOrTx, hashes: string[]) {
  if (hashes.length === 0) return [];
  return db
    .select({
      software: softwareCommits.software,
      shortHash: softwareCommits.shortHash,
      fullHash: softwareCommits.fullHash,
      timestamp: softwareCommits.timestamp,
      isBreaking: softwareCommits.isBreaking,
      breakingMsg: softwareCommits.breakingMsg,
    })
    .from(softwareCommits)
    .where(or(inArray(softwareCommits.shortHash, hashes), inArray(softwareCommits.fullHash, hashes)));
}

/** Live machines of the account not being terminated, with the flags that hold back an update. */
export const selectAccountMachines = (db: DbOrTx, accountId: number) =>
  db
    .select({
      name: machines.name,
      managed: machines.managed,
      manualMaintenance: machines.manualMaintenance,
      needsAdmin: machines.needsAdmin,
      stop: machines.stop,
      idle: machines.idle,
    })
    .from(machines)
    .where(and(eq(machines.accountId, accountId), isNull(machines.deletedAt), eq(machines.terminate, false)))
    .orderBy(machines.name);

export const selectLibraryFiles = (db: DbOrTx, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db.select({ id: libraryFiles.id, name: libraryFiles.name, version: libraryFiles.version }).from(libraryFiles).where(inArray(libraryFiles.id, ids));
