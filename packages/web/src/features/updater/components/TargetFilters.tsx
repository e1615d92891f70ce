/**
 * The Updater's mode selector and filters (spec 3 §2.8): Machine or Account (a
 * segmented control), the class filter (multi-select; Customer Production only
 * with group CustomerProductionAccess, the add-on class only in account mode)
 * and a name search applied 500 ms after the last keystroke or at once on
 * Enter. The filters the accounts list passed on ('Update these accounts') show
 * as a tag that clears them.
 */
import { useEffect, useRef, useState } from 'react';
import { Form, Input, Segmented, Select, Tag } from 'antd';
import { CLASS_ADD_ON } from '@fleet/contracts';
import { useAuth } from '../../../app/auth/auth-context';
import { SEARCH_DEBOUNCE_MS } from '../../../lib/use-debounced-value';
import { selectableClasses } from '../../accounts/use-account-list-params';
import type { UpdaterMode } from '../use-updater-params';

interface Props {
  mode: UpdaterMode;
  classIds: number[];
  search: string;
  extraFilters: string[];
  onMode(mode: UpdaterMode): void;
  onClassIds(ids: number[]): void;
  onSearch(search: string): void;
  onClearExtra(): void;
}

export const MODE_OPTIONS = [
  { value: 'machine', label: 'Machine' },
  { value: 'account', label: 'Account' },
] satisfies { value: UpdaterMode; label: string }[];

export function TargetFilters({ mode, classIds, search, extraFilters, onMode, onClassIds, onSearch, onClearExtra }: Props) {
  const { hasCustomerProductionAccess } = useAuth();
  const classOptions = selectableClasses(hasCustomerProductionAccess)
    .filter((c) => mode === 'account' || c.id !== CLASS_ADD_ON)
    .map((c) => ({ value: c.id as number, label: c.name }));

  // The box shows what the user types; the URL follows after the debounce.
  const [text, setText] = useState(search);
  const [seenSearch, setSeenSearch] = useState(search);
  if (search !== seenSearch) {
    setSeenSearch(search);
    setText(search);
  }
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const onText = (value: string) => {
    setText(value);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => onSearch(value), SEARCH_DEBOUNCE_MS);
  };

  return (
    <Form layout="vertical" component="div" style={{ display: 'flex', flexWrap: 'wrap', columnGap: 12, alignItems: 'flex-end' }}>
      <Form.Item label="Mode" style={{ marginBottom: 12 }}>
        <Segmented<UpdaterMode> aria-label="Updater mode" options={MODE_OPTIONS} value={mode} onChange={onMode} />
      </Form.Item>
      <Form.Item label="Class" htmlFor="updater-class" style={{ flex: '1.5 1 240px', maxWidth: 480, marginBottom: 12 }}>
        <Select
          id="updater-class"
          mode="multiple"
          allowClear
          placeholder="All classes"
          options={classOptions}
          value={classIds}
          onChange={onClassIds}
          maxTagCount="responsive"
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
      <Form.Item label="Search" htmlFor="updater-search" style={{ flex: '1 1 180px', maxWidth: 360, marginBottom: 12 }}>
        <Input
          id="updater-search"
          type="search"
          placeholder={mode === 'machine' ? 'Machine name' : 'Name, URL name, customer or creator'}
          maxLength={200}
          value={text}
          onChange={(e) => onText(e.target.value)}
          onPressEnter={() => {
            window.clearTimeout(timer.current);
            onSearch(text);
          }}
        />
      </Form.Item>
      {extraFilters.length > 0 && (
        <Form.Item label="From the accounts list" style={{ marginBottom: 12 }}>
          <Tag closable closeIcon onClose={onClearExtra} aria-label={`Accounts list filters ${extraFilters.join(', ')}`}>
            {extraFilters.join(' · ')}
          </Tag>
        </Form.Item>
      )}
    </Form>
  );
}
