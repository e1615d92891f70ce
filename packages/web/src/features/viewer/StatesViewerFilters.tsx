/**
 * The States viewer's controls (spec 2 §2.8; issue 24 point 7): the radio
 * Current, Historical or Desired, and the filters class, component, branch
 * (of the component's version; from `GET /software/branches`, once a component
 * is chosen) and the state's time range (stored states only: choosing Desired
 * drops the time range and the order). Each change goes into the URL
 * (`states-filter.ts`).
 */
import { Radio } from 'antd';
import { VERSION_STATE_COMPONENTS, VERSION_STATE_KINDS, type TVersionStateKind } from '@fleet/contracts';
import { componentLabel } from '../../lib/field-labels';
import { useBranches } from '../software-versions/api/queries';
import { ClassFilter } from './components/ClassFilter';
import { FilterSelect } from './components/FilterSelect';
import { TimeRangeFilter } from './components/TimeRangeFilter';
import { STATE_PARAM, type StatesFilter } from './states-filter';

const KIND_OPTIONS = VERSION_STATE_KINDS.map((k) => ({ value: k, label: k }));
const COMPONENT_OPTIONS = VERSION_STATE_COMPONENTS.map((c) => ({ value: c, label: componentLabel(c) }));

interface Props {
  filter: StatesFilter;
  /** Sets the URL parameters given (undefined removes one); back to page 1. */
  onChange(values: Record<string, string | undefined>): void;
}

export function StatesViewerFilters({ filter, onChange }: Props) {
  const branches = useBranches();
  const branchOptions = (branches.data ?? []).map((b) => ({ value: b.name, label: b.name }));
  const desired = filter.state === 'Desired';
  return (
    <>
      <Radio.Group
        aria-label="Version states"
        optionType="button"
        value={filter.state}
        onChange={(e) => {
          const kind = e.target.value as TVersionStateKind;
          const toDesired = kind === 'Desired' ? { from: undefined, to: undefined, sort: undefined, order: undefined } : {};
          onChange({ [STATE_PARAM]: kind === 'Current' ? undefined : kind.toLowerCase(), ...toDesired });
        }}
        options={KIND_OPTIONS}
      />
      <ClassFilter value={filter.classId} onChange={(id) => onChange({ class: id === undefined ? undefined : String(id) })} />
      <FilterSelect<string>
        label="Component"
        placeholder="Any component"
        showSearch
        options={COMPONENT_OPTIONS}
        value={filter.component}
        onChange={(component) => onChange(component ? { component } : { component: undefined, branch: undefined })}
        width={165}
      />
      <FilterSelect<string>
        label="Branch"
        placeholder={filter.component ? 'Any branch' : 'Branch (pick a component)'}
        showSearch
        disabled={!filter.component}
        options={branchOptions}
        value={filter.branch}
        onChange={(branch) => onChange({ branch })}
        width={200}
      />
      <TimeRangeFilter
        label="State time between"
        id="states"
        placeholder={['Time from', 'Time to']}
        value={filter}
        disabled={desired}
        onChange={({ from, to }) => onChange({ from, to })}
      />
    </>
  );
}
