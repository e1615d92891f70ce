import { describe, expect, it } from 'vitest';
import { addTag, joinTags, removeTag, tagButtonText } from './issue-rules';

describe('the tag filter (spec 2 §5)', () => {
  it('adds a tag trimmed, ignoring blank, whitespace-only and duplicate tags', () => {
    expect(addTag([], '  panic ')).toEqual(['panic']);
    expect(addTag(['panic'], '')).toEqual(['panic']);
    expect(addTag(['panic'], '   \t')).toEqual(['panic']);
    expect(addTag(['panic'], ' panic')).toEqual(['panic']);
    expect(addTag(['panic'], 'Backup')).toEqual(['panic', 'Backup']);
    expect(addTag(['panic'], 'x'.repeat(61))).toEqual(['panic']);
  });

  it('removes one tag and counts them on the button', () => {
    expect(removeTag(['a', 'b', 'c'], 'b')).toEqual(['a', 'c']);
    expect(tagButtonText([])).toBe('Tags');
    expect(tagButtonText(['a', 'b'])).toBe('Tags (2)');
    expect(joinTags([])).toBeUndefined();
    expect(joinTags(['a', 'b'])).toBe('a,b');
  });
});
