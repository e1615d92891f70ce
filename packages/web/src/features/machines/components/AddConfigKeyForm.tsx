/**
 * The add-key row of the machine config editors (spec 2 §5): Component (root
 * key, suggested from the catalogue and the machine's keys), Sub key (suggested
 * from the catalogue's sub keys of that root key, without keys the machine
 * already has), Data type (string, number, boolean, json; choosing a suggested
 * sub key takes its definition's type) and Add.
 *
 * `onAdd` decides (see `decideAdd`) and answers the decision: an invalid key
 * shows its field error; a key added clears the sub key; anything else leaves
 * the row as it is (a type mismatch is silently aborted).
 */
import { useMemo, useState } from 'react';
import { AutoComplete, Button, Flex, Form, Select } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { CONFIG_DATA_TYPES, type TConfigDataTypeName } from '@fleet/contracts';
import { rootKeys, subKeySuggestions, typeName, type AddDecision, type DefinitionLike } from './config-rules';

export interface AddKeyInput {
  rootKey: string;
  subKey: string;
  dataType: TConfigDataTypeName;
}

interface Props {
  /** Prefix of the inputs' ids (one form per dialog). */
  idPrefix: string;
  definitions: readonly DefinitionLike[];
  /** `definitions` by key (`byKey`). */
  definitionsByKey: ReadonlyMap<string, DefinitionLike>;
  present: ReadonlySet<string>;
  adding: boolean;
  onAdd(input: AddKeyInput): Promise<AddDecision | 'failed'>;
}

const matches = (input: string, option?: { value: string }) => (option?.value ?? '').toLowerCase().includes(input.toLowerCase());

export function AddConfigKeyForm({ idPrefix, definitions, definitionsByKey, present, adding, onAdd }: Props) {
  const [rootKey, setRootKey] = useState('');
  const [subKey, setSubKey] = useState('');
  const [dataType, setDataType] = useState<TConfigDataTypeName>('string');
  const [error, setError] = useState<{ field: 'rootKey' | 'subKey'; message: string } | undefined>(undefined);

  const rootOptions = useMemo(() => rootKeys(definitions, [...present]).map((value) => ({ value })), [definitions, present]);
  const subOptions = subKeySuggestions(definitions, rootKey.trim(), present).map((value) => ({ value }));

  const add = async () => {
    setError(undefined);
    const decision = await onAdd({ rootKey: rootKey.trim(), subKey: subKey.trim(), dataType });
    if (decision === 'failed') return;
    if (decision.kind === 'invalid') setError({ field: decision.field, message: decision.message });
    else if (decision.kind === 'known' || decision.kind === 'unknown') setSubKey('');
  };

  const fieldError = (field: 'rootKey' | 'subKey') =>
    error?.field === field ? { validateStatus: 'error' as const, help: error.message } : {};

  return (
    <Form layout="vertical" component="div" aria-label="Add a key">
      <Flex gap={8} align="flex-start" wrap>
        <Form.Item label="Component" htmlFor={`${idPrefix}-root`} style={{ marginBottom: 0, flex: '1 1 180px' }} {...fieldError('rootKey')}>
          <AutoComplete
            id={`${idPrefix}-root`}
            value={rootKey}
            options={rootOptions}
            filterOption={matches}
            placeholder="e.g. launcher"
            onChange={(v: string) => setRootKey(v)}
          />
        </Form.Item>
        <Form.Item label="Sub key" htmlFor={`${idPrefix}-sub`} style={{ marginBottom: 0, flex: '1 1 220px' }} {...fieldError('subKey')}>
          <AutoComplete
            id={`${idPrefix}-sub`}
            value={subKey}
            options={subOptions}
            filterOption={matches}
            placeholder="e.g. port"
            onChange={(v: string) => setSubKey(v)}
            onSelect={(v: string) => {
              const def = definitionsByKey.get(`${rootKey.trim()}.${v}`);
              if (def) setDataType(typeName(def.dataType));
            }}
          />
        </Form.Item>
        <Form.Item label="Data type" htmlFor={`${idPrefix}-type`} style={{ marginBottom: 0, flex: '0 0 130px' }}>
          <Select
            id={`${idPrefix}-type`}
            value={dataType}
            onChange={setDataType}
            options={CONFIG_DATA_TYPES.map((t) => ({ value: t, label: t }))}
          />
        </Form.Item>
        <Form.Item label=" " style={{ marginBottom: 0 }}>
          <Button icon={<PlusOutlined aria-hidden />} loading={adding} disabled={!rootKey.trim() || !subKey.trim()} onClick={() => void add()}>
            Add
          </Button>
        </Form.Item>
      </Flex>
    </Form>
  );
}
