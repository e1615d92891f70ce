/**
 * The Operations viewer's filters (spec 2 §2.6; issue 24 point 7), beside the
 * machine selector in the viewers' toolbar: status (several; QUEUED and
 * PENDING included), operation type, class (Customer Production only for the
 * group CustomerProductionAccess, as the server shows it) and the time range
 * of the queue time (date and time in the browser's zone, shown with its
 * offset from UTC; either end open).
 * Each change goes into the URL (`use-operations-params.ts`).
 */
import { Select } from 'antd';
import { OPERATION_FILTER_STATUSES, OPERATION_TYPE_NAMES, type TOperationFilterStatus, type TOperationTypeName } from '@fleet/contracts';
import { ClassFilter } from '../../viewer/components/ClassFilter';
import { FilterSelect } from '../../viewer/components/FilterSelect';
import { TimeRangeFilter } from '../../viewer/components/TimeRangeFilter';
import type { OperationsFilter } from '../use-operations-params';

const STATUS_OPTIONS = OPERATION_FILTER_STATUSES.map((s) => ({ value: s, label: s }));
const TYPE_OPTIONS = OPERATION_TYPE_NAMES.map((t) => ({ value: t, label: t }));

interface Props {
  filter: OperationsFilter;
  /** Sets the URL parameters given (undefined removes one); back to page 1. */
  onChange(values: Record<string, string | undefined>): void;
}

export function OperationFilters({ filter, onChange }: Props) {
  return (
    <>
      <Select<TOperationFilterStatus[]>
        mode="multiple"
        aria-label="Status"
        placeholder="All statuses"
        allowClear
        maxTagCount="responsive"
        options={STATUS_OPTIONS}
        value={filter.status}
        onChange={(status) => onChange({ status: status.length > 0 ? status.join(',') : undefined })}
        style={{ width: 200 }}
      />
      <FilterSelect<TOperationTypeName>
        label="Operation type"
        placeholder="All operations"
        showSearch
        options={TYPE_OPTIONS}
        value={filter.type}
        onChange={(type) => onChange({ type })}
        width={190}
      />
      <ClassFilter value={filter.classId} onChange={(classId) => onChange({ class: classId === undefined ? undefined : String(classId) })} />
      <TimeRangeFilter
        label="Queued between"
        id="operations"
        placeholder={['Queued from', 'Queued to']}
        value={filter}
        onChange={({ from, to }) => onChange({ from, to })}
      />
    </>
  );
}
