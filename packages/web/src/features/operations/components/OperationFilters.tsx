/**
 * The Operations viewer's filters (spec 2 §2.6; issue 24 point 7), beside the
 * machine selector in the viewers' toolbar: status (several; QUEUED and
 * PENDING included), operation type, class (Customer Production only for the
 * group CustomerProductionAccess, as the server shows it) and the time range
 * of the queue time (date and time in the browser's zone, shown with its
 * offset from UTC; either end open).
 * Each change goes into the URL (`use-operations-params.ts`).
 */
import { DatePicker, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { OPERATION_FILTER_STATUSES, OPERATION_TYPE_NAMES, type TOperationFilterStatus, type TOperationTypeName } from '@fleet/contracts';
import { useAuth } from '../../../app/auth/auth-context';
import { zonedPickerFormat } from '../../../lib/format';
import { selectableClasses } from '../../accounts/use-account-list-params';
import type { OperationsFilter } from '../use-operations-params';

const STATUS_OPTIONS = OPERATION_FILTER_STATUSES.map((s) => ({ value: s, label: s }));
const TYPE_OPTIONS = OPERATION_TYPE_NAMES.map((t) => ({ value: t, label: t }));

type Range = [Dayjs | null, Dayjs | null] | null;

interface Props {
  filter: OperationsFilter;
  /** Sets the URL parameters given (undefined removes one); back to page 1. */
  onChange(values: Record<string, string | undefined>): void;
}

export function OperationFilters({ filter, onChange }: Props) {
  const { hasCustomerProductionAccess } = useAuth();
  const classOptions = selectableClasses(hasCustomerProductionAccess).map((c) => ({ value: c.id as number, label: c.name }));
  const range: Range = filter.from || filter.to ? [filter.from ? dayjs(filter.from) : null, filter.to ? dayjs(filter.to) : null] : null;
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
      <Select<TOperationTypeName>
        aria-label="Operation type"
        placeholder="All operations"
        allowClear
        showSearch
        options={TYPE_OPTIONS}
        value={filter.type}
        onChange={(type) => onChange({ type })}
        style={{ width: 190 }}
      />
      <Select<number>
        aria-label="Class"
        placeholder="All classes"
        allowClear
        options={classOptions}
        value={filter.classId}
        onChange={(classId) => onChange({ class: classId === undefined ? undefined : String(classId) })}
        style={{ width: 170 }}
      />
      <DatePicker.RangePicker
        aria-label="Queued between"
        id={{ start: 'operations-from', end: 'operations-to' }}
        showTime={{ format: 'HH:mm' }}
        format={zonedPickerFormat()}
        allowEmpty={[true, true]}
        placeholder={['Queued from', 'Queued to']}
        value={range}
        onChange={(value) => {
          const [from, to] = (value as Range) ?? [null, null];
          onChange({ from: from?.toISOString(), to: to?.toISOString() });
        }}
        style={{ width: 480 }}
      />
    </>
  );
}
