/**
 * The Machines viewer's filter controls (spec 2 §2.7; issue 24 point 4): class,
 * needs admin, turbo and unmanaged (Any, Yes, No), kept in the URL by
 * `use-machines-viewer-filters.ts`; the top bar's chips open the viewer with one set.
 */
import { Button } from 'antd';
import { ACCOUNT_CLASSES, CLASS_ADD_ON } from '@fleet/contracts';
import { FilterSelect } from './components/FilterSelect';
import { MACHINE_FLAG_FILTERS, type MachineFlagFilter, type useMachinesViewerFilters } from './use-machines-viewer-filters';

const FLAG_LABELS: Record<MachineFlagFilter, string> = { needsAdmin: 'Needs admin', turbo: 'Turbo', unmanaged: 'Unmanaged' };
const CLASS_OPTIONS = ACCOUNT_CLASSES.filter((c) => c.id !== CLASS_ADD_ON).map((c) => ({ value: c.id, label: c.name }));
const YES_NO = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

export function MachinesViewerFilters({ filters, setClass, setFlag, clear }: ReturnType<typeof useMachinesViewerFilters>) {
  const any = filters.classId !== undefined || MACHINE_FLAG_FILTERS.some((f) => filters[f] !== undefined);
  return (
    <>
      <FilterSelect<number> label="Class" placeholder="Any class" width={180} value={filters.classId} options={CLASS_OPTIONS} onChange={setClass} />
      {MACHINE_FLAG_FILTERS.map((name) => (
        <FilterSelect<string>
          key={name}
          label={FLAG_LABELS[name]}
          placeholder={`${FLAG_LABELS[name]}: any`}
          width={175}
          value={filters[name] === undefined ? undefined : String(filters[name])}
          options={YES_NO.map((o) => ({ value: o.value, label: `${FLAG_LABELS[name]}: ${o.label}` }))}
          onChange={(v) => setFlag(name, v === undefined ? undefined : v === 'true')}
        />
      ))}
      {any && <Button onClick={clear}>Clear filters</Button>}
    </>
  );
}
