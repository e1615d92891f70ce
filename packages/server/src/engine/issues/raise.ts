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
  const description = occurrence.description.replace(/\s+/g, ' ').trim().slice(0, ISSUE_DESCRIPTION_MAX_LENGTH) || occurrence.source;
  const fingerprint = issueFingerprint(description);
  const tags = cleanTags(occurrence.tags);
  const content = occurrence.content.slice(0, ISSUE_LOG_MAX_CONTENT);
  const when = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  const tagArray = sql`array(select jsonb_array_elements_text(${JSON.stringify(tags)}::jsonb))`;
  await db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ id: number; count: number }>(sql`
      insert into issues (machine_id, source, fingerprint, description, tags, count, first_occurrence_time, last_occurrence_time, is_resolved)
      values (${occurrence.machineId}, ${occurrence.source}, ${fingerprint}, ${description}, ${tagArray}, 1, ${when}, ${when}, false)
      on conflict (machine_id, source, fingerprint) do update set
        count = issues.count + 1,
        description = excluded.description,
        first_occurrence_time = least(issues.first_occurrence_time, excluded.first_occurrence_time),
        last_occurrence_time = greatest(issues.last_occurrence_time, excluded.last_occurrence_time),
        tags = array(select u.t from unnest(issues.tags || excluded.tags) with ordinality u(t, n)
                     group by u.t order by min(u.n) limit ${ISSUE_MAX_TAGS}),
        is_resolved = false,
        resolved_at = null
      returning id, count`);
    const issue = rows[0]!;
    await tx.execute(sql`
      insert into issue_logs (issue_id, timestamp, content, tags, size, complete)
      values (${issue.id}, ${when}, ${content}, ${tagArray}, ${occurrence.content.length}, ${content.length === occurrence.content.length})`);
    if (issue.count > ISSUE_LOG_RETAINED) {
      await tx.execute(sql`
        delete from issue_logs where issue_id = ${issue.id} and id < (
          select l.id from issue_logs l where l.issue_id = ${issue.id} order by l.id desc offset ${ISSUE_LOG_RETAINED - 1} limit 1)`);
    }
  });
}
