/**
 * The Issue viewer's tag filter (spec 2 §2.5, §5): a button showing the tag
 * count (`Tags (2)`) that opens a popover with an input (a tag is added on
 * Enter or when the input loses focus: trimmed, blank and duplicate tags
 * ignored), the tags with a close icon each, and Clear all.
 *
 * The input suggests the tags in use on the issues the viewer's filter matches
 * (`GET /issues/tags`: machine, status, class, time range and the tags already chosen, most used
 * first, with their issue counts), read while the popover is open and narrowed
 * by the text typed; picking one (click, or arrows and Enter) adds it. Enter
 * without a highlighted suggestion adds the text typed.
 */
import { useState } from 'react';
import { AutoComplete, Button, Flex, Popover, Tag, Typography } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { ISSUE_TAG_MAX_LENGTH, type TIssueStatus } from '@fleet/contracts';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import type { IssuesFilterQuery } from '../api/keys';
import { useIssueTags } from '../api/queries';
import { addTag, joinTags, removeTag, tagButtonText } from '../issue-rules';

/** How long the typed text rests before the suggestions are asked for it, ms. */
const SUGGEST_DEBOUNCE_MS = 250;

const matches = (input: string, option?: { value: string }) => (option?.value ?? '').toLowerCase().includes(input.trim().toLowerCase());

export interface TagFilterProps {
  tags: string[];
  /** The rest of the viewer's filter, which the suggestions follow. */
  machineId: number | undefined;
  status: TIssueStatus;
  /** The machine's class and the last occurrence's range. */
  filter: Pick<IssuesFilterQuery, 'classId' | 'from' | 'to'>;
  onChange: (tags: string[]) => void;
}

export function TagFilter({ tags, machineId, status, filter, onChange }: TagFilterProps) {
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const search = useDebouncedValue(draft.trim(), SUGGEST_DEBOUNCE_MS);
  const suggestions = useIssueTags({ machineId, tags: joinTags(tags), status, classId: filter.classId, from: filter.from, to: filter.to, search }, open);
  const options = (suggestions.data?.items ?? [])
    .filter((s) => !tags.includes(s.tag))
    .map((s) => ({
      value: s.tag,
      label: (
        <Flex justify="space-between" gap={8}>
          <span className="issue-tag-suggestion">{s.tag}</span>
          <Typography.Text type="secondary" title={`${s.issueCount} ${s.issueCount === 1 ? 'issue' : 'issues'}`}>
            {s.issueCount}
          </Typography.Text>
        </Flex>
      ),
    }));

  const add = (raw: string) => {
    const next = addTag(tags, raw);
    setDraft('');
    if (next.length !== tags.length) onChange(next);
  };

  const content = (
    <Flex vertical gap={8} style={{ width: 280 }}>
      <AutoComplete
        aria-label="Add tag"
        placeholder="Add a tag and press Enter"
        value={draft}
        options={options}
        filterOption={matches}
        defaultActiveFirstOption={false}
        maxLength={ISSUE_TAG_MAX_LENGTH}
        notFoundContent={suggestions.isFetching ? 'Loading tags…' : undefined}
        onChange={(v: string) => setDraft(v)}
        onSelect={(v: string) => add(v)}
        // A highlighted suggestion takes Enter itself (the event is then default-prevented).
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.defaultPrevented) add(draft);
        }}
        onBlur={() => add(draft)}
      />
      {tags.length === 0 ? (
        <Typography.Text type="secondary">No tags: every issue is shown.</Typography.Text>
      ) : (
        <Flex wrap gap={4} aria-label="Tag filter">
          {tags.map((t) => (
            <Tag key={t} closable onClose={() => onChange(removeTag(tags, t))} closeIcon={<span aria-label={`Remove tag ${t}`}>×</span>}>
              {t}
            </Tag>
          ))}
        </Flex>
      )}
      <Button size="small" disabled={tags.length === 0} onClick={() => onChange([])}>
        Clear all
      </Button>
    </Flex>
  );

  return (
    <Popover trigger="click" placement="bottomLeft" title="Filter by tags" content={content} open={open} onOpenChange={setOpen}>
      <Button icon={<FilterOutlined aria-hidden />} type={tags.length > 0 ? 'primary' : 'default'}>
        {tagButtonText(tags)}
      </Button>
    </Popover>
  );
}
