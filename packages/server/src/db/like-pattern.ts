/**
 * LIKE patterns of text typed by a user (the search boxes of the catalogues,
 * the SaaS images, the configuration catalogues, the machine lookup and the
 * updater's machine filter): the text matches literally, its `%`, `_` and `\`
 * escaped (PostgreSQL's default escape character), so that `m_-` finds the
 * three characters and not any letter followed by a dash. Use it with `ilike`
 * for a case-insensitive match.
 */

/** A LIKE pattern matching `text` literally anywhere (or at the start with `prefix`). */
export function likePattern(text: string, prefix = false): string {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return prefix ? `${escaped}%` : `%${escaped}%`;
}
