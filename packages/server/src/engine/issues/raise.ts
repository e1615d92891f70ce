/**
 * The shared issue-raising call (DESIGN §14). STUB in this branch: the issues
 * part of issue 11 owns this file and replaces it at merge with the real one
 * (open, count or reopen the issue of the occurrence's fingerprint). Its
 * signature is the agreed one; this body records nothing.
 */
import type { DbOrTx } from '../../db/client.js';

export type IssueSource = 'operation' | 'panic' | 'standby' | 'probe' | 'server-status' | 'task';

export interface IssueOccurrence {
  machineId: number;
  source: IssueSource;
  description: string;
  tags: string[];
  content: string;
}

/** Records one occurrence: opens, counts or reopens the issue of its fingerprint (machine, source, normalised description). */
export async function raiseIssue(db: DbOrTx, occurrence: IssueOccurrence, at?: Date): Promise<void> {
  void db;
  void occurrence;
  void at;
}
