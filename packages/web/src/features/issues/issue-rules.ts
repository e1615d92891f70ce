/**
 * Rules of the Issue viewer (spec 2 §2.5, §5): the tag filter. A tag is added
 * trimmed; a blank or whitespace-only tag and one already in the filter are
 * ignored. Pure functions, unit-tested.
 */
import { ISSUE_FILTER_MAX_TAGS, ISSUE_TAG_MAX_LENGTH } from '@fleet/contracts';

/** The filter with `raw` added (trimmed), or the same filter when `raw` is blank, already there, too long or the filter is full. */
export function addTag(tags: readonly string[], raw: string): string[] {
  const tag = raw.trim();
  if (tag === '' || tag.length > ISSUE_TAG_MAX_LENGTH || tags.includes(tag) || tags.length >= ISSUE_FILTER_MAX_TAGS) return [...tags];
  return [...tags, tag];
}

/** The filter without `tag`. */
export function removeTag(tags: readonly string[], tag: string): string[] {
  return tags.filter((t) => t !== tag);
}

/** The tag filter button's text: `Tags`, or `Tags (n)` with n tags. */
export function tagButtonText(tags: readonly string[]): string {
  return tags.length === 0 ? 'Tags' : `Tags (${tags.length})`;
}

/** Tags as the URL and the API carry them: comma-joined (a tag cannot hold a comma: it would split). */
export function joinTags(tags: readonly string[]): string | undefined {
  return tags.length === 0 ? undefined : tags.join(',');
}
