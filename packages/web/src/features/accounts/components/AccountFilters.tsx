/**
 * Filters of the accounts list (spec 1 §2 Accounts list): MMA class
 * (multi-select, every class: without group CustomerProductionAccess the
 * Customer Production accounts are listed as restricted rows, name and class only),
 * SaaS image (from `GET /cloud/images`, unique names), machine status include
 * and exclude, and a free-text search applied 500 ms after the last keystroke
 * (spec 1 §9) or at once on Enter.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Input, Select } from 'antd';
import { FilterBar, FilterField } from '../../../components/FilterBar';
import { MACHINE_STATUSES, MACHINE_STATUS_LABELS } from '@fleet/contracts';
import { SEARCH_DEBOUNCE_MS } from '../../../lib/use-debounced-value';
import { useSaasImages } from '../../catalogues/api/queries';
import { LIST_CLASS_OPTIONS, type AccountListFilters } from '../use-account-list-params';

const STATUS_OPTIONS = MACHINE_STATUSES.map((s) => ({ value: s, label: MACHINE_STATUS_LABELS[s] }));

interface Props {
  filters: AccountListFilters;
  onChange(patch: Partial<AccountListFilters>): void;
}

export function AccountFilters({ filters, onChange }: Props) {
  const images = useSaasImages();
  const imageOptions = useMemo(
    () => [...new Set((images.data ?? []).map((i) => i.name))].sort().map((name) => ({ value: name, label: name })),
    [images.data],
  );

  // The box shows what the user types; the URL follows after the debounce. When
  // the URL changes from elsewhere (back button, link), the box follows the URL.
  const [text, setText] = useState(filters.search);
  const [seenSearch, setSeenSearch] = useState(filters.search);
  if (filters.search !== seenSearch) {
    setSeenSearch(filters.search);
    setText(filters.search);
  }
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const onSearchChange = (value: string) => {
    setText(value);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => onChange({ search: value }), SEARCH_DEBOUNCE_MS);
  };
  const onSearchNow = (value: string) => {
    window.clearTimeout(timer.current);
    onChange({ search: value });
  };

  return (
    // Filters share a row and wrap on a narrow screen; a cap on their width keeps a
    // wrapped one from stretching across the whole row.
    <FilterBar>
      <FilterField label="Search" htmlFor="accounts-search" style={{ flex: '1 1 180px', maxWidth: 360 }}>
        <Input
          id="accounts-search"
          type="search"
          placeholder="Name, URL name, customer or creator"
          allowClear
          value={text}
          maxLength={200}
          onChange={(e) => onSearchChange(e.target.value)}
          onPressEnter={() => onSearchNow(text)}
        />
      </FilterField>
      <FilterField label="MMA class" htmlFor="accounts-class" style={{ flex: '1.5 1 240px', maxWidth: 480 }}>
        <Select
          id="accounts-class"
          mode="multiple"
          allowClear
          placeholder="All classes"
          options={LIST_CLASS_OPTIONS}
          value={filters.classIds}
          onChange={(classIds: number[]) => onChange({ classIds })}
          maxTagCount="responsive"
          showSearch={{ optionFilterProp: 'label' }}
        />
      </FilterField>
      <FilterField label="SaaS image" htmlFor="accounts-image" style={{ flex: '1 1 160px', maxWidth: 360 }}>
        <Select
          id="accounts-image"
          allowClear
          placeholder="Any image"
          options={imageOptions}
          value={filters.saasImage}
          onChange={(saasImage: string | undefined) => onChange({ saasImage })}
          showSearch={{ optionFilterProp: 'label' }}
          loading={images.isLoading}
        />
      </FilterField>
      <FilterField label="Machine status include" htmlFor="accounts-status-include" style={{ flex: '1 1 190px', maxWidth: 360 }}>
        <Select
          id="accounts-status-include"
          mode="multiple"
          allowClear
          placeholder="Any status"
          options={STATUS_OPTIONS}
          value={filters.machineStatusInclude}
          onChange={(machineStatusInclude) => onChange({ machineStatusInclude })}
          maxTagCount="responsive"
        />
      </FilterField>
      <FilterField label="Machine status exclude" htmlFor="accounts-status-exclude" style={{ flex: '1 1 190px', maxWidth: 360 }}>
        <Select
          id="accounts-status-exclude"
          mode="multiple"
          allowClear
          placeholder="None excluded"
          options={STATUS_OPTIONS}
          value={filters.machineStatusExclude}
          onChange={(machineStatusExclude) => onChange({ machineStatusExclude })}
          maxTagCount="responsive"
        />
      </FilterField>
    </FilterBar>
  );
}
