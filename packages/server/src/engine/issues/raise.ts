/**
 * Raising issues (DESIGN §14; invariants in `README.md` beside this file): every
 * part of the engine that finds a problem on a machine records an occurrence
 * with {@link raiseIssue}, inside the transaction of the state change it belongs
 * to when there is one, so that a crash can neither lose nor duplicate it.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  ISSUE_DESCRIPTION_MAX_LENGTH,
  ISSUE_LOG_MAX_CONTENT,
  ISSUE_LOG_RETAINED,
  ISSUE_MAX_TAGS,
  ISSUE_TAG_MAX_LENGTH,
} from '@fleet/contracts';
import type { DbOrTx } from '../../db/client.js';

export type IssueSource = 'operation' | 'panic' | 'standby' | 'probe' | 'server-status' | 'task';

export interface IssueOccurrence {
  machineId: number;
  source: IssueSource;
  /** What went wrong, one line; numbers, ids and times in it do not split the issue (see {@link normaliseDescription}). */
  description: string;
  /** Tags of this occurrence (trimmed; blanks and duplicates dropped; at most 10 kept). */
  tags: string[];
  /** The log of this occurrence: output lines, the error, the status read. */
  content: string;
}

const TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
/** Hexadecimal ids and hashes (at least 8 digits with at least one digit 0-9), cloud ids such as `i-0abc12345`. */
const HEX_ID = /\b(?:[a-z]{1,4}-)?(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi;
const NUMBER = /\d+(?:[.,]\d+)*/g;

/**
 * The description with what varies between occurrences of one problem taken out:
 * times (`<time>`), UUIDs and hex ids (`<id>`), numbers (`<n>`); whitespace
 * collapsed, case kept. "Timed out after 600 s (attempt 2)" and "Timed out after
 * 900 s (attempt 3)" are one problem.
 */
export function normaliseDescription(description: string): string {
  return description
    .replace(TIME, '<time>')
    .replace(UUID, '<id>')
    .replace(HEX_ID, '<id>')
    .replace(NUMBER, '<n>')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The fingerprint of an occurrence within its machine and source: SHA-256 hex of the normalised description. */
export function issueFingerprint(description: string): string {
  return createHash('sha256').update(normaliseDescription(description)).digest('hex');
}

/** Trimmed, non-blank, distinct tags, each cut at the tag length, at most `max`. */
export function cleanTags(tags: string[], max = 10): string[] {
  const out: string[] = [];
  for (const t of tags) {
    const tag = t.trim().slice(0, ISSUE_TAG_MAX_LENGTH);
    if (tag.length > 0 && !out.includes(tag)) out.push(tag);
    if (out.length >= max) break;
  }
  return out;
}

/**
 * Records one occurrence: opens, counts or reopens the issue of its fingerprint
 * (machine, source, normalised description). In one statement under the unique
 * index (an upsert), so two concurrent occurrences make one issue of count 2:
 * - new fingerprint: an open issue, count 1, first and last occurrence `at`;
 * - known fingerprint: count + 1, last occurrence the later of both, the
 *   description of this occurrence, tags the union (first ones kept, at most
 *   `ISSUE_MAX_TAGS`), and a resolved issue reopens (a regression);
 * then adds the occurrence's log (content cut at `ISSUE_LOG_MAX_CONTENT`,
 * `complete` false when cut) and deletes the logs past the newest
 * `ISSUE_LOG_RETAINED`. `at` defaults to the database's now.
 *
 * Runs in a savepoint of `db` when it is a transaction (the caller's change and
 * the issue commit together), else in its own transaction.
 * Throws what PostgreSQL throws (an unknown machine id violates the foreign key).
 */
export async function raiseIssue(db: DbOrTx, occurrence: IssueOccurrence, at?: Date): Promise<void> {
  await raiseIssues(db, [occurrence], at);
}

/** An occurrence as it is stored: description cleaned, fingerprint, tags, content cut. */
interface StoredOccurrence {
  machineId: number;
  source: IssueSource;
  fingerprint: string;
  description: string;
  tags: string[];
  content: string;
  /** Length of the whole content, before the cut. */
  size: number;
  /** Not cut. */
  complete: boolean;
}

function stored(occurrence: IssueOccurrence): StoredOccurrence {
  const description = occurrence.description.replace(/\s+/g, ' ').trim().slice(0, ISSUE_DESCRIPTION_MAX_LENGTH) || occurrence.source;
  return {
    machineId: occurrence.machineId,
    source: occurrence.source,
    fingerprint: issueFingerprint(description),
    description,
    tags: cleanTags(occurrence.tags),
    content: occurrence.content.slice(0, ISSUE_LOG_MAX_CONTENT),
    size: occurrence.content.length,
    complete: occurrence.content.length <= ISSUE_LOG_MAX_CONTENT,
  };
}

/**
 * Records many occurrences at `at` as {@link raiseIssue} records one, in a few
 * statements however many there are (the site server status check raises
 * thousands at once on a large fleet): one upsert of the issues with their
 * logs, one delete of the logs past the retained ones. Occurrences of one
 * fingerprint are recorded one after the other, in order (a statement may
 * change a row once). In a savepoint of `db` when it is a transaction, else in
 * its own transaction: all or none.
 */
export async function raiseIssues(db: DbOrTx, occurrences: IssueOccurrence[], at?: Date): Promise<void> {
  if (occurrences.length === 0) return;
  const when = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  // Rounds of distinct fingerprints: the n-th occurrence of each key goes in round n.
  const rounds: StoredOccurrence[][] = [];
  const seen = new Map<string, number>();
  for (const o of occurrences.map(stored)) {
    const key = `${o.machineId}\u0000${o.source}\u0000${o.fingerprint}`;
    const round = seen.get(key) ?? 0;
    seen.set(key, round + 1);
    (rounds[round] ??= []).push(o);
  }
  await db.transaction(async (tx) => {
    const overflowing = new Set<number>();
    for (const round of rounds) {
      const { rows } = await tx.execute<{ id: number; count: number }>(sql`
        with input as (
          select x.n, x."machineId" as machine_id, x.source, x.fingerprint, x.description, x.content, x.size, x.complete,
            array(select jsonb_array_elements_text(x.tags)) as tags
          from jsonb_to_recordset(${JSON.stringify(round.map((o, n) => ({ ...o, n })))}::jsonb)
            as x(n int, "machineId" int, source text, fingerprint text, description text, tags jsonb, content text, size int, complete boolean)
        ), raised as (
          insert into issues (machine_id, source, fingerprint, description, tags, count, first_occurrence_time, last_occurrence_time, is_resolved)
          select machine_id, source, fingerprint, description, tags, 1, ${when}, ${when}, false from input order by n
          on conflict (machine_id, source, fingerprint) do update set
            count = issues.count + 1,
            description = excluded.description,
            first_occurrence_time = least(issues.first_occurrence_time, excluded.first_occurrence_time),
            last_occurrence_time = greatest(issues.last_occurrence_time, excluded.last_occurrence_time),
            tags = array(select u.t from unnest(issues.tags || excluded.tags) with ordinality u(t, n)
                         group by u.t order by min(u.n) limit ${ISSUE_MAX_TAGS}),
            is_resolved = false,
            resolved_at = null
          returning id, count, machine_id, source, fingerprint
        ), logged as (
          insert into issue_logs (issue_id, timestamp, content, tags, size, complete)
          select raised.id, ${when}, input.content, input.tags, input.size, input.complete
          from input join raised using (machine_id, source, fingerprint)
          order by input.n
        )
        select id, count from raised`);
      for (const r of rows) if (r.count > ISSUE_LOG_RETAINED) overflowing.add(r.id);
    }
    if (overflowing.size === 0) return;
    await tx.execute(sql`
      delete from issue_logs l using (
        select id, row_number() over (partition by issue_id order by id desc) as newer
        from issue_logs where issue_id = any(${sql.param([...overflowing])}::int[])
      ) r
      where l.id = r.id and r.newer > ${ISSUE_LOG_RETAINED}`);
  });
}
