/**
 * The viewers' machine selector (spec 2 §2.1, §2.5, §2.6): the machines of the
 * lookup as `name (class)`, clearable ("All machines"). Typing searches the
 * names on the server (`GET /lookup/machines?search`, debounced), so the fleet
 * is never loaded whole; the selected machine's label comes from its own lookup
 * (`GET /lookup/machines?ids`). An id that the lookup does not know (a machine
 * hidden or gone, an id typed into the URL) is still shown, as `Machine {id}`,
 * and still filters.
 */
import { useState } from 'react';
import { Select, Typography } from 'antd';
import type { TMachineLookup } from '@fleet/contracts';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useMachineEntry, useMachineSearch } from '../api/queries';

/** Debounce of the selector's search, milliseconds. */
export const MACHINE_SEARCH_DEBOUNCE_MS = 300;

export interface MachineSelectorProps {
  /** Id of the select element (its label points at it). */
  id: string;
  value: number | undefined;
  onChange(machineId: number | undefined): void;
}

const label = (m: TMachineLookup) => `${m.name} (${m.className})`;

export function MachineSelector({ id, value, onChange }: MachineSelectorProps) {
  const [search, setSearch] = useState('');
  const settled = useDebouncedValue(search, MACHINE_SEARCH_DEBOUNCE_MS);
  const machines = useMachineSearch(settled);
  const selected = useMachineEntry(value);
  const options = (machines.data ?? []).map((m) => ({ value: m.id, label: label(m) }));
  if (value !== undefined && !options.some((o) => o.value === value)) {
    // Shown while its entry loads too (the id alone), so that the select never shows a bare number.
    options.unshift({ value, label: selected.data ? label(selected.data) : `Machine ${value}` });
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
        onChange={(v: number | undefined) => {
          setSearch('');
          onChange(v);
        }}
        loading={machines.isFetching || search !== settled}
        showSearch={{ filterOption: false, onSearch: setSearch, searchValue: search }}
        notFoundContent={machines.isError ? 'Machines could not be loaded' : undefined}
        options={options}
      />
    </>
  );
}
