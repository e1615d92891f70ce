/**
 * Batch flags of the selected targets (spec 3 §2.8; spec 2 §2.2, §5):
 *
 * - machine mode: managed, manual maintenance and class (`PUT /machines/batch`);
 * - account mode: managed, class and auto test (`PUT /accounts/batch`); manual
 *   maintenance is shown switched off and disabled: it does nothing in account
 *   mode.
 *
 * Each field starts as "Leave as is"; Preview runs the call as a dry run and
 * shows the changes, Apply sends it (atomic: every target or none). Moving
 * targets into Customer Production needs group CustomerProductionAccess (the
 * class is not offered without it; the server answers 403 too).
 */
import { useState } from 'react';
import { Button, Flex, Form, Select, Switch, Typography } from 'antd';
import { CLASS_ADD_ON, type TBatchResult } from '@fleet/contracts';
import { useAuth } from '../../../app/auth/auth-context';
import { selectableClasses } from '../../accounts/use-account-list-params';
import { useBatchAccounts, useBatchMachines } from '../api/mutations';
import type { UpdaterMode } from '../use-updater-params';
import { PreviewModal } from './PreviewModal';

type Tri = 'keep' | 'on' | 'off';
const TRI_OPTIONS = [
  { value: 'keep', label: 'Leave as is' },
  { value: 'on', label: 'Yes' },
  { value: 'off', label: 'No' },
];
const triValue = (t: Tri) => (t === 'keep' ? undefined : t === 'on');

/** Manual maintenance in account mode (spec 3 §2.8). */
export const ACCOUNT_MAINTENANCE_TEXT = 'Manual maintenance does nothing in account mode: set it on the machines (Machine mode).';

interface Props {
  mode: UpdaterMode;
  ids: number[];
}

export function BatchFlagsCard({ mode, ids }: Props) {
  const { hasCustomerProductionAccess } = useAuth();
  const [managed, setManaged] = useState<Tri>('keep');
  const [maintenance, setMaintenance] = useState<Tri>('keep');
  const [autoTest, setAutoTest] = useState<Tri>('keep');
  const [classId, setClassId] = useState<number | undefined>(undefined);
  const [preview, setPreview] = useState<TBatchResult | undefined>(undefined);
  const machines = useBatchMachines();
  const accounts = useBatchAccounts();
  const pending = machines.isPending || accounts.isPending;

  const classOptions = selectableClasses(hasCustomerProductionAccess)
    .filter((c) => mode === 'account' || c.id !== CLASS_ADD_ON)
    .map((c) => ({ value: c.id as number, label: c.name }));
  const nothingChosen = managed === 'keep' && classId === undefined && (mode === 'machine' ? maintenance === 'keep' : autoTest === 'keep');

  const send = (dryRun: boolean) => {
    const done = (result: TBatchResult) => {
      if (dryRun) setPreview(result);
      else {
        setPreview(undefined);
        setManaged('keep');
        setMaintenance('keep');
        setAutoTest('keep');
        setClassId(undefined);
      }
    };
    if (mode === 'machine') {
      machines.mutate({ machineIds: ids, managed: triValue(managed), manualMaintenance: triValue(maintenance), classId, dryRun }, { onSuccess: done });
    } else {
      accounts.mutate({ accountIds: ids, managed: triValue(managed), classId, autoTest: triValue(autoTest), dryRun }, { onSuccess: done });
    }
  };

  return (
    <>
      <Form layout="vertical" component="div" style={{ display: 'flex', flexWrap: 'wrap', columnGap: 12 }}>
        <Form.Item label="Managed" htmlFor="batch-managed" style={{ minWidth: 140, marginBottom: 12 }}>
          <Select id="batch-managed" options={TRI_OPTIONS} value={managed} onChange={setManaged} />
        </Form.Item>
        {mode === 'machine' ? (
          <Form.Item label="Manual maintenance" htmlFor="batch-maintenance" style={{ minWidth: 160, marginBottom: 12 }}>
            <Select id="batch-maintenance" options={TRI_OPTIONS} value={maintenance} onChange={setMaintenance} />
          </Form.Item>
        ) : (
          <Form.Item label="Manual maintenance" htmlFor="batch-maintenance" help={ACCOUNT_MAINTENANCE_TEXT} style={{ maxWidth: 260, marginBottom: 12 }}>
            <Switch id="batch-maintenance" disabled checked={false} />
          </Form.Item>
        )}
        {mode === 'account' && (
          <Form.Item label="Auto test" htmlFor="batch-auto-test" style={{ minWidth: 140, marginBottom: 12 }}>
            <Select id="batch-auto-test" options={TRI_OPTIONS} value={autoTest} onChange={setAutoTest} />
          </Form.Item>
        )}
        <Form.Item label="Class" htmlFor="batch-class" style={{ minWidth: 200, marginBottom: 12 }}>
          <Select id="batch-class" allowClear placeholder="Leave as is" options={classOptions} value={classId} onChange={setClassId} />
        </Form.Item>
      </Form>
      <Flex gap={8} align="center">
        <Button type="primary" disabled={ids.length === 0 || nothingChosen} loading={pending && !preview} onClick={() => send(true)}>
          Preview flags
        </Button>
        {ids.length === 0 && <Typography.Text type="secondary">Select {mode === 'machine' ? 'machines' : 'accounts'} first.</Typography.Text>}
      </Flex>
      <PreviewModal
        title={`Set flags of ${ids.length} ${mode === 'machine' ? 'machines' : 'accounts'}`}
        result={preview}
        applying={pending}
        onApply={() => send(false)}
        onCancel={() => setPreview(undefined)}
      />
    </>
  );
}
