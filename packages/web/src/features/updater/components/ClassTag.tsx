/** A class as a coloured tag beside a target's name (spec 3 §3 Machine and Account for the updater). */
import { Tag } from 'antd';
import { CLASS_CUSTOMER_PRODUCTION, CLASS_CUSTOMER_STAGING, CLASS_EXPERIMENTAL, CLASS_INTERNAL_PRODUCTION, CLASS_INTERNAL_TESTING } from '@fleet/contracts';

const CLASS_COLORS: Record<number, string> = {
  [CLASS_EXPERIMENTAL]: 'purple',
  [CLASS_INTERNAL_TESTING]: 'blue',
  [CLASS_INTERNAL_PRODUCTION]: 'cyan',
  [CLASS_CUSTOMER_STAGING]: 'orange',
  [CLASS_CUSTOMER_PRODUCTION]: 'red',
};

export function ClassTag({ classId, name }: { classId: number; name: string }) {
  return (
    <Tag color={CLASS_COLORS[classId]} style={{ marginInlineStart: 8 }}>
      {name}
    </Tag>
  );
}
