/**
 * The Issue viewer's tag filter (spec 2 §2.5, §5): a button showing the tag
 * count (`Tags (2)`) that opens a popover with an input (a tag is added on
 * Enter or when the input loses focus: trimmed, blank and duplicate tags
 * ignored), the tags with a close icon each, and Clear all.
 */
import { useState } from 'react';
import { Button, Flex, Input, Popover, Tag, Typography } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { ISSUE_TAG_MAX_LENGTH } from '@fleet/contracts';
import { addTag, removeTag, tagButtonText } from '../issue-rules';

export function TagFilter({ tags, onChange }: { tags: string[]; onChange: (tags: string[]) => void }) {
  const [draft, setDraft] = useState('');
  const commit = () => {
    const next = addTag(tags, draft);
    setDraft('');
    if (next.length !== tags.length) onChange(next);
  };

  const content = (
    <Flex vertical gap={8} style={{ width: 280 }}>
      <Input
        aria-label="Add tag"
        placeholder="Add a tag and press Enter"
        value={draft}
        maxLength={ISSUE_TAG_MAX_LENGTH}
        onChange={(e) => setDraft(e.target.value)}
        onPressEnter={commit}
        onBlur={commit}
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
    <Popover trigger="click" placement="bottomLeft" title="Filter by tags" content={content}>
      <Button icon={<FilterOutlined aria-hidden />} type={tags.length > 0 ? 'primary' : 'default'}>
        {tagButtonText(tags)}
      </Button>
    </Popover>
  );
}
