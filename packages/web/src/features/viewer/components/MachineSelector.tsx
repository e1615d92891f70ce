/**
 * The viewers' machine selector (spec 2 §2.1, §2.5, §2.6): every machine of the
 * lookup (`GET /lookup/machines`) as `name (class)`, searchable, clearable ("All
 * machines"). An id that the lookup does not list (a machine hidden or gone, an
 * id typed into the URL) is still shown, as `Machine {id}`, and still filters.
 */
import { Select, Typography } from 'antd';
import { useMachineLookup } from '../api/queries';

export interface MachineSelectorProps {
  /** Id of the select element (its label points at it). */
  id: string;
  value: number | undefined;
  onChange(machineId: number | undefined): void;
}

export function MachineSelector({ id, value, onChange }: MachineSelectorProps) {
  const machines = useMachineLookup();
  const options = (machines.data ?? []).map((m) => ({ value: m.id, label: `${m.name} (${m.className})` }));
  if (value !== undefined && machines.isSuccess && !options.some((o) => o.value === value)) {
    options.unshift({ value, label: `Machine ${value}` });
  }
  return (
    <>
      <label htmlFor={id}>
        <Typography.Text>Machine</Typography.Text>
      </label>
      <Select
        id={id}
        style={{ width: 360, maxWidth: '100%' }}
        placeholder="All machines"
        allowClear
        value={value}
        onChange={(v: number | undefined) => onChange(v)}
        loading={machines.isLoading}
        showSearch={{ optionFilterProp: 'label' }}
        options={options}
      />
    </>
  );
}
